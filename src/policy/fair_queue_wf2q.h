/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fair-queue's queue scheduler: B-WF2Q+-like fair order over the busy
 * queues of one priority class, in integer virtual time.
 *
 * Each busy queue has a virtual start S and finish F: F = S + budget / w
 * (w its weight). The class's virtual time V grows by the service given
 * divided by the sum of the busy weights, so over a round every busy
 * queue's share of V is its share of the service. A queue is eligible
 * once S <= V; the next queue served is the eligible one with the
 * smallest F. Eligibility is what keeps a heavy queue from running ahead:
 * a queue that just got a long slot restarts at S = its old F and waits
 * until V catches up.
 *
 * Instead of BFQ's tree augmented with the minimum start, two min-heaps:
 * "eligible" by F and "waiting" by S. A queue moves from waiting to
 * eligible at most once per activation or slot, so picking is
 * O(log busy queues) amortised, and nothing here is per request. Only
 * minimums are ever asked for, so pairing heaps rather than trees: a
 * queue becoming busy, once per switch with many small queues, costs one
 * comparison instead of a descent and a rebalance.
 *
 * When a slot ends the queue is charged what it actually used (not its
 * budget): its F is recomputed from its S, which is what makes a queue
 * that emptied early lose no share.
 *
 * Included by fair_queue.c alone, as static functions: with many small
 * queues every request is a queue switch, and calls across object files
 * (saved registers, reloaded state) were some 20 of its instructions.
 */
#ifndef ELVKIT_FAIR_QUEUE_WF2Q_H
#define ELVKIT_FAIR_QUEUE_WF2Q_H

#include "fair_queue.h"

static ek_u64 fq_vt(ek_u64 service, ek_u32 weight)
{
	return (service << FQ_VT_SHIFT) / (weight ? weight : 1);
}

static struct fq_queue *fq_of_node(struct ek_ph_node *n)
{
	return n ? ek_ph_entry(n, struct fq_queue, node) : EK_NULL;
}

/* Put busy queue q on the heap its start says; every switch does. */
static ek_always_inline void fq_enqueue(struct fq_class *c,
					struct fq_queue *q)
{
	if (q->vstart <= c->vtime) {
		q->flags |= FQ_Q_ELIGIBLE;
		ek_ph_insert(&c->eligible, &q->node, q->vfinish);
	} else {
		q->flags &= ~FQ_Q_ELIGIBLE;
		ek_ph_insert(&c->waiting, &q->node, q->vstart);
	}
}

/* Move every waiting queue whose start V has reached. */
static void fq_update_eligible(struct fq_class *c)
{
	struct fq_queue *q;

	while ((q = fq_of_node(ek_ph_first(&c->waiting))) &&
	       q->vstart <= c->vtime) {
		ek_ph_erase(&c->waiting, &q->node);
		q->flags |= FQ_Q_ELIGIBLE;
		ek_ph_insert(&c->eligible, &q->node, q->vfinish);
	}
}

static void fq_sums_add(struct fq_class *c, ek_u32 w)
{
	c->wsum += w;
	c->wsq += (ek_u64)w * w;
}

static void fq_sums_sub(struct fq_class *c, ek_u32 w)
{
	c->wsum -= w;
	c->wsq -= (ek_u64)w * w;
}

/* q becomes busy: it joins the fair order of its class. */
static void ek_fq_activate(struct fq_data *fd, struct fq_queue *q, ek_u64 now)
{
	struct fq_class *c = q->in_class;

	if (!c->nr_busy)
		c->wait_since_ns = now;
	/*
	 * A queue that was over-served (F ahead of V) keeps its debt; one
	 * that was idle starts now, with no credit for the time it slept.
	 */
	q->vstart = ek_max_u64(c->vtime, q->vfinish);
	/*
	 * Its finish assumes a small slot, not its budget: a queue coming
	 * back with a big budget (a reader that streamed before) would
	 * otherwise wait for budget x busy queues of others' service, all of
	 * them small random reads perhaps. It is charged what it uses.
	 */
	q->vfinish = q->vstart + fq_vt(ek_min_u64(q->budget, fd->min_budget),
				       q->weight);
	fq_sums_add(c, q->weight);
	c->nr_busy++;
	fd->nr_busy++;
	q->flags |= FQ_Q_BUSY;
	fq_enqueue(c, q);
}

