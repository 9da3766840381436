// SPDX-License-Identifier: GPL-2.0
/*
 * The elevator operations: translate blk-mq's calls into the policy API.
 *
 * Locking: ek_queue->lock serialises all policy calls. It is taken with
 * interrupts disabled because finish_request can run from a completion
 * interrupt and exit_icq runs under the io_context's irq-safe lock. The
 * merge callbacks (request_merge, request_merged, requests_merged) are
 * called by blk-mq from inside our bio_merge and insert_requests, with the
 * lock already held. Nothing that may call back into has_work (running a
 * queue) is done under the lock: kicks are deferred until it is dropped.
 */
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include <linux/ioprio.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "shim_internal.h"

/* Which rq_flags bit says prepare_request ran (the kernel renamed it). */
#if defined(RQF_USE_SCHED)
#define EK_RQF_PREPARED RQF_USE_SCHED
#else
#define EK_RQF_PREPARED RQF_ELVPRIV
#endif

static struct kmem_cache *ek_rq_cache;

int ek_rq_cache_create(void)
{
	ek_rq_cache = KMEM_CACHE(ek_rq, 0);
	return ek_rq_cache ? 0 : -ENOMEM;
}

void ek_rq_cache_destroy(void)
{
	kmem_cache_destroy(ek_rq_cache);
}

static struct ek_queue *ek_queue_of(struct request_queue *q)
{
	return q->elevator->elevator_data;
}

static struct ek_rq *ek_rq_of(struct request *rq)
{
	if (!(rq->rq_flags & EK_RQF_PREPARED))
		return NULL;
	return rq->elv.priv[0];
}

/* The checked copy: optional callbacks are filled in, call them as they are. */
static const struct ek_policy *ek_policy_of(struct ek_queue *eq)
{
	return &eq->sched->ops;
}

/* ---- host services given to the policy ---- */

static void ek_host_timer_arm(struct ek_host *host, u64 when_ns)
{
	struct ek_queue *eq = host->host_data;

	hrtimer_start(&eq->timer, ns_to_ktime(when_ns), HRTIMER_MODE_ABS);
}

static void ek_host_timer_cancel(struct ek_host *host)
{
	struct ek_queue *eq = host->host_data;

	/* Never wait here: the caller holds the lock. A late fire is harmless. */
	hrtimer_try_to_cancel(&eq->timer);
}

static void ek_host_kick(struct ek_host *host)
{
	struct ek_queue *eq = host->host_data;

	eq->kick = true;
}

static const struct ek_host_ops ek_kernel_host_ops = {
	.timer_arm = ek_host_timer_arm,
	.timer_cancel = ek_host_timer_cancel,
	.kick = ek_host_kick,
};

/*
 * The timer runs in hard interrupt context: only schedule an asynchronous
 * queue run (kblockd), which then asks has_work and dispatch again.
 */
static enum hrtimer_restart ek_timer_fn(struct hrtimer *t)
{
	struct ek_queue *eq = container_of(t, struct ek_queue, timer);

	blk_mq_delay_run_hw_queues(eq->q, 0);
	return HRTIMER_NORESTART;
}

static void ek_unlock_and_kick(struct ek_queue *eq, unsigned long flags)
	__releases(&eq->lock)
{
	bool kick = eq->kick;

	eq->kick = false;
	spin_unlock_irqrestore(&eq->lock, flags);
	if (kick)
		blk_mq_delay_run_hw_queues(eq->q, 0);
}

/* ---- set-up and tear-down ---- */

static struct ek_queue *ek_queue_alloc(struct request_queue *q,
				       struct ek_sched *s)
{
	const struct ek_policy *p = &s->ops;
	struct ek_queue *eq;
	int ret;

	eq = kzalloc_node(sizeof(*eq) + p->sched_size, GFP_KERNEL, q->node);
	if (!eq)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&eq->lock);
	INIT_LIST_HEAD(&eq->bypass);
	eq->q = q;
	eq->sched = s;
	memcpy(eq->values, s->defaults, sizeof(eq->values));
