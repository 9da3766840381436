/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The elevator operations every request takes (insert_requests,
 * dispatch_request, completed_request, finish_request), written once,
 * here, for the policy p they get as an argument. A policy module
 * compiles its policy's source into its own translation unit and writes
 * them for it (EK_HOT_OPS, through EK_POLICY_MODULE): with p a constant
 * there, each call into the policy is a direct call the compiler may
 * inline, and each test of its flags folds. Through the shim's table
 * they were indirect calls, each with its thunk and its saved registers
 * (on 7.2, 43 to 66 instructions per I/O fewer in the schedulers' own
 * functions: README, "Per-request cost"). The shim's own callbacks use
 * the same pieces with its checked copy of the policy (ek_policy_of).
 * Locking and timekeeping as in shim_ops.c's header.
 */
#ifndef ELVKIT_SHIM_HOT_H
#define ELVKIT_SHIM_HOT_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/ioprio.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <trace/events/block.h>

#include "shim_internal.h"

/* The shim's out-of-line parts of these operations (shim_ops.c). */
bool ek_settle_ask(struct ek_queue *eq) __must_hold(&eq->lock);
void ek_run_queue(struct ek_queue *eq);
void ek_discard_grew(struct ek_queue *eq, struct request *last)
	__must_hold(&eq->lock);
void ek_completed_locked(struct ek_queue *eq, struct ek_rq *erq, u64 stamp);
void ek_finish_held(struct request *rq, struct ek_rq *erq);

static inline struct ek_queue *ek_queue_of(struct request_queue *q)
{
	return q->elevator->elevator_data;
}

static inline struct ek_rq *ek_rq_of(struct request *rq)
{
	if (!(rq->rq_flags & EK_RQF_PREPARED))
		return NULL;
	return rq->elv.priv[0];
}

/*
 * jiffies64_to_nsecs(), inline where a jiffy is a whole number of
 * nanoseconds (every HZ but 300 and 1024): it runs twice per request.
 */
static inline u64 ek_jiffies_ns(u64 j)
{
#if !(NSEC_PER_SEC % HZ)
	return (NSEC_PER_SEC / HZ) * j;
#else
	return jiffies64_to_nsecs(j);
#endif
}

/*
 * The time for a policy call, read under the lock and never earlier than
 * the previous call's. A time read before taking the lock can be older
 * than one another CPU has handed in meanwhile, and policies subtract
 * times: fair-queue took such a queue's return as 2^64 ns after it went
 * idle, and weight-raised it (several times a second under two fio jobs).
 * A policy content with a tick's resolution, for good
 * (EK_POLICY_TICK_TIME, which starts host.tick_time at 1) or for now
 * (host.tick_time), gets jiffies, as
 * mq-deadline keeps its deadlines: the clocksource read cost
 * deadline-read 0.65% of its IOPS on null_blk (6.12, under icount), and
 * ktime_get_coarse_ns() cost as much. Jiffies are put on the clock's
 * base (tick_off, taken at init), so that a policy may switch: the two
 * then differ by less than a tick, and a switch to the clock can hold the
 * time still for that long. Any other gets the block layer's time for
 * the task's plug where it took one, else the clock (ek_clock_ns).
 */
static __always_inline u64 ek_clock(struct ek_queue *eq)
{
	return READ_ONCE(eq->host.tick_time) ?
	       ek_jiffies_ns(get_jiffies_64()) + eq->tick_off :
	       ek_clock_ns();
}

/*
 * The time for a policy call from t (a clock read, or a time the block
 * layer took): not before the latest call's, which it becomes.
 */
static inline u64 ek_now_at(struct ek_queue *eq, u64 t)
	__must_hold(&eq->lock)
{
	u64 now = max(t, eq->last_now);

	WRITE_ONCE(eq->last_now, now);
	return now;
}

static __always_inline u64 ek_now(struct ek_queue *eq)
	__must_hold(&eq->lock)
{
	return ek_now_at(eq, ek_clock(eq));
}

/*
 * Ask the policy, at the end of every call that may have changed its
 * state, whether a dispatch would give a request, and keep the answer for
 * blk-mq's has_work, which then needs no lock: it is asked before every
 * dispatch and on every queue run, and taking the lock there cost as much
 * as a dispatch. The answer can only go stale with time, and a policy
 * that waits arms its timer for the end of the wait (policy.h), which
 * asks again (ek_timer_fn). A stale "yes" costs one empty dispatch. A
 * policy that never idles, for good or for now, is not asked: what it
 * holds is the answer. Inline, the asking out of line: every insert and
 * dispatch settles.
 */