/*
 * The queue in service is done with its slot, having used charge service
 * units: advance the class's virtual time, stamp the queue's finish, and
 * put it back among the busy queues if it has requests, else make it idle.
 * Inline into fq_expire, which dispatch inlines: every I/O can end a slot.
 */
static ek_always_inline void ek_fq_slot_done(struct fq_data *fd,
					     struct fq_queue *q,
					     ek_u64 charge, ek_u64 debt_max,
					     ek_u64 now)
{
	struct fq_class *c = q->in_class;

	if (c->wsum)
		c->vtime += (charge << FQ_VT_SHIFT) / c->wsum;
	q->vfinish = q->vstart + fq_vt(charge, q->weight);
	/*
	 * A slot taken out of turn (debt_max, else 0) ends at most debt_max
	 * of service ahead of V. A queue served in order starts at or
	 * before V, so only such a slot can run it further ahead: a close
	 * cooperator served in its neighbours' slots again and again would
	 * otherwise wait for V to catch up with all of it at once.
	 */
	if (debt_max) {
		ek_u64 lim = c->vtime + fq_vt(debt_max, q->weight);

		if (q->vfinish > lim)
			q->vfinish = lim;
	}
	if (q->nr_queued) {
		q->vstart = q->vfinish;
		q->vfinish = q->vstart + fq_vt(q->budget, q->weight);
		fq_enqueue(c, q);
		return;
	}
	fq_sums_sub(c, q->weight);
	c->nr_busy--;
	fd->nr_busy--;
	q->flags &= ~FQ_Q_BUSY;
	q->idle_since_ns = now;
}

/* Busy queue q, out of service, leaves its heap (to be served, or idle). */
static void ek_fq_take(struct fq_queue *q)
{
	struct fq_class *c = q->in_class;

	ek_ph_erase(q->flags & FQ_Q_ELIGIBLE ? &c->eligible : &c->waiting,
		    &q->node);
	q->flags &= ~FQ_Q_ELIGIBLE;
}

/* Busy queue q (not in service) has nothing queued any more: make it idle. */
static void ek_fq_unqueue(struct fq_data *fd, struct fq_queue *q)
{
	struct fq_class *c = q->in_class;

	ek_fq_take(q);
	q->flags &= ~FQ_Q_BUSY;
	fq_sums_sub(c, q->weight);
	c->nr_busy--;
	fd->nr_busy--;
	/* idle from now, not since boot: that would raise it when it returns */
	q->idle_since_ns = fd->now;
}

/* The next queue of class c (which has busy queues), taken off its heap. */
static struct fq_queue *ek_fq_pick(struct fq_class *c)
{
	struct fq_queue *q;

	if (ek_ph_empty(&c->eligible)) {
		/*
		 * The earliest start, if V has reached it; else nobody is
		 * eligible and V jumps to it (WF2Q+). If it is the only one
		 * eligible then, it is the one, not through the eligible heap:
		 * with two queues taking turns, every switch comes this way.
		 */
		q = fq_of_node(ek_ph_pop(&c->waiting));
		if (!q)
			return q;
		c->vtime = ek_max_u64(c->vtime, q->vstart);
		if (ek_ph_empty(&c->waiting) ||
		    fq_of_node(ek_ph_first(&c->waiting))->vstart > c->vtime)
			return q;
		q->flags |= FQ_Q_ELIGIBLE;
		ek_ph_insert(&c->eligible, &q->node, q->vfinish);
	}
	fq_update_eligible(c);
	q = fq_of_node(ek_ph_pop(&c->eligible));
	if (q)
		q->flags &= ~FQ_Q_ELIGIBLE;
	return q;
}

/* Change the weight of q; a waiting busy queue's finish is restamped. */
static void ek_fq_reweight(struct fq_data *fd, struct fq_queue *q,
			   ek_u32 weight)
{
	struct fq_class *c;

	if (!(q->flags & FQ_Q_BUSY)) {
		q->weight = weight;
		return;
	}
	c = q->in_class;
	fq_sums_sub(c, q->weight);
	fq_sums_add(c, weight);
	q->weight = weight;
	if (q == fd->in_service)
		return;
	/* Waiting with a finish stamped at the old weight: restamp it. */
	ek_fq_take(q);
	q->vfinish = q->vstart + fq_vt(q->budget, weight);
	fq_enqueue(c, q);
}

#endif
