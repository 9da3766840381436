// SPDX-License-Identifier: GPL-2.0
/*
 * The simulator as an elvkit host: it owns requests, finds back merges,
 * offers front merges through the policy, keeps the device model fed up to
 * its queue depth, completes requests at the model's times, and checks the
 * policy's side of the contract as it goes (each request dispatched exactly
 * once, has_work false when empty, nothing lost on merge or requeue).
 */
#include <stdlib.h>
#include <string.h>
#include "sim_int.h"

static void *chunk(struct sim *s, size_t bytes)
{
	void *p = calloc(1, bytes);

	if (!p)
		abort();
	s->chunks = realloc(s->chunks, (s->nchunks + 1) * sizeof(*s->chunks));
	if (!s->chunks)
		abort();
	s->chunks[s->nchunks++] = p;
	return p;
}

static struct srq *rq_alloc(struct sim *s)
{
	struct srq *r;

	if (!s->free_rq) {
		struct srq *a = chunk(s, 256 * sizeof(*a));
		int i;

		for (i = 255; i >= 0; i--) {
			a[i].pool_next = s->free_rq;
			s->free_rq = &a[i];
		}
	}
	r = s->free_rq;
	s->free_rq = r->pool_next;
	memset(r, 0, sizeof(*r));
	return r;
}

static void rq_free(struct sim *s, struct srq *r)
{
	r->state = RQ_FREE;
	r->pool_next = s->free_rq;
	s->free_rq = r;
}

static struct sbio *host_bio_alloc(struct sim *s)
{
	struct sbio *b;

	if (!s->free_bio) {
		struct sbio *a = chunk(s, 1024 * sizeof(*a));
		int i;

		for (i = 1023; i >= 0; i--) {
			a[i].next = s->free_bio;
			s->free_bio = &a[i];
		}
	}
	b = s->free_bio;
	s->free_bio = b->next;
	memset(b, 0, sizeof(*b));
	return b;
}

static void bio_free(struct sim *s, struct sbio *b)
{
	b->next = s->free_bio;
	s->free_bio = b;
}

/* ---- back-merge hash, by end sector, of requests inside the policy ---- */

static unsigned hkey(uint64_t end)
{
	return (unsigned)((end * 0x9E3779B97F4A7C15ULL) >> (64 - HASH_BITS));
}

static void hash_add(struct sim *s, struct srq *r)
{
	unsigned k = hkey(ek_rq_end(&r->rq));

	r->hnext = s->hash[k];
	s->hash[k] = r;
}

static void hash_del(struct sim *s, struct srq *r)
{
	struct srq **pp = &s->hash[hkey(ek_rq_end(&r->rq))];

	for (; *pp; pp = &(*pp)->hnext) {
		if (*pp == r) {
			*pp = r->hnext;
			r->hnext = NULL;
			return;
		}
	}
	sim_violation(s, "host: request missing from its merge hash");
}

static int mergeable(struct sim *s, const struct srq *a, const struct srq *b)
{
	return a->state == RQ_QUEUED && b->state == RQ_QUEUED &&
	       a->rq.dir == b->rq.dir && a->rq.owner == b->rq.owner &&
	       a->rq.kind == EK_KIND_NORMAL && b->rq.kind == EK_KIND_NORMAL &&
	       !a->rq.at_head && !b->rq.at_head && a->rq.sync == b->rq.sync &&
	       (uint64_t)a->rq.nr_sectors + b->rq.nr_sectors <= s->max_sectors;
}

/* A queued request ending at `end` that can take `b` (or request b) at its back. */
static struct srq *hash_find(struct sim *s, uint64_t end, const struct srq *like)
{
	struct srq *r;

	for (r = s->hash[hkey(end)]; r; r = r->hnext)
		if (ek_rq_end(&r->rq) == end && r != like && mergeable(s, r, like))
			return r;
	return NULL;
}

