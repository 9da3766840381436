// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator as an elvkit host, seen from the workload: submit_bio and
 * its stages in the order blk_mq_submit_bio() runs them (plug merge,
 * scheduler merge, wbt throttle, tag allocation, then the plug or the
 * policy), per-process contexts, and a run's setup and teardown.
 */
#include <stdlib.h>
#include "sim_int.h"

static struct ek_pctx *thread_pctx(struct sim *s, struct sthread *t)
{
	if (!t->pctx) {
		t->pctx = calloc(1, sizeof(struct ek_pctx) + s->pol->pctx_size);
		if (!t->pctx)
			abort();
		ek_pctx_start(s->pol, s->sd, t->pctx, t->id + 1);
	}
	return t->pctx;
}

/* The bio merged: what it was handed while it waited goes back. */
static int merged(struct sim *s, struct sbio *b)
{
	tag_unreserve(s, b->t);
	wbt_bio_merged(s, b);
	return 1;
}

/* The thread sleeps in the block layer; schedule() would flush its plug. */
static int sleep(struct sim *s, struct sthread *t)
{
	if (t->plugged)
		plug_finish(s, t);
	return 0;
}

static int host_submit_bio(struct sim *s, struct sbio *b)
{
	struct sthread *t = b->t;
	struct srq *r;
	uint8_t limited;

	if (t->plugged && plug_merge(s, b))
		return merged(s, b);
	if (sched_merge_bio(s, b))
		return merged(s, b);
	if (!wbt_throttle(s, b))
		return sleep(s, t);
	if (!tag_get(s, t, b->dir, t->sync, &limited))
		return sleep(s, t);
	if (b->dir == EK_READ)
		wbt_read_issue(s);
	r = rq_alloc(s);
	ek_rq_poison_policy(&r->rq);
	r->tag_limited = limited;
	r->wbt_tracked = b->wbt_tracked;
	b->wbt_tracked = 0;	/* the request holds the slot now */
	r->rq.sector = b->sector;
	r->rq.nr_sectors = b->nr;
	r->rq.dir = b->dir;
	r->rq.sync = t->sync;
	r->rq.kind = EK_KIND_NORMAL;
	r->rq.prio_class = t->prio.cls;
	r->rq.prio_level = t->prio.lvl;
	r->rq.owner = t->id + 1;
	r->rq.pctx = ek_policy_wants_pctx(s->pol, s->sd) ? thread_pctx(s, t) :
		     NULL;
	r->rq.arrival_ns = s->now;
	r->rq.host_rq = r;
	r->bios = r->bios_tail = b;
	b->next = NULL;
	if (t->plugged)
		plug_add(s, t, r);
	else
		sched_insert(s, r);
	return 1;
}

/* The thread is gone; its context ends, as exit_io_context does for a task. */
static void host_task_exit(struct sim *s, struct sthread *t)
{
	if (!t->pctx)
		return;
	ek_pctx_end(s->pol, s->sd, t->pctx);
}

const struct sim_host_ops sim_block_layer = {
	.bio_alloc = bio_alloc,
	.submit_bio = host_submit_bio,
	.plug_start = plug_start,
	.plug_finish = plug_finish,
	.task_exit = host_task_exit,
};

int host_setup(struct sim *s)
{
	const struct sim_config *c = s->cfg;
	const char *why;

	s->mt = c->model;
	s->dev = calloc(1, c->model->size);
	if (!s->dev)
		abort();
	if (s->mt->init(s->dev, c->dev))
		return -1;
	s->qd = s->mt->queue_depth(s->dev);
	s->cap = s->mt->capacity(s->dev);
	s->dev_ev_at = EK_U64_MAX;
	s->max_sectors = c->max_kb * 2;

	if (ek_policy_load(&s->ops, c->policy, &why)) {
		sim_violation(s, "%s breaks the contract: %s", c->policy->name, why);
		return -1;
	}
	s->pol = &s->ops;
	s->sd = calloc(1, c->policy->sched_size ? c->policy->sched_size : 1);
	if (!s->sd)
		abort();
	tags_init(s);
	s->host.ops = &sim_policy_host_ops;
	s->host.dev.rotational = (ek_u8)s->mt->rotational(s->dev);
	s->host.dev.queue_depth = s->qd;
	s->host.dev.nr_requests = s->tags.total;
	s->host.host_data = s;
	s->res->nr_requests = s->tags.total;
	s->res->tag_wake_batch = s->tags.wake_batch;
	wbt_init(s);
	if (s->pol->init(s->sd, &s->host, c->tun)) {
		free(s->sd);
		s->sd = NULL;
		return -1;
	}
	return 0;
}

/* After the last event: what must hold when every thread is done. */
void host_end_checks(struct sim *s)
{
	if (s->held || s->dev_inflight || s->requeued_out || s->tags.used || s->wbt.inflight)
		sim_violation(s, "stalled: %llu requests in the policy, %u on the device, "
			      "%u sent back, %u tags and %u wbt slots held, no timer armed",
			      (unsigned long long)s->held, s->dev_inflight, s->requeued_out,
			      s->tags.used, s->wbt.inflight);
	if (s->pol->has_work(s->sd, s->now))
		sim_violation(s, "has_work true at the end with nothing queued");
}

void host_teardown(struct sim *s)
{
	size_t i;

	if (s->sd)
		s->pol->exit(s->sd);
	for (i = 0; i < s->nthreads; i++)
		free(s->threads[i].pctx);
	pool_free_all(s);
	free(s->sd);
	free(s->dev);
}