static __always_inline bool ek_settle_work(struct ek_queue *eq,
					   const struct ek_policy *p)
	__must_hold(&eq->lock)
{
	if (!eq->held || ek_policy_never_idles(p, &eq->host)) {
		WRITE_ONCE(eq->ready, eq->held != 0);
		return false;
	}
	return ek_settle_ask(eq);
}

/*
 * The lock for insert and dispatch, which blk-mq calls in process context
 * with interrupts on, as bfq takes its lock there (spin_lock_irq): no
 * flags to save and restore, about 9 instructions a round trip, two round
 * trips per request. The lock is taken with interrupts off anyway, for
 * the wait's timer (hard interrupt) and for completions, which a driver
 * may run there.
 */
static __always_inline void ek_lock(struct ek_queue *eq)
	__acquires(&eq->lock)
{
	lockdep_assert_irqs_enabled();
	spin_lock_irq(&eq->lock);
}

/*
 * For the paths after which blk-mq runs the queue itself (insert,
 * dispatch): a kick the policy asked for is already on its way. Work that
 * came late (ek_settle_work) may not be: a dispatch that found none ends
 * blk-mq's loop. Inline: both paths run for every request.
 */
static __always_inline void ek_unlock(struct ek_queue *eq,
				      const struct ek_policy *p)
	__releases(&eq->lock)
{
	bool late = ek_settle_work(eq, p);

	eq->kick = false;
	spin_unlock_irq(&eq->lock);
	if (late)
		ek_run_queue(eq);
}

/* Bring the descriptor up to date with the request as it is now. */
static __always_inline void ek_describe(struct ek_rq *erq,
					struct request *rq)
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
static inline bool ek_rq_mergeable(struct request *rq)
{
	if (blk_rq_is_passthrough(rq))
		return false;
	switch (req_op(rq)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		break;
	default:
		/*
		 * Not REQ_OP_DISCARD either: blk-mq merges one queued discard
		 * into another without calling requests_merged (attempt_merge
		 * skips elv_merge_requests for discards), which would free a
		 * request the policy still holds. Unhashed, a queued discard
		 * is never taken as the absorbed one; bios still merge into
		 * it through q->last_merge (see ek_bio_merge).
		 */
		return false;
	}
	return !(rq->cmd_flags & REQ_NOMERGE_FLAGS) &&
	       !(rq->rq_flags & RQF_NOMERGE_FLAGS);
}

/* Inline into ek_insert_requests' two uses of ek_insert_list: free is known. */
static __always_inline void ek_insert_one(struct ek_queue *eq,
					  const struct ek_policy *p,
					  struct request *rq,
					  struct ek_rq *erq, bool at_head,
					  struct list_head *free, u64 now)
{
	struct request_queue *q = eq->q;
	struct request *last = q->last_merge;

	if (WARN_ON_ONCE(!erq)) {
		/* blk-mq prepares every request it inserts here; never lose one */
		erq = ek_desc_of(rq);
		memset(erq, 0, sizeof(*erq));
		erq->host_rq = rq;
		rq->elv.priv[0] = erq;
		rq->rq_flags |= EK_RQF_PREPARED;
	}
	if (erq->host_flags & (EKH_DISPATCHED | EKH_REQUEUED)) {
		/*
		 * It comes back after blk_mq_requeue_request (the kernel
		 * re-inserts only requests without RQF_DONTPREP), as it was,
		 * unmerged. The policy heard of the requeue then
		 * (ek_requeue_request); still dispatched, it hears now.
		 */
		if ((erq->host_flags & EKH_DISPATCHED) && p->requeue)
			p->requeue(eq->sd, erq, now);
		erq->requeued = 1;
	} else {
		/* free: NULL where the policy takes no insert merges */
		if (free && blk_mq_sched_try_insert_merge(q, rq, free)) {
			if (req_op(rq) == REQ_OP_DISCARD)
				ek_discard_grew(eq, last);
			return;
		}
		erq->requeued = 0;
		erq->arrival_ns = now;
	}
	trace_block_rq_insert(rq);
	ek_describe(erq, rq);
	erq->at_head = at_head;
	erq->host_flags = EKH_INSERTED;
	WRITE_ONCE(eq->held, eq->held + 1);
	p->insert(eq->sd, erq, now);
	if (erq->kind == EK_KIND_NORMAL && !at_head && ek_rq_mergeable(rq)) {
		elv_rqhash_add(q, rq);
		if (!q->last_merge)
			q->last_merge = rq;
	} else if (req_op(rq) == REQ_OP_DISCARD && !at_head &&
		   !q->last_merge) {
		q->last_merge = rq;
	}
}

