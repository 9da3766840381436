// SPDX-License-Identifier: GPL-2.0
/*
 * The elevator operations: translate blk-mq's calls into the policy API.
 * The ones every request takes are in shim_hot.h, which each policy
 * module compiles for its policy; here the rest, and their slow parts.
 * Where the kernels differ, compat.h bridges; nothing here tests a fact.
 *
 * Locking: ek_queue->lock serialises all policy calls. It is taken with
 * interrupts disabled because finish_request can run from a completion
 * interrupt and exit_icq runs under the io_context's irq-safe lock. The
 * merge callbacks (allow_merge, request_merge, request_merged,
 * requests_merged, former_request, next_request) are called by blk-mq
 * from inside our bio_merge and insert_requests, with the lock already
 * held. Nothing that may call back into has_work (running a queue) is
 * done under the lock: kicks are deferred until it is dropped.
 * has_work itself takes no lock: it answers what the policy said at the
 * end of the latest call (ek_settle_work). A policy may finish a request
 * without the lock (completed_unlocked); ek_settle_work and
 * ek_finish_request then pair their barriers so that a queue that looked
 * idle to one of them is looked at again by the other.
 *
 * Like mq-deadline and bfq, a policy dispatches queue-wide, so the queue is
 * marked QUEUE_FLAG_SQ_SCHED: blk-mq then runs one hardware queue for it
 * instead of every one contending for the lock.
 */
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/ioprio.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <trace/events/block.h>

#include "shim_hot.h"

/* The checked copy: optional callbacks are filled in, call them as they are. */
static const struct ek_policy *ek_policy_of(struct ek_queue *eq)
{
	return &eq->sched->ops;
}

/* ---- host services given to the policy ---- */