#ifdef EK_HAVE_HRTIMER_SETUP
	hrtimer_setup(&eq->timer, ek_timer_fn, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
#else
	hrtimer_init(&eq->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	eq->timer.function = ek_timer_fn;
#endif
	eq->host.ops = &ek_kernel_host_ops;
	eq->host.host_data = eq;
#ifdef blk_queue_rot	/* the kernel flipped the flag's sense */
	eq->host.dev.rotational = !!blk_queue_rot(q);
#else
	eq->host.dev.rotational = !blk_queue_nonrot(q);
#endif
	eq->host.dev.queue_depth = q->tag_set ? q->tag_set->queue_depth : 1;
	eq->host.dev.nr_requests = q->nr_requests;

	ret = p->init(eq->sd, &eq->host, eq->values);
	if (ret) {
		kfree(eq);
		return ERR_PTR(ret < 0 ? ret : -EINVAL);
	}
	return eq;
}

static struct ek_sched *ek_sched_of_type(struct elevator_type *e)
{
	return container_of(e, struct ek_sched, et);
}

#if EK_FACT_INIT_SCHED_TAKES_EQ
/* The core allocated the elevator_queue and hands it to us. */
static int ek_init_sched(struct request_queue *q, struct elevator_queue *e)
{
	struct ek_queue *eq = ek_queue_alloc(q, ek_sched_of_type(e->type));

	if (IS_ERR(eq))
		return PTR_ERR(eq);
	e->elevator_data = eq;
	q->elevator = e;
	return 0;
}
#else
/* The scheduler allocates its elevator_queue. */
static int ek_init_sched(struct request_queue *q, struct elevator_type *t)
{
	struct elevator_queue *e;
	struct ek_queue *eq;

	e = elevator_alloc(q, t);
	if (!e)
		return -ENOMEM;
	eq = ek_queue_alloc(q, ek_sched_of_type(t));
	if (IS_ERR(eq)) {
		kobject_put(&e->kobj);
		return PTR_ERR(eq);
	}
	e->elevator_data = eq;
	q->elevator = e;
	return 0;
}
#endif

static void ek_exit_sched(struct elevator_queue *e)
{
	struct ek_queue *eq = e->elevator_data;

	/* Waits for a running callback; afterwards none can start. */
	hrtimer_cancel(&eq->timer);
	WARN_ON_ONCE(!list_empty(&eq->bypass));
	ek_policy_of(eq)->exit(eq->sd);
	kfree(eq);
}

/* ---- per-process contexts ---- */

static struct ek_icq *ek_icq_of(struct io_cq *icq)
{
	return container_of(icq, struct ek_icq, icq);
}

/* Called with the queue lock and the io_context lock held, irqs off. */
static void ek_init_icq(struct io_cq *icq)
{
	struct ek_queue *eq = ek_queue_of(icq->q);
	struct ek_icq *ei = ek_icq_of(icq);
	const struct ek_policy *p = ek_policy_of(eq);

	spin_lock(&eq->lock);
	ek_pctx_start(p, eq->sd, &ei->pctx, task_tgid_nr(current));
	spin_unlock(&eq->lock);
}

/*
 * The process is gone, or the elevator is being torn down. The memory
 * stays valid while requests still hold the io_context.
 */
static void ek_exit_icq(struct io_cq *icq)
{
	struct ek_queue *eq = ek_queue_of(icq->q);
	struct ek_icq *ei = ek_icq_of(icq);
	const struct ek_policy *p = ek_policy_of(eq);
	unsigned long flags;

	spin_lock_irqsave(&eq->lock, flags);
	ek_pctx_end(p, eq->sd, &ei->pctx);
	ek_unlock_and_kick(eq, flags);
}

/* ---- request life ---- */

static void ek_prepare_request(struct request *rq)
{
	struct ek_queue *eq = ek_queue_of(rq->q);
	const struct ek_policy *p = ek_policy_of(eq);
	struct ek_rq *erq;

	rq->elv.priv[0] = NULL;
	rq->elv.priv[1] = NULL;
	rq->elv.icq = NULL;
	/*
	 * Submitters may not sleep here. Without a descriptor the request is
	 * still served, first-come first-served, through the bypass list.
	 */
	erq = kmem_cache_zalloc(ek_rq_cache, GFP_ATOMIC | __GFP_NOWARN);
	if (!erq)
		return;
	erq->host_rq = rq;
	erq->owner = task_tgid_nr(current);
	if (p->pctx_size) {
		rq->elv.icq = ioc_find_get_icq(rq->q);
		if (rq->elv.icq)
			erq->pctx = &ek_icq_of(rq->elv.icq)->pctx;
	}
	rq->elv.priv[0] = erq;
}

/* Bring the descriptor up to date with the request as it is now. */
static void ek_describe(struct ek_rq *erq, struct request *rq)
{
	unsigned short prio = req_get_ioprio(rq);

	erq->sector = blk_rq_pos(rq);
	erq->nr_sectors = blk_rq_sectors(rq);
	erq->dir = rq_data_dir(rq) == WRITE ? EK_WRITE : EK_READ;
	erq->sync = rq_is_sync(rq);
	if (blk_rq_is_passthrough(rq))
		erq->kind = EK_KIND_PASSTHROUGH;
	else if (op_is_flush(rq->cmd_flags) && !blk_rq_sectors(rq))
		erq->kind = EK_KIND_FLUSH;
	else
		erq->kind = EK_KIND_NORMAL;
	erq->prio_class = IOPRIO_PRIO_CLASS(prio);
	erq->prio_level = IOPRIO_PRIO_DATA(prio) & 7;
}

/* The private rq_mergeable(): may later bios or requests merge into rq? */
static bool ek_rq_mergeable(struct request *rq)
{
	if (blk_rq_is_passthrough(rq))
		return false;
	switch (req_op(rq)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
	case REQ_OP_DISCARD:
		break;
	default:
		return false;
	}
	return !(rq->cmd_flags & REQ_NOMERGE_FLAGS) &&
	       !(rq->rq_flags & RQF_NOMERGE_FLAGS);
}

static void ek_insert_one(struct ek_queue *eq, struct request *rq,
			  bool at_head, struct list_head *free, u64 now)
{
	struct request_queue *q = eq->q;
	struct ek_rq *erq = ek_rq_of(rq);

	if (blk_mq_sched_try_insert_merge(q, rq, free))
		return;
	if (!erq) {
		if (at_head)
			list_add(&rq->queuelist, &eq->bypass);
		else
			list_add_tail(&rq->queuelist, &eq->bypass);
		return;
	}
	ek_describe(erq, rq);
	erq->at_head = at_head;
	if (!(erq->host_flags & EKH_INSERTED))
		erq->arrival_ns = now;
	erq->host_flags = EKH_INSERTED;
	ek_policy_of(eq)->insert(eq->sd, erq, now);
	if (erq->kind == EK_KIND_NORMAL && !at_head && ek_rq_mergeable(rq)) {
		elv_rqhash_add(q, rq);
		if (!q->last_merge)
			q->last_merge = rq;
	}
}

static void ek_insert_requests(struct blk_mq_hw_ctx *hctx,
			       struct list_head *list, ek_insert_arg_t arg)
{
	struct ek_queue *eq = ek_queue_of(hctx->queue);
#if EK_FACT_INSERT_FLAGS
	bool at_head = arg & BLK_MQ_INSERT_AT_HEAD;
#else
	bool at_head = arg;
#endif
	u64 now = ktime_get_ns();
	unsigned long flags;
	struct request *rq, *next;
	LIST_HEAD(free);

	spin_lock_irqsave(&eq->lock, flags);
	while (!list_empty(list)) {
		rq = list_first_entry(list, struct request, queuelist);
		list_del_init(&rq->queuelist);
		ek_insert_one(eq, rq, at_head, &free, now);
	}
	ek_unlock_and_kick(eq, flags);

	list_for_each_entry_safe(rq, next, &free, queuelist) {
		list_del_init(&rq->queuelist);
		blk_mq_free_request(rq);
	}
}

static struct request *ek_dispatch_request(struct blk_mq_hw_ctx *hctx)
{
	struct ek_queue *eq = ek_queue_of(hctx->queue);
	struct request_queue *q = eq->q;
	u64 now = ktime_get_ns();
	struct request *rq = NULL;
	unsigned long flags;
	struct ek_rq *erq;

	spin_lock_irqsave(&eq->lock, flags);
	if (!list_empty(&eq->bypass)) {
		rq = list_first_entry(&eq->bypass, struct request, queuelist);
		list_del_init(&rq->queuelist);
		goto out;
	}
	erq = ek_policy_of(eq)->dispatch(eq->sd, now);
	if (!erq)
		goto out;
	erq->host_flags |= EKH_DISPATCHED;
	erq->dispatch_ns = now;
	rq = erq->host_rq;
	elv_rqhash_del(q, rq);
	if (q->last_merge == rq)
		q->last_merge = NULL;
out:
	if (rq)
		rq->rq_flags |= RQF_STARTED;
	ek_unlock_and_kick(eq, flags);
	return rq;
}

static bool ek_has_work(struct blk_mq_hw_ctx *hctx)
{
	struct ek_queue *eq = ek_queue_of(hctx->queue);
	unsigned long flags;
	bool work;

	spin_lock_irqsave(&eq->lock, flags);
	work = !list_empty(&eq->bypass) ||
	       ek_policy_of(eq)->has_work(eq->sd, ktime_get_ns());
	spin_unlock_irqrestore(&eq->lock, flags);
	return work;
}

static void ek_requeue_request(struct request *rq)
{
	struct ek_queue *eq = ek_queue_of(rq->q);
	struct ek_rq *erq = ek_rq_of(rq);
	const struct ek_policy *p = ek_policy_of(eq);
	unsigned long flags;

	if (!erq || !(erq->host_flags & EKH_DISPATCHED))
		return;
	spin_lock_irqsave(&eq->lock, flags);
	erq->host_flags &= ~EKH_DISPATCHED;
	p->requeue(eq->sd, erq, ktime_get_ns());
	ek_unlock_and_kick(eq, flags);
}

static void ek_finish_request(struct request *rq)
{
	struct ek_queue *eq = ek_queue_of(rq->q);
	struct ek_rq *erq = ek_rq_of(rq);
	unsigned long flags;

	if (erq) {
		spin_lock_irqsave(&eq->lock, flags);
		if (erq->host_flags & EKH_DISPATCHED)
			ek_policy_of(eq)->completed(eq->sd, erq, ktime_get_ns());
		ek_unlock_and_kick(eq, flags);
		rq->elv.priv[0] = NULL;
		kmem_cache_free(ek_rq_cache, erq);
	}
	if (rq->elv.icq) {
		put_io_context(rq->elv.icq->ioc);
		rq->elv.icq = NULL;
	}
}

/* ---- merging; all called with eq->lock held ---- */

static bool ek_bio_merge(struct request_queue *q, struct bio *bio,
			 unsigned int nr_segs)
{
	struct ek_queue *eq = ek_queue_of(q);
	struct request *free = NULL;
	unsigned long flags;
	bool merged;

	spin_lock_irqsave(&eq->lock, flags);
	merged = blk_mq_sched_try_merge(q, bio, nr_segs, &free);
	ek_unlock_and_kick(eq, flags);
	if (free)
		blk_mq_free_request(free);
	return merged;
}

static int ek_request_merge(struct request_queue *q, struct request **req,
			    struct bio *bio)
{
	struct ek_queue *eq = ek_queue_of(q);
	const struct ek_policy *p = ek_policy_of(eq);
	struct ek_rq *erq;

	erq = p->front_merge_candidate(eq->sd,
				       bio_data_dir(bio) == WRITE ? EK_WRITE : EK_READ,
				       bio_end_sector(bio));
	if (erq && elv_bio_merge_ok(erq->host_rq, bio)) {
		*req = erq->host_rq;
		return ELEVATOR_FRONT_MERGE;
	}
	return ELEVATOR_NO_MERGE;
}

/* rq grew by a merge: tell the policy where it starts and ends now. */
static void ek_resync(struct ek_queue *eq, struct ek_rq *erq,
		      struct request *rq)
{
	const struct ek_policy *p = ek_policy_of(eq);
	u64 old;

	if (!erq || !(erq->host_flags & EKH_INSERTED))
		return;
	old = erq->sector;
	erq->sector = blk_rq_pos(rq);
	erq->nr_sectors = blk_rq_sectors(rq);
	p->merged(eq->sd, erq, old);
}

static void ek_request_merged(struct request_queue *q, struct request *rq,
			      enum elv_merge type)
{
	ek_resync(ek_queue_of(q), ek_rq_of(rq), rq);
}

static void ek_requests_merged(struct request_queue *q, struct request *rq,
			       struct request *next)
{
	struct ek_queue *eq = ek_queue_of(q);
	const struct ek_policy *p = ek_policy_of(eq);
	struct ek_rq *erq = ek_rq_of(rq), *enext = ek_rq_of(next);

	elv_rqhash_del(q, next);
	if (!enext) {
		/* A descriptor-less request merged away: off the bypass list. */
		list_del_init(&next->queuelist);
	} else if (enext->host_flags & EKH_INSERTED) {
		enext->host_flags |= EKH_MERGED;
		if (erq)
			p->merged_requests(eq->sd, erq, enext);
	}
	ek_resync(eq, erq, rq);
}

void ek_fill_ops(struct ek_sched *s)
{
	struct elevator_mq_ops *ops = &s->et.ops;

	ops->init_sched = ek_init_sched;
	ops->exit_sched = ek_exit_sched;
	ops->insert_requests = ek_insert_requests;
	ops->dispatch_request = ek_dispatch_request;
	ops->has_work = ek_has_work;
	ops->prepare_request = ek_prepare_request;
	ops->finish_request = ek_finish_request;
	ops->requeue_request = ek_requeue_request;
	ops->bio_merge = ek_bio_merge;
	ops->request_merge = ek_request_merge;
	ops->request_merged = ek_request_merged;
	ops->requests_merged = ek_requests_merged;
	if (s->policy->pctx_size) {
		ops->init_icq = ek_init_icq;
		ops->exit_icq = ek_exit_icq;
	}
}