static void wake_waiter(struct sim *s, uint8_t dir)
{
	struct sthread *t = s->wait_head[dir];

	if (!t)
		return;
	s->wait_head[dir] = t->wnext;
	if (!t->wnext)
		s->wait_tail[dir] = NULL;
	t->wnext = NULL;
	t->waiting = 0;
	heap_push(&s->heap, s->now, EV_THREAD, t, 0);
}

static void host_wait(struct sim *s, struct sthread *t, uint8_t dir)
{
	t->waiting = 1;
	t->wnext = NULL;
	if (s->wait_tail[dir])
		s->wait_tail[dir]->wnext = t;
	else
		s->wait_head[dir] = t;
	s->wait_tail[dir] = t;
}

/*
 * A request slot of direction dir is free: hand it straight to the first
 * waiting thread (so that nobody overtakes it), or give it back.
 */
static void slot_free(struct sim *s, uint8_t dir)
{
	struct sthread *t = s->wait_head[dir];

	if (!t) {
		s->allocated[dir]--;
		return;
	}
	t->reserved = 1;
	wake_waiter(s, dir);
}

static void rq_release(struct sim *s, struct srq *r)
{
	uint8_t dir = r->rq.dir;

	rq_free(s, r);
	slot_free(s, dir);
}

/* The bio of a thread holding a handed-over slot merged: pass the slot on. */
static void drop_reservation(struct sim *s, struct sthread *t, uint8_t dir)
{
	if (t->reserved) {
		t->reserved = 0;
		slot_free(s, dir);
	}
}

/* next (queued, adjacent after rq) is absorbed into rq */
static void merge_requests(struct sim *s, struct srq *rq, struct srq *next)
{
	if (ek_rq_end(&rq->rq) != next->rq.sector) {
		sim_violation(s, "policy offered a non-adjacent request for merging");
		return;
	}
	hash_del(s, rq);
	hash_del(s, next);
	rq->rq.nr_sectors += next->rq.nr_sectors;
	s->pol->merged_requests(s->sd, &rq->rq, &next->rq);
	if (s->cfg->hooks.on_merged_away)
		s->cfg->hooks.on_merged_away(s->cfg->hooks.arg, &next->rq, &rq->rq, s->now);
	rq->bios_tail->next = next->bios;
	rq->bios_tail = next->bios_tail;
	next->bios = next->bios_tail = NULL;
	hash_add(s, rq);
	s->held--;
	s->res->merged_away++;
	rq_release(s, next);
}

static struct srq *policy_front_candidate(struct sim *s, uint8_t dir, uint64_t end)
{
	struct ek_rq *c;
	struct srq *r;

	if (!s->pol->front_merge_candidate)
		return NULL;
	c = s->pol->front_merge_candidate(s->sd, dir, end);
	if (!c)
		return NULL;
	r = ek_container_of(c, struct srq, rq);
	if (r->state != RQ_QUEUED) {
		sim_violation(s, "front_merge_candidate returned a request not queued");
		return NULL;
	}
	if (c->sector != end || c->dir != dir) {
		sim_violation(s, "front_merge_candidate returned a request not at the end sector");
		return NULL;
	}
	return r;
}

static struct ek_pctx *thread_pctx(struct sim *s, struct sthread *t)
{
	if (!t->pctx) {
		t->pctx = calloc(1, sizeof(struct ek_pctx) + s->pol->pctx_size);
		if (!t->pctx)
			abort();
		t->pctx->owner = t->id + 1;
		if (s->pol->pctx_init)
			s->pol->pctx_init(s->sd, t->pctx);
	}
	return t->pctx;
}

