// SPDX-License-Identifier: GPL-2.0
/*
 * From the policy to the device and back: keep the device model fed up to
 * its queue depth, complete requests at the model's times, run the
 * policy's timers, and check the policy's side of the contract on the way
 * (each request dispatched exactly once, has_work false when empty).
 */
#include "sim_int.h"

/*
 * The device's next completion, due at t, is seen at t, or with --late-us
 * that much later, as ekdisk's timer fires late in a guest: then
 * everything due by then completes at once.
 */
static void dev_schedule(struct sim *s)
{
	uint64_t t = s->mt->next_done(s->dev), late = 0;

	if (t != EK_U64_MAX && t < s->dev_ev_at) {
		s->dev_ev_at = t;
		if (s->cfg->late_q.n)
			late = sim_delay_draw_ns(&s->cfg->late_q, &s->rng);
		else if (s->cfg->late_us)
			late = (uint64_t)s->cfg->late_us * 1000;
		heap_push(&s->heap, t + late, EV_DEV, NULL, t);
	}
}

/*
 * The "driver" sends a dispatched request back (blk_mq_requeue_request):
 * onto the requeue list, whose work runs --requeue-us later. The policy
 * hears of it now, unless it is RQF_DONTPREP (the shim's requeue_request
 * returns early then, as the kernel's path skips the policy).
 */
static void requeue(struct sim *s, struct srq *r)
{
	r->requeues++;
	s->res->requeues++;
	wbt_rq_requeue(s, r);
	if (!s->cfg->requeue_dontprep && s->pol->requeue)
		s->pol->requeue(s->sd, &r->rq, s->now);
	r->state = RQ_REQUEUED;
	s->requeued_out++;
	heap_push(&s->heap, s->now + s->cfg->requeue_us * 1000, EV_REQUEUE, r, 0);
}

/*
 * The requeue list's work (blk_mq_requeue_work): an RQF_DONTPREP request
 * goes on the dispatch list, which run_queue sends to the device before
 * asking the policy; any other is inserted through the policy again, at
 * the head.
 */
void host_requeue_work(struct sim *s, struct srq *r)
{
	struct ek_rq *q = &r->rq;

	if (s->cfg->requeue_dontprep) {
		srq_list_add_tail(&s->dispatch, r);
		return;
	}
	s->requeued_out--;
	r->state = RQ_QUEUED;
	q->at_head = 1;
	q->requeued = 1;
	s->held++;
	s->pol->insert(s->sd, q, s->now);
	sched_hash_add(s, r);
}

/* r, dispatched, to the device (blk_mq_start_request and queue_rq). */
static void dev_submit(struct sim *s, struct srq *r)
{
	struct ek_rq *q = &r->rq;

	r->state = RQ_DISPATCHED;
	r->issue_ns = s->now;
	r->mrq.sector = q->sector;
	r->mrq.nr_sectors = q->nr_sectors;
	r->mrq.dir = q->dir;
	r->mrq.tag = r;
	wbt_rq_issue(s, r);
	s->mt->submit(s->dev, &r->mrq, s->now);
	s->dev_inflight++;
}

/* The dispatch list first, as blk_mq_sched_dispatch_requests() does. */
static void dispatch_list_run(struct sim *s)
{
	struct srq *r;

	while (s->dev_inflight < s->qd && (r = srq_list_pop(&s->dispatch))) {
		s->requeued_out--;
		dev_submit(s, r);
	}
}

void host_run_queue(struct sim *s)
{
	dispatch_list_run(s);
	while (s->dev_inflight < s->qd) {
		int hw = s->pol->has_work(s->sd, s->now);
		struct ek_rq *q;
		struct srq *r;

		if (!s->held && hw) {
			sim_violation(s, "has_work true with nothing queued");
			break;
		}
		if (s->held && !hw && ek_policy_never_idles(s->pol, &s->host)) {
			sim_violation(s, "has_work false with requests queued, from a policy that never idles");
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
		sched_hash_del(s, r);
		s->held--;
		q->dispatch_ns = s->now;
		acct_dispatch(s, q);
		if (s->cfg->hooks.on_dispatch)
			s->cfg->hooks.on_dispatch(s->cfg->hooks.arg, q, s->now);
		if (s->cfg->requeue_pct && r->requeues < 2 &&
		    sim_rand(&s->rng) % 100 < s->cfg->requeue_pct) {
			requeue(s, r);
			continue;
		}
		dev_submit(s, r);
	}
	dev_schedule(s);
}

/*
 * The rest of a completion, as blk_update_request() and then
 * blk_mq_free_request(): the bios end, the policy hears of it, wbt's slot
 * and the tag go back.
 */
void host_rq_end(struct sim *s, struct srq *r)
{
	struct sbio *b, *nb;

	ek_policy_complete(s->pol, s->sd, &r->rq, s->now, s->now);
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

static void dev_complete(struct sim *s)
{
	struct ek_mrq *m;

	while ((m = s->mt->complete(s->dev, s->now))) {
		struct srq *r = m->tag;

		if (r->state != RQ_DISPATCHED) {
			sim_violation(s, "device completed a request not dispatched");
			continue;
		}
		s->dev_inflight--;
		acct_service(s, r);
		wbt_rq_complete(s, r);
		/*
		 * A write's bios end page by page (end_page_writeback): for
		 * 512 KiB under TCG a median 176 us on 7.2, 288 on 6.12, 423
		 * on 6.1 (bench-kernel.sh --trace-wake); its tag and wbt's
		 * slot go back only then.
		 */
		if (r->rq.dir == EK_WRITE && s->cfg->write_end_us)
			heap_push(&s->heap, s->now + s->cfg->write_end_us * 1000, EV_RQ_END, r, 0);
		else
			host_rq_end(s, r);
	}
}

void host_dev_event(struct sim *s, uint64_t due)
{
	if (due == s->dev_ev_at)
		s->dev_ev_at = EK_U64_MAX;
	dev_complete(s);
}

/* ---- ek_host_ops: the policy's timer ---- */

static void op_timer_arm(struct ek_host *h, ek_u64 when)
{
	struct sim *s = h->host_data;

	if (h->tick_time)
		sim_violation(s, "timer armed with tick_time set");
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

static ek_u64 op_now(struct ek_host *h)
{
	return ((struct sim *)h->host_data)->now;
}

const struct ek_host_ops sim_policy_host_ops = {
	.timer_arm = op_timer_arm,
	.timer_cancel = op_timer_cancel,
	.kick = op_kick,
	.now = op_now,
};

int host_timer_current(struct sim *s, uint64_t gen)
{
	return gen == s->timer_gen;
}