/*
 * The time to insert rq at. blk-mq stamps every request of a scheduler
 * when it allocates it (start_time_ns, for its I/O accounting; the
 * plug's time where the kernel caches one), microseconds before it reaches
 * here through the plug: not before the latest time handed out, that
 * stamp is the time of a fresh request's insertion, without a clock read
 * (on 6.1 a third of fair-queue's clock reads per request). A policy on
 * tick time has its tick; a request the driver sent back is older than
 * its stamp says: the clock, read once for a batch.
 */
static __always_inline u64 ek_insert_now(struct ek_queue *eq,
					  struct request *rq,
					  const struct ek_rq *erq, u64 *clock)
	__must_hold(&eq->lock)
{
	if (!READ_ONCE(eq->host.tick_time) && rq->start_time_ns && erq &&
	    !erq->host_flags)
		return ek_now_at(eq, rq->start_time_ns);
	*clock = *clock ? ek_now_at(eq, *clock) : ek_now(eq);
	return *clock;
}

/*
 * Insert the requests of list, merging them into queued ones where blk-mq
 * can unless free is NULL, and collecting there those merged away. A
 * request's descriptor is looked up once for both steps: ek_now_at's
 * store between them would have the compiler look again.
 */
static __always_inline void ek_insert_list(struct ek_queue *eq,
					   const struct ek_policy *p,
					   struct list_head *list,
					   bool at_head,
					   struct list_head *free)
{
	struct request *rq;
	struct ek_rq *erq;
	u64 clock = 0;

	ek_lock(eq);
	while (!list_empty(list)) {
		rq = list_first_entry(list, struct request, queuelist);
		list_del_init(&rq->queuelist);
		erq = ek_rq_of(rq);
		ek_insert_one(eq, p, rq, erq, at_head, free,
			      ek_insert_now(eq, rq, erq, &clock));
	}
	ek_unlock(eq, p);
}

/* insert_requests, taking blk-mq's insert merges: free those merged away. */
static __always_inline void ek_insert_merging(struct blk_mq_hw_ctx *hctx,
					      struct list_head *list,
					      ek_insert_arg_t arg,
					      const struct ek_policy *p)
{
	struct request *rq, *next;
	LIST_HEAD(free);

	ek_insert_list(ek_hctx_queue(hctx), p, list,
		       ek_insert_at_head(arg), &free);
	list_for_each_entry_safe(rq, next, &free, queuelist) {
		list_del_init(&rq->queuelist);
		blk_mq_free_request(rq);
	}
}

/*
 * insert_requests. A policy that merges only within its queues
 * (EK_POLICY_SAME_QUEUE_MERGES) takes no insert merges: blk-mq's asks no
 * elevator (allow_merge), and joins requests of any process. A process's
 * own bios have met its queued requests already (bio_merge), as they do
 * in the simulator, which has no insert merges. Without a list of
 * requests to free, no stack canary either: fair-queue's every request.
 */
static __always_inline void ek_insert_requests(struct blk_mq_hw_ctx *hctx,
					       struct list_head *list,
					       ek_insert_arg_t arg,
					       const struct ek_policy *p)
{
	if (p->flags & EK_POLICY_SAME_QUEUE_MERGES)
		ek_insert_list(ek_hctx_queue(hctx), p, list,
			       ek_insert_at_head(arg), NULL);
	else
		ek_insert_merging(hctx, list, arg, p);
}

static __always_inline struct request *
ek_dispatch_request(struct blk_mq_hw_ctx *hctx, const struct ek_policy *p)
{
	struct ek_queue *eq = ek_hctx_queue(hctx);
	struct request_queue *q = eq->q;
	struct request *rq = NULL;
	struct ek_rq *erq;
	u64 now;

	ek_lock(eq);
	now = ek_now(eq);
	erq = p->dispatch(eq->sd, now);
	if (erq) {
		erq->host_flags = EKH_DISPATCHED;
		erq->dispatch_ns = now;
		WRITE_ONCE(eq->held, eq->held - 1);
		rq = erq->host_rq;
		elv_rqhash_del(q, rq);
		if (q->last_merge == rq)
			q->last_merge = NULL;
		rq->rq_flags |= RQF_STARTED;
	}
	ek_unlock(eq, p);
	return rq;
}