static int host_submit_bio(struct sim *s, struct sbio *b)
{
	struct sthread *t = b->t;
	struct srq probe, *r, *nx;

	memset(&probe, 0, sizeof(probe));
	probe.state = RQ_QUEUED;
	probe.rq.dir = b->dir;
	probe.rq.owner = t->id + 1;
	probe.rq.sync = t->sync;
	probe.rq.sector = b->sector;
	probe.rq.nr_sectors = b->nr;

	/* back merge: a queued request ending where the bio starts */
	r = hash_find(s, b->sector, &probe);
	if (r) {
		hash_del(s, r);
		r->rq.nr_sectors += b->nr;
		r->bios_tail->next = b;
		r->bios_tail = b;
		b->next = NULL;
		hash_add(s, r);
		if (s->pol->merged)
			s->pol->merged(s->sd, &r->rq, r->rq.sector);
		s->res->back_merges++;
		drop_reservation(s, t, b->dir);
		nx = policy_front_candidate(s, b->dir, ek_rq_end(&r->rq));
		if (nx && nx != r && mergeable(s, r, nx))
			merge_requests(s, r, nx);
		return 1;
	}

	/* front merge: a queued request starting where the bio ends */
	r = policy_front_candidate(s, b->dir, b->sector + b->nr);
	if (r && mergeable(s, r, &probe)) {
		uint64_t old = r->rq.sector;
		struct srq *pv;

		r->rq.sector = b->sector;
		r->rq.nr_sectors += b->nr;
		b->next = r->bios;
		r->bios = b;
		if (s->pol->merged)
			s->pol->merged(s->sd, &r->rq, old);
		s->res->front_merges++;
		drop_reservation(s, t, b->dir);
		pv = hash_find(s, r->rq.sector, r);
		if (pv)
			merge_requests(s, pv, r);
		return 1;
	}

	if (t->reserved)
		t->reserved = 0;	/* the slot was handed over, still counted */
	else if (s->allocated[b->dir] >= s->cfg->nr_requests)
		return 0;
	else
		s->allocated[b->dir]++;
	r = rq_alloc(s);
	r->rq.sector = b->sector;
	r->rq.nr_sectors = b->nr;
	r->rq.dir = b->dir;
	r->rq.sync = t->sync;
	r->rq.kind = EK_KIND_NORMAL;
	r->rq.prio_class = t->prio.cls;
	r->rq.prio_level = t->prio.lvl;
	r->rq.owner = t->id + 1;
	r->rq.pctx = thread_pctx(s, t);
	r->rq.arrival_ns = s->now;
	r->rq.host_rq = r;
	r->bios = r->bios_tail = b;
	b->next = NULL;
	r->state = RQ_QUEUED;
	s->held++;
	s->res->inserted++;
	s->pol->insert(s->sd, &r->rq, s->now);
	hash_add(s, r);
	if (s->cfg->hooks.on_insert)
		s->cfg->hooks.on_insert(s->cfg->hooks.arg, &r->rq, s->now);
	return 1;
}

/* ---- dispatch and completion ---- */

static void dev_schedule(struct sim *s)
{
	uint64_t t = s->mt->next_done(s->dev);

	if (t != EK_U64_MAX && t < s->dev_ev_at) {
		s->dev_ev_at = t;
		heap_push(&s->heap, t, EV_DEV, NULL, 0);
	}
}

void host_run_queue(struct sim *s)
{
	while (s->dev_inflight < s->qd) {
		int hw = s->pol->has_work(s->sd, s->now);
		struct ek_rq *q;
		struct srq *r;

		if (!s->held && hw) {
			sim_violation(s, "has_work true with nothing queued");
			break;
		}
		if (!hw)
			break;
		q = s->pol->dispatch(s->sd, s->now);
		if (!q) {
			sim_violation(s, "has_work true but dispatch returned NULL");
			break;
		}
		r = ek_container_of(q, struct srq, rq);
		if (r->state != RQ_QUEUED) {
			sim_violation(s, "dispatch returned a request that is not queued (state %d)",
				      r->state);
			break;
		}
		hash_del(s, r);
		s->held--;
		r->state = RQ_DISPATCHED;
		q->dispatch_ns = s->now;
		acct_dispatch(s, q);
		if (s->cfg->hooks.on_dispatch)
			s->cfg->hooks.on_dispatch(s->cfg->hooks.arg, q, s->now);
		if (s->cfg->requeue_pct && r->requeues < 2 &&
		    sim_rand(&s->rng) % 100 < s->cfg->requeue_pct) {
			/* the "driver" bounces it: back to the policy, at head */
			r->requeues++;
			s->res->requeues++;
			if (s->pol->requeue)
				s->pol->requeue(s->sd, q, s->now);
			r->state = RQ_QUEUED;
			q->at_head = 1;
			s->held++;
			s->pol->insert(s->sd, q, s->now);
			hash_add(s, r);
			continue;
		}
		r->mrq.sector = q->sector;
		r->mrq.nr_sectors = q->nr_sectors;
		r->mrq.dir = q->dir;
		r->mrq.tag = r;
		s->mt->submit(s->dev, &r->mrq, s->now);
		s->dev_inflight++;
	}
	dev_schedule(s);
}

