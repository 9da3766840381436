/* SPDX-License-Identifier: GPL-2.0 */
/* The shim's own structures, shared by its source files. */
#ifndef ELVKIT_SHIM_INTERNAL_H
#define ELVKIT_SHIM_INTERNAL_H

#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include <linux/iocontext.h>
#include <linux/list.h>
#include <linux/spinlock.h>

#include "compat.h"
#include "elvkit/contract.h"

struct ek_hot_ops;

/* One registered policy: the elevator type built for it. */
struct ek_sched {
	const struct ek_policy *policy;	/* as registered (unregister) */
	struct ek_policy ops;		/* ek_policy_load()'s copy */
	const struct ek_hot_ops *hot;	/* its module's (shim_hot.h) */
	struct elevator_type et;
	struct elv_fs_entry attrs[EK_MAX_TUNABLES + EK_MAX_COUNTERS + 1];
	s64 defaults[EK_MAX_TUNABLES];
	int async_idx;			/* its async_depth tunable, or -1 */
	struct list_head node;
};

/* One queue using a policy: elevator_queue->elevator_data. */
struct ek_queue {
	spinlock_t lock;		/* serialises every policy call */
	struct request_queue *q;
	struct ek_sched *sched;
	struct ek_host host;
	struct hrtimer timer;		/* the policy's "run me at T" */
	bool kick;			/* run the queue once the lock is dropped */
	/* Requests the policy holds (inserted, not yet dispatched or merged) */
	unsigned int held;
	/*
	 * The policy's has_work at the end of the latest call into it (see
	 * ek_settle_work). blk-mq's has_work reads it without the lock.
	 */
	bool ready;
	u64 last_now;			/* the latest time handed to the policy */
	u64 tick_off;			/* ktime_get_ns() - jiffies in ns (ek_now) */
	s64 values[EK_MAX_TUNABLES];
	/* the policy's per-queue data follows, sched_size bytes */
	u64 sd[] __aligned(8);
};

/* A per-process context: the kernel's io_cq, then the policy's ek_pctx. */
struct ek_icq {
	struct io_cq icq;
	struct ek_pctx pctx;
	/* the policy's pctx_size bytes follow */
};

/* host_flags of an ek_rq */
#define EKH_INSERTED	0x1	/* in the policy */
#define EKH_DISPATCHED	0x2	/* handed out by the policy, not completed */
#define EKH_MERGED	0x4	/* absorbed by another request */
#define EKH_REQUEUED	0x8	/* sent back by the driver, to be re-inserted */

/*
 * A hardware queue's descriptors (shim_desc.c): hctx->sched_data, one
 * set for all of a queue's hardware queues where they share their tags.
 */
struct ek_descs {
	struct ek_queue *eq;		/* their queue's */
	unsigned int users;		/* hardware queues using them */
	unsigned int nr;		/* descriptors in desc */
	struct ek_rq *desc;		/* one per scheduler tag */
};

int ek_descs_init(struct blk_mq_hw_ctx *hctx, struct ek_queue *eq);
void ek_descs_grow(struct blk_mq_hw_ctx *hctx);
void ek_descs_exit(struct blk_mq_hw_ctx *hctx);

/* The descriptor of a request's scheduler tag. */
static inline struct ek_rq *ek_desc_of(struct request *rq)
{
	struct ek_descs *d = rq->mq_hctx->sched_data;

	return &d->desc[rq->internal_tag];
}

/*
 * The queue of a hardware queue's callback: a load fewer than through
 * hctx->queue->elevator, and has_work alone is asked some 4 times a request.
 */
static inline struct ek_queue *ek_hctx_queue(struct blk_mq_hw_ctx *hctx)
{
	return ((struct ek_descs *)hctx->sched_data)->eq;
}

void ek_fill_ops(struct ek_sched *s);
void ek_build_attrs(struct ek_sched *s);
int ek_parse_defaults(struct ek_sched *s, const char *defaults);
void ek_async_publish(struct ek_queue *eq);
void ek_async_follow(struct ek_queue *eq);
void ek_unlock_and_kick(struct ek_queue *eq, unsigned long flags)
	__releases(&eq->lock);

#endif