/*
 * A dispatched request of a policy with a completed callback finished
 * (without one, nothing is to be done: the shim then does not call
 * this), at the time stamp (0: none at hand). A policy that can finishes
 * it without the lock. That may have ended a drain while the latest
 * settle said "not ready": after a barrier that pairs with
 * ek_settle_work's, either that settle's second look sees this
 * completion, or this sees its "not ready" and settles again itself.
 */
static __always_inline void ek_completed(struct ek_queue *eq,
					 const struct ek_policy *p,
					 struct ek_rq *erq, u64 stamp)
{
	if (p->completed_unlocked && p->completed_unlocked(eq->sd, erq, stamp)) {
		smp_mb();
		if (!READ_ONCE(eq->held) || READ_ONCE(eq->ready))
			return;
		erq = NULL;	/* completed: the settle is left */
	}
	ek_completed_locked(eq, erq, stamp);
}

/*
 * A dispatched request ends without a completion time: the policy's
 * completion, if it hears of them, and the request is done. Both ends of
 * finish_request (below, and ek_finish_held) take this one rule.
 */
static __always_inline void ek_completed_at_finish(struct ek_queue *eq,
						   const struct ek_policy *p,
						   struct ek_rq *erq)
{
	if (p->completed)
		ek_completed(eq, p, erq, 0);
	erq->host_flags = 0;
}

/*
 * blk-mq's completion of a request of a scheduler, with the time it took
 * for its I/O accounting (every such request is stamped), just before
 * finish_request: the policy's completion, without a clock read of its
 * own. Only for a policy that needs its completions' time (a call per
 * request: EK_POLICY_COMPLETION_TIME); otherwise, and for a dispatched
 * request that ends without this (none known), finish_request completes.
 */
static __always_inline void ek_completed_request(struct request *rq, u64 now,
						 const struct ek_policy *p)
{
	struct ek_rq *erq = ek_rq_of(rq);

	if (erq && (erq->host_flags & EKH_DISPATCHED)) {
		erq->host_flags = 0;	/* done: finish_request only frees it */
		ek_completed(ek_queue_of(rq->q), p, erq, now);
	}
}

/*
 * The request is freed. A policy that hears of completions in
 * completed_request (EK_POLICY_COMPLETION_TIME) has heard of this one,
 * which then only frees. Any other completes a dispatched request here,
 * without a time (it asks the host's now op if it needs one). The rest,
 * a request still held (ek_finish_held), is the shim's, out of line.
 */
static __always_inline void ek_finish_request(struct request *rq,
					      const struct ek_policy *p)
{
	struct ek_rq *erq = ek_rq_of(rq);

	if (erq) {
		if (!(p->flags & EK_POLICY_COMPLETION_TIME) &&
		    (erq->host_flags & EKH_DISPATCHED))
			ek_completed_at_finish(ek_queue_of(rq->q), p, erq);
		else if (erq->host_flags)
			ek_finish_held(rq, erq);
		rq->elv.priv[0] = NULL;
	}
	if (rq->elv.icq) {
		put_io_context(rq->elv.icq->ioc);
		rq->elv.icq = NULL;
	}
}

/* A policy module's instances of the operations above (EK_HOT_OPS). */
struct ek_hot_ops {
	void (*insert_requests)(struct blk_mq_hw_ctx *hctx,
				struct list_head *list, ek_insert_arg_t arg);
	struct request *(*dispatch_request)(struct blk_mq_hw_ctx *hctx);
	void (*completed_request)(struct request *rq, u64 now);
	void (*finish_request)(struct request *rq);
};

/*
 * Write the operations for policy, defined in the same translation unit,
 * as the struct ek_hot_ops name.
 */
#define EK_HOT_OPS(name, policy)					\
	static void name##_insert_requests(struct blk_mq_hw_ctx *hctx,	\
					   struct list_head *list,	\
					   ek_insert_arg_t arg)		\
	{								\
		ek_insert_requests(hctx, list, arg, &(policy));		\
	}								\
	static struct request *						\
	name##_dispatch_request(struct blk_mq_hw_ctx *hctx)		\
	{								\
		return ek_dispatch_request(hctx, &(policy));		\
	}								\
	static void name##_completed_request(struct request *rq, u64 now) \
	{								\
		ek_completed_request(rq, now, &(policy));		\
	}								\
	static void name##_finish_request(struct request *rq)		\
	{								\
		ek_finish_request(rq, &(policy));			\
	}								\
	static const struct ek_hot_ops name = {				\
		.insert_requests = name##_insert_requests,		\
		.dispatch_request = name##_dispatch_request,		\
		.completed_request = name##_completed_request,		\
		.finish_request = name##_finish_request,		\
	}

#endif