static void dev_complete(struct sim *s)
{
	struct ek_mrq *m;

	while ((m = s->mt->complete(s->dev, s->now))) {
		struct srq *r = m->tag;
		struct sbio *b, *nb;

		if (r->state != RQ_DISPATCHED) {
			sim_violation(s, "device completed a request not dispatched");
			continue;
		}
		s->dev_inflight--;
		acct_service(s, &r->rq);
		s->pol->completed(s->sd, &r->rq, s->now);
		if (s->cfg->hooks.on_complete)
			s->cfg->hooks.on_complete(s->cfg->hooks.arg, &r->rq, s->now);
		for (b = r->bios; b; b = nb) {
			nb = b->next;
			b->end_io(s, b);
			bio_free(s, b);
		}
		r->bios = r->bios_tail = NULL;
		rq_release(s, r);
	}
}

/* ---- ek_host_ops ---- */

static void op_timer_arm(struct ek_host *h, ek_u64 when)
{
	struct sim *s = h->host_data;

	s->timer_gen++;
	heap_push(&s->heap, when > s->now ? when : s->now, EV_TIMER, NULL, s->timer_gen);
}

static void op_timer_cancel(struct ek_host *h)
{
	struct sim *s = h->host_data;

	s->timer_gen++;
}

static void op_kick(struct ek_host *h)
{
	/* run_queue follows every event anyway */
	(void)h;
}

static const struct ek_host_ops policy_host_ops = {
	.timer_arm = op_timer_arm,
	.timer_cancel = op_timer_cancel,
	.kick = op_kick,
};

/* The thread is gone; its context ends, as exit_io_context does for a task. */
static void host_task_exit(struct sim *s, struct sthread *t)
{
	if (!t->pctx)
		return;
	if (s->pol->pctx_exit)
		s->pol->pctx_exit(s->sd, t->pctx);
	t->pctx->flags |= EK_PCTX_EXITED;
}

const struct sim_host_ops sim_block_layer = {
	.bio_alloc = host_bio_alloc,
	.submit_bio = host_submit_bio,
	.wait_request = host_wait,
	.task_exit = host_task_exit,
};

void host_dev_event(struct sim *s, uint64_t at)
{
	if (at == s->dev_ev_at)
		s->dev_ev_at = EK_U64_MAX;
	dev_complete(s);
}

int host_timer_current(struct sim *s, uint64_t gen)
{
	return gen == s->timer_gen;
}

int host_setup(struct sim *s)
{
	const struct sim_config *c = s->cfg;

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

	s->pol = c->policy;
	s->sd = calloc(1, c->policy->sched_size ? c->policy->sched_size : 1);
	if (!s->sd)
		abort();
	s->host.ops = &policy_host_ops;
	s->host.dev.rotational = (ek_u8)s->mt->rotational(s->dev);
	s->host.dev.queue_depth = s->qd;
	s->host.dev.nr_requests = c->nr_requests;
	s->host.host_data = s;
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
	if (s->held || s->dev_inflight || s->allocated[0] || s->allocated[1])
		sim_violation(s, "stalled: %llu requests in the policy, %u on the device, "
			      "no timer armed", (unsigned long long)s->held, s->dev_inflight);
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
	for (i = 0; i < s->nchunks; i++)
		free(s->chunks[i]);
	free(s->chunks);
	free(s->sd);
	free(s->dev);
}