static void ek_host_timer_arm(struct ek_host *host, u64 when_ns)
{
	struct ek_queue *eq = host->host_data;

	/* A tick's error would move when_ns (policy.h) */
	WARN_ON_ONCE(host->tick_time);
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

/*
 * Not before the latest call's time. Also the time for an unlocked
 * completion (the host's now op), where a call running meanwhile may
 * have a time before it (policies compare before they subtract such a
 * time).
 */
static u64 ek_host_now(struct ek_host *host)
{
	struct ek_queue *eq = host->host_data;

	return max(ek_clock(eq), READ_ONCE(eq->last_now));
}

static const struct ek_host_ops ek_kernel_host_ops = {
	.timer_arm = ek_host_timer_arm,
	.timer_cancel = ek_host_timer_cancel,
	.kick = ek_host_kick,
	.now = ek_host_now,
};

/* ek_settle_work's asking, for a policy that may be waiting: out of line. */
noinline bool ek_settle_ask(struct ek_queue *eq)
	__must_hold(&eq->lock)
{
	const struct ek_policy *p = ek_policy_of(eq);

	if (p->has_work(eq->sd, eq->last_now)) {
		WRITE_ONCE(eq->ready, true);
		return false;
	}
	WRITE_ONCE(eq->ready, false);
	if (!eq->sched->policy->completed_unlocked)
		return false;
	/*
	 * An unlocked completion may have ended a drain after the policy
	 * looked, and not yet seen "not ready": ask again, after a barrier
	 * that pairs with ek_finish_request's. Either this look sees its
	 * change, or it sees ours and settles under the lock itself. True:
	 * work came late, the caller runs the queue.
	 */
	smp_mb();
	if (!p->has_work(eq->sd, eq->last_now))
		return false;
	WRITE_ONCE(eq->ready, true);
	return true;
}
EXPORT_SYMBOL_GPL(ek_settle_ask);

/*
 * Run the queue soon, from kblockd, without holding any lock: exit_icq runs
 * under q->queue_lock (ioc_clear_queue on an elevator switch), and on a
 * quiesced queue blk_mq_run_hw_queue() takes that lock itself (6.4 on),
 * which deadlocked a switch away from a policy that kicked on process exit.
 * blk_mq_delay_run_hw_queue(hctx, 0) only modifies the hctx's delayed run,
 * so it also pulls an already pending one forward (up to the 3 ms budget
 * delay), where blk_mq_delay_run_hw_queues(q, 0) would leave it pending
 * and swallow the kick. The policy dispatches queue-wide (SQ_SCHED), so
 * one running hardware queue is enough.
 *
 * Like blk_mq_run_hw_queue(), only a queue that needs it: not quiesced
 * (unquiescing runs it) and with work now. Unlike that function,
 * blk_mq_delay_run_hw_queue() checks neither, and a removed disk's queue
 * is torn down after its runs were cancelled for the last time (6.1 and
 * 6.12: del_gendisk cancels them, then exits the elevator): a run queued
 * then, by exit_icq from ioc_clear_queue or a wait's timer, executed on
 * the freed queue (6.12, 730-rel-remove, fair-queue on null_blk).
 */
void ek_run_queue(struct ek_queue *eq)
{
	struct blk_mq_hw_ctx *hctx;
	unsigned long i;

	if (blk_queue_quiesced(eq->q) || !READ_ONCE(eq->ready))
		return;
	queue_for_each_hw_ctx(eq->q, hctx, i) {
		if (test_bit(BLK_MQ_S_STOPPED, &hctx->state))
			continue;
		blk_mq_delay_run_hw_queue(hctx, 0);
		return;
	}
}
EXPORT_SYMBOL_GPL(ek_run_queue);

void ek_unlock_and_kick(struct ek_queue *eq, unsigned long flags)
	__releases(&eq->lock)
{
	bool kick;

	kick = ek_settle_work(eq, ek_policy_of(eq)) || eq->kick;
	eq->kick = false;
	spin_unlock_irqrestore(&eq->lock, flags);
	if (kick)
		ek_run_queue(eq);
}

/*
 * The time the policy waited for has come: ask it again, at that time,
 * and run the queue if it has work. The timer runs in hard interrupt
 * context: the run itself is only scheduled.
 */
static enum hrtimer_restart ek_timer_fn(struct hrtimer *t)
{
	struct ek_queue *eq = container_of(t, struct ek_queue, timer);
	unsigned long flags;

	spin_lock_irqsave(&eq->lock, flags);
	ek_now(eq);
	eq->kick = true;
	ek_unlock_and_kick(eq, flags);
	return HRTIMER_NORESTART;
}

/* ---- set-up and tear-down ---- */

static struct ek_sched *ek_sched_of_type(struct elevator_type *e)
{
	return container_of(e, struct ek_sched, et);
}

/* init_sched, through compat.h's adapter: e is ready, q not yet using it. */
int ek_queue_init(struct request_queue *q, struct elevator_queue *e)
{
	struct ek_sched *s = ek_sched_of_type(e->type);
	const struct ek_policy *p = &s->ops;
	struct ek_queue *eq;
	int ret;

	eq = kzalloc_node(sizeof(*eq) + p->sched_size, GFP_KERNEL, q->node);
	if (!eq)
		return -ENOMEM;
	spin_lock_init(&eq->lock);
	eq->q = q;
	eq->sched = s;
	memcpy(eq->values, s->defaults, sizeof(eq->values));
	ek_hrtimer_setup(&eq->timer, ek_timer_fn);
	eq->host.ops = &ek_kernel_host_ops;
	eq->host.host_data = eq;
	eq->host.dev.rotational = ek_queue_rotational(q);
	eq->host.dev.queue_depth = q->tag_set ? q->tag_set->queue_depth : 1;
	eq->host.dev.nr_requests = q->nr_requests;
	eq->tick_off = ktime_get_ns() - ek_jiffies_ns(get_jiffies_64());
	eq->host.tick_time = !!(p->flags & EK_POLICY_TICK_TIME);

	ret = p->init(eq->sd, &eq->host, eq->values);
	if (ret) {
		kfree(eq);
		return ret < 0 ? ret : -EINVAL;
	}
	ek_async_publish(eq);
	e->elevator_data = eq;
	q->elevator = e;
	blk_queue_flag_set(QUEUE_FLAG_SQ_SCHED, q);
	return 0;
}

static void ek_exit_sched(struct elevator_queue *e)
{
	struct ek_queue *eq = e->elevator_data;

	/* Waits for a running callback; afterwards none can start. */
	hrtimer_cancel(&eq->timer);
	WARN_ON_ONCE(eq->held);
	ek_policy_of(eq)->exit(eq->sd);
	kfree(eq);
}

/* A policy with limit_depth gets blk-mq shallow depths down to 1 request. */
static void ek_min_shallow(struct ek_queue *eq, struct blk_mq_hw_ctx *hctx)
{
	if (eq->sched->policy->limit_depth)
		sbitmap_queue_min_shallow_depth(&hctx->sched_tags->bitmap_tags, 1);
}

static int ek_init_hctx(struct blk_mq_hw_ctx *hctx, unsigned int idx)
{
	struct ek_queue *eq = ek_queue_of(hctx->queue);

	ek_min_shallow(eq, hctx);
	return ek_descs_init(hctx, eq);
}

static void ek_exit_hctx(struct blk_mq_hw_ctx *hctx, unsigned int idx)
{
	ek_descs_exit(hctx);
}

/*
 * queue/nr_requests was written, or queue/async_depth where the kernel has
 * it (ek_async_follow); the queue is frozen. The new depth is read
 * from the tags, not q->nr_requests, which some kernels update only after
 * this call. only: the hardware queue whose tags changed, or NULL for all.
 */
void ek_queue_depth_updated(struct request_queue *q,
			    struct blk_mq_hw_ctx *only)
{
	struct ek_queue *eq = ek_queue_of(q);
	struct blk_mq_hw_ctx *hctx;
	unsigned int depth = 0;
	unsigned long i, flags;

	queue_for_each_hw_ctx(q, hctx, i) {
		if (only && hctx != only)
			continue;
		ek_descs_grow(hctx);
		ek_min_shallow(eq, hctx);
		depth = hctx->sched_tags->bitmap_tags.sb.depth +
			hctx->sched_tags->nr_reserved_tags;
	}
	spin_lock_irqsave(&eq->lock, flags);
	eq->host.dev.nr_requests = depth;
	ek_async_follow(eq);
	ek_policy_of(eq)->depth_updated(eq->sd);
	ek_unlock_and_kick(eq, flags);
}

/* ek_limit_depth for a request the policy may limit: out of line. */
static noinline void ek_limit_depth_ask(struct blk_mq_alloc_data *data,
					u8 dir, u8 sync)
{
	struct ek_queue *eq = ek_queue_of(data->q);
	u32 n;

	/* Read without the lock, as mq-deadline reads its async_depth. */
	n = ek_policy_of(eq)->limit_depth(eq->sd, dir, sync);
	if (n)
		data->shallow_depth = ek_shallow_depth(data, n);
}

/*
 * Synchronous reads are never limited (ek_limit_applies, the simulator's
 * rule too): they return at once, without the registers of the asking.
 * A REQ_OP_READ is one whatever its flags (op_is_sync), which the
 * compiler does not see through op_is_sync: said first, the rule folds
 * away for it, as mq-deadline's test does (11 to 6 instructions of every
 * read's allocation on 7.2; mq-deadline's 5).
 */
static void ek_limit_depth(blk_opf_t opf, struct blk_mq_alloc_data *data)
{
	bool read = (opf & REQ_OP_MASK) == REQ_OP_READ;
	u8 dir = read || !op_is_write(opf) ? EK_READ : EK_WRITE;
	u8 sync = read || op_is_sync(opf);

	if (ek_limit_applies(dir, sync))
		ek_limit_depth_ask(data, dir, sync);
}

/* ---- per-process contexts ---- */

static struct ek_icq *ek_icq_of(struct io_cq *icq)
{
	return container_of(icq, struct ek_icq, icq);
}

/*
 * The current task's io_cq on q, with a reference on its io_context that
 * finish_request drops: what ioc_find_get_icq() returns. That looks the
 * icq up under the queue lock in 6.1 and 6.12 (a lock and an unlock, irqs
 * off, per request); upstream since dropped the lock (7.2 takes none): an
 * icq is freed only after an RCU grace period, and on the issue path
 * neither q's icqs (removed with q frozen) nor the task's (removed when
 * the io_context's last user exits or its last reference goes) can go.
 * So here the io_context's hint, the icq the task used last, is taken
 * under RCU alone (preemption off); any other case is the kernel's.
 */
static struct io_cq *ek_icq_get(struct request_queue *q)
{
	struct io_context *ioc = current->io_context;
	struct io_cq *icq = NULL;

	if (likely(ioc)) {
		/*
		 * With preemption off: since 4.20 that is a read-side section
		 * of the RCU that frees icqs, and on these PREEMPT_RCU kernels
		 * rcu_read_lock() and its unlock are a call each (some 14
		 * instructions per request).
		 */
		preempt_disable();
		icq = rcu_dereference_sched(ioc->icq_hint);
		if (icq && icq->q == q)
			atomic_long_inc(&ioc->refcount);
		else
			icq = NULL;
		preempt_enable();
	}
	return icq ?: ioc_find_get_icq(q);
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

/* The request's descriptor is its scheduler tag's: nothing to allocate. */
static void ek_prepare_request(struct request *rq)
{
	struct ek_queue *eq = ek_queue_of(rq->q);
	struct ek_rq *erq = ek_desc_of(rq);

	/* Only the host's fields: the policy's are its to write at insert. */
	erq->host_flags = 0;
	erq->pctx = NULL;
	erq->host_rq = rq;
	erq->owner = task_tgid_nr(current);
	rq->elv.icq = NULL;
	if (ek_policy_wants_pctx(ek_policy_of(eq), eq->sd)) {
		rq->elv.icq = ek_icq_get(rq->q);
		if (rq->elv.icq)
			erq->pctx = &ek_icq_of(rq->elv.icq)->pctx;
	}
	rq->elv.priv[0] = erq;
	rq->elv.priv[1] = NULL;
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

/*
 * A discard merge on a device that takes several ranges (the kernel's
 * blk_discard_mergable) calls neither request_merged nor requests_merged:
 * the request grew behind the policy's back, whether a bio or a plugged
 * request joined it. Queued discards are merge targets only as
 * q->last_merge (ek_rq_mergeable), so the caller passes that one, as it
 * was before the merge. On a device of one range a discard merges as
 * any request does, and blk-mq reports it.
 */
void ek_discard_grew(struct ek_queue *eq, struct request *last)
{
	if (last && req_op(last) == REQ_OP_DISCARD &&
	    queue_max_discard_segments(eq->q) > 1)
		ek_resync(eq, ek_rq_of(last), last);
}
EXPORT_SYMBOL_GPL(ek_discard_grew);

static bool ek_has_work(struct blk_mq_hw_ctx *hctx)
{
	return READ_ONCE(ek_hctx_queue(hctx)->ready);
}

/*
 * The driver sent rq back (blk_mq_requeue_request). With RQF_DONTPREP
 * blk-mq sends it to the device again directly, and it stays dispatched
 * until it completes. Without, the requeue list's work re-inserts it
 * through insert_requests, later (a driver may delay that, as SCSI does
 * when busy): until then it is neither on the device nor in a queue of
 * the policy, which hears of it now, as bfq does (its in-flight counts:
 * anticipatory held a direction switch and fair-queue an idle wait for
 * it). ek_insert_one then takes it back as requeued.
 */
static void ek_requeue_request(struct request *rq)
{
	struct ek_queue *eq = ek_queue_of(rq->q);
	struct ek_rq *erq = ek_rq_of(rq);
	unsigned long flags;

	if (!erq || (rq->rq_flags & RQF_DONTPREP))
		return;
	spin_lock_irqsave(&eq->lock, flags);
	if (erq->host_flags & EKH_DISPATCHED) {
		erq->host_flags = EKH_REQUEUED;
		ek_policy_of(eq)->requeue(eq->sd, erq, ek_now(eq));
	}
	ek_unlock_and_kick(eq, flags);
}

/*
 * A request blk-mq frees while the policy still holds it: a merge the
 * kernel did not report. Unlink it rather than let its descriptor be
 * reused while linked. Out of line: never on the way of a completion.
 */
static noinline void ek_unlink_lost(struct ek_queue *eq, struct ek_rq *erq)
{
	struct request *rq = erq->host_rq;
	unsigned long flags;

	spin_lock_irqsave(&eq->lock, flags);
	WARN_ONCE(1, "elvkit: %s: request %llu+%u freed while queued\n",
		  eq->sched->policy->name, (unsigned long long)erq->sector,
		  erq->nr_sectors);
	elv_rqhash_del(eq->q, rq);
	if (eq->q->last_merge == rq)
		eq->q->last_merge = NULL;
	erq->host_flags |= EKH_MERGED;
	WRITE_ONCE(eq->held, eq->held - 1);
	ek_policy_of(eq)->merged_requests(eq->sd, erq, erq);
	ek_unlock_and_kick(eq, flags);
}

/*
 * ek_completed's part under the lock, out of line so that an unlocked
 * completion saves no registers for it: the policy's completion of erq,
 * or, with erq NULL, the settle after an unlocked one.
 */
noinline void ek_completed_locked(struct ek_queue *eq, struct ek_rq *erq,
				  u64 stamp)
{
	unsigned long flags;

	spin_lock_irqsave(&eq->lock, flags);
	if (erq)
		eq->sched->policy->completed(eq->sd, erq, stamp ?
					     ek_now_at(eq, stamp) :
					     ek_now(eq));
	else
		eq->kick = true;
	ek_unlock_and_kick(eq, flags);
}
EXPORT_SYMBOL_GPL(ek_completed_locked);

/*
 * finish_request for a request the policy may still hold, out of line:
 * dispatched and not completed (an end that bypassed completed_request,
 * for a policy that completes there), or still queued (ek_unlink_lost).
 */
void ek_finish_held(struct request *rq, struct ek_rq *erq)
{
	struct ek_queue *eq = ek_queue_of(rq->q);

	if (erq->host_flags & EKH_DISPATCHED) {
		ek_completed_at_finish(eq, eq->sched->policy, erq);
		return;
	}
	if (erq->host_flags == EKH_INSERTED)
		ek_unlink_lost(eq, erq);
	erq->host_flags = 0;
}
EXPORT_SYMBOL_GPL(ek_finish_held);

/* ---- merging; all called with eq->lock held ---- */

/* ek_bio_merge with something held: out of line, for its registers. */
static noinline bool ek_bio_merge_held(struct ek_queue *eq, struct bio *bio,
				       unsigned int nr_segs)
{
	struct request_queue *q = eq->q;
	struct request *free = NULL, *last;
	unsigned long flags;
	bool merged;

	spin_lock_irqsave(&eq->lock, flags);
	merged = blk_mq_sched_try_merge(q, bio, nr_segs, &free);
	last = q->last_merge;
	if (merged && !free && bio_op(bio) == REQ_OP_DISCARD && last &&
	    last->biotail == bio)
		ek_discard_grew(eq, last);
	if (merged) {
		ek_unlock_and_kick(eq, flags);
	} else {
		/* the policy was not called: nothing to settle, no kick */
		spin_unlock_irqrestore(&eq->lock, flags);
	}
	if (free)
		blk_mq_free_request(free);
	return merged;
}

/*
 * Every bio asks, before it gets a request. With nothing held there is
 * nothing to join (the hash and last_merge hold only requests the policy
 * holds), and the lock is not worth taking: on null_blk, where requests
 * rarely wait, that was a lock round trip and some 100 instructions per
 * I/O. One being inserted on another CPU meanwhile is missed, as it
 * would be had the bio come a moment earlier.
 */
static bool ek_bio_merge(struct request_queue *q, struct bio *bio,
			 unsigned int nr_segs)
{
	struct ek_queue *eq = ek_queue_of(q);

	return READ_ONCE(eq->held) && ek_bio_merge_held(eq, bio, nr_segs);
}

/* The process context ek_merge_same_queue compares: the io_context. */
static const void *ek_rq_ctx(struct request *rq)
{
	return rq->elv.icq ? rq->elv.icq->ioc : NULL;
}

/*
 * Whether next may join queued request rq (either way round), for a
 * policy that merges only within its queues. Both hold an io_context
 * reference while queued.
 */
static bool ek_same_queue(struct ek_queue *eq, struct request *rq,
			  struct request *next)
{
	return ek_merge_same_queue(ek_policy_of(eq), ek_rq_of(rq), ek_rq_ctx(rq),
				   rq_is_sync(next), ek_rq_ctx(next));
}

/*
 * Only for EK_POLICY_SAME_QUEUE_MERGES (bfq_allow_bio_merge's rule): the
 * bio would get current's context, so comparing io_contexts needs no icq
 * lookup. Called with eq->lock held, for a queued rq.
 */
static bool ek_allow_merge(struct request_queue *q, struct request *rq,
			   struct bio *bio)
{
	return ek_merge_same_queue(ek_policy_of(ek_queue_of(q)), ek_rq_of(rq),
				   ek_rq_ctx(rq), op_is_sync(bio->bi_opf),
				   current->io_context);
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
	if (!erq || !elv_bio_merge_ok(erq->host_rq, bio))
		return ELEVATOR_NO_MERGE;
	/*
	 * bio_attempt_front_merge() trusts us that the bio ends where the
	 * request starts; a stale descriptor would write data elsewhere.
	 */
	if (WARN_ONCE(blk_rq_pos(erq->host_rq) != bio_end_sector(bio),
		      "elvkit: %s: front merge candidate at %llu is at %llu (flags %#x)\n",
		      eq->sched->policy->name, (unsigned long long)erq->sector,
		      (unsigned long long)blk_rq_pos(erq->host_rq), erq->host_flags))
		return ELEVATOR_NO_MERGE;
	*req = erq->host_rq;
	return ELEVATOR_FRONT_MERGE;
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
	if (enext && enext->host_flags == EKH_INSERTED) {
		enext->host_flags |= EKH_MERGED;
		WRITE_ONCE(eq->held, eq->held - 1);
		p->merged_requests(eq->sd, erq && erq->host_flags & EKH_INSERTED ?
				   erq : enext, enext);
	}
	ek_resync(eq, erq, rq);
}

/*
 * A bio merge grew rq; blk-mq then asks for the queued request just after
 * it (back merge) or just before it (front merge) to join the two, as
 * mq-deadline and bfq let it, and as the simulator does: two requests with
 * a gap that a third fills become one. Only requests the policy holds and
 * that may merge: the hash holds exactly those, by end sector
 * (ek_insert_one); the policy knows where its own start. Never a discard
 * (attempt_merge joins queued discards without requests_merged, see
 * ek_rq_mergeable). attempt_merge checks the rest (adjacency included).
 */
static struct request *ek_former_request(struct request_queue *q,
					 struct request *rq)
{
	sector_t end = blk_rq_pos(rq);
	struct request *prev;

	if (!ek_rq_mergeable(rq))
		return NULL;
	hash_for_each_possible(q->elevator->hash, prev, hash, end)
		if (prev != rq && blk_rq_pos(prev) + blk_rq_sectors(prev) == end &&
		    ek_same_queue(ek_queue_of(q), prev, rq))
			return prev;
	return NULL;
}

static struct request *ek_next_request(struct request_queue *q,
				       struct request *rq)
{
	struct ek_queue *eq = ek_queue_of(q);
	struct ek_rq *next;

	if (!ek_rq_mergeable(rq))
		return NULL;
	next = ek_policy_of(eq)->front_merge_candidate(eq->sd,
			rq_data_dir(rq) == WRITE ? EK_WRITE : EK_READ,
			blk_rq_pos(rq) + blk_rq_sectors(rq));
	if (!next || next->host_flags != EKH_INSERTED ||
	    next->host_rq == rq || !ek_rq_mergeable(next->host_rq) ||
	    !ek_same_queue(eq, rq, next->host_rq))
		return NULL;
	return next->host_rq;
}

void ek_fill_ops(struct ek_sched *s)
{
	struct elevator_mq_ops *ops = &s->et.ops;

	ops->init_sched = ek_op_init_sched;
	ops->exit_sched = ek_exit_sched;
	ops->init_hctx = ek_init_hctx;
	ops->exit_hctx = ek_exit_hctx;
	ops->depth_updated = ek_op_depth_updated;
	ops->insert_requests = s->hot->insert_requests;
	ops->dispatch_request = s->hot->dispatch_request;
	ops->has_work = ek_has_work;
	ops->prepare_request = ek_prepare_request;
	ops->finish_request = s->hot->finish_request;
	ops->requeue_request = ek_requeue_request;
	ops->bio_merge = ek_bio_merge;
	ops->request_merge = ek_request_merge;
	ops->request_merged = ek_request_merged;
	ops->requests_merged = ek_requests_merged;
	ops->former_request = ek_former_request;
	ops->next_request = ek_next_request;
	if (s->policy->flags & EK_POLICY_SAME_QUEUE_MERGES)
		ops->allow_merge = ek_allow_merge;
	if (s->policy->flags & EK_POLICY_COMPLETION_TIME)
		ops->completed_request = s->hot->completed_request;
	if (s->policy->limit_depth)
		ops->limit_depth = ek_limit_depth;
	if (s->policy->pctx_size) {
		ops->init_icq = ek_init_icq;
		ops->exit_icq = ek_exit_icq;
	}
}
