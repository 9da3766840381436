/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the supported kernels that the shim's code
 * meets, bridged once, here. Each switch is a fact about the target kernel
 * (elvkit_facts.h, written by scripts/kernel-facts.py from its BTF and
 * headers), never a version number; the shim's other files have no #if.
 * The elevator callbacks whose signatures differ are adapters here that
 * call one signature-independent implementation in shim_ops.c.
 */
#ifndef ELVKIT_SHIM_COMPAT_H
#define ELVKIT_SHIM_COMPAT_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/hrtimer.h>
#include <linux/sbitmap.h>

#include "kernel_elevator.h"
#include "ek_timer.h"

/* The rq_flags bit that says prepare_request ran (renamed in 6.5). */
#if EK_FACT_RQF_USE_SCHED
#define EK_RQF_PREPARED RQF_USE_SCHED
#else
#define EK_RQF_PREPARED RQF_ELVPRIV
#endif

/* The kernel flipped the flag's sense (blk_queue_nonrot -> blk_queue_rot). */
static inline bool ek_queue_rotational(struct request_queue *q)
{
#if EK_FACT_BLK_QUEUE_ROT
	return blk_queue_rot(q);
#else
	return !blk_queue_nonrot(q);
#endif
}

/*
 * The time for a policy call: the one the block layer took for the
 * current task's plug if it took one (blk_time_get_ns() in block/blk.h
 * caches a clock read there until the task sleeps or flushes the plug;
 * the requests' own start times are that time), else the clock. Under a
 * plug, where insert, dispatch and an inline completion follow each other
 * within microseconds, that saves a clocksource read per call. It is as
 * stale as the block layer's own stamps: a task preempted inside its
 * plug (not sleeping) keeps it; ek_now still never goes back. Only read:
 * the block layer sets it and its invalidation on schedule (PF_BLOCK_TS).
 */
static inline u64 ek_clock_ns(void)
{
#if EK_FACT_PLUG_TIME
	struct blk_plug *plug = current->plug;

	if (plug && in_task() && plug->cur_ktime)
		return plug->cur_ktime;
#endif
	return ktime_get_ns();
}

/* insert_requests' last argument: bool at_head, or blk_insert_t flags. */
static inline bool ek_insert_at_head(ek_insert_arg_t arg)
{
#if EK_FACT_INSERT_FLAGS
	return arg & BLK_MQ_INSERT_AT_HEAD;
#else
	return arg;
#endif
}

/*
 * A policy's limit of n requests of the pool as blk-mq's shallow depth:
 * of the whole pool, or per sbitmap word where sbitmap counts it so. Per
 * word, n is shared out over the words the tags use. (6.1's own
 * dd_to_word_depth scales by nr_requests over the word size instead,
 * which lifts the limit once nr_requests is written below a word: the
 * bitmap shrinks, its words do not.)
 */
static inline unsigned int ek_shallow_depth(struct blk_mq_alloc_data *data,
					    unsigned int n)
{
#if EK_FACT_SHALLOW_PER_WORD
	struct sbitmap *sb = &data->hctx->sched_tags->bitmap_tags.sb;

	return max(1U, n / sb->map_nr);
#else
	return n;
#endif
}

/*
 * The queue's own async_depth, where the kernel has one (queue/async_depth,
 * which the kernel's own schedulers read in limit_depth); else none.
 */
#if EK_FACT_QUEUE_ASYNC_DEPTH
static inline bool ek_queue_has_async_depth(void)
{
	return true;
}

static inline unsigned int ek_queue_async_depth(struct request_queue *q)
{
	return READ_ONCE(q->async_depth);
}

static inline void ek_queue_set_async_depth(struct request_queue *q,
					    unsigned int n)
{
	WRITE_ONCE(q->async_depth, n);
}
#else
static inline bool ek_queue_has_async_depth(void)
{
	return false;
}

static inline unsigned int ek_queue_async_depth(struct request_queue *q)
{
	return 0;
}

static inline void ek_queue_set_async_depth(struct request_queue *q,
					    unsigned int n)
{
}
#endif

/* ---- callbacks whose signatures differ ---- */

int ek_queue_init(struct request_queue *q, struct elevator_queue *e);
void ek_queue_depth_updated(struct request_queue *q,
			    struct blk_mq_hw_ctx *only);

#if EK_FACT_INIT_SCHED_TAKES_EQ
/* The core allocated the elevator_queue and hands it over. */
static inline int ek_op_init_sched(struct request_queue *q,
				   struct elevator_queue *e)
{
	return ek_queue_init(q, e);
}
#else
/* The scheduler allocates its elevator_queue (elevator_alloc, until 6.16). */
static inline int ek_op_init_sched(struct request_queue *q,
				   struct elevator_type *t)
{
	struct elevator_queue *e = elevator_alloc(q, t);
	int ret;

	if (!e)
		return -ENOMEM;
	ret = ek_queue_init(q, e);
	if (ret)
		kobject_put(&e->kobj);
	return ret;
}
#endif

#if EK_FACT_DEPTH_UPDATED_TAKES_Q
/* Once per queue, after every hardware queue's tags changed. */
static inline void ek_op_depth_updated(struct request_queue *q)
{
	ek_queue_depth_updated(q, NULL);
}
#else
/* Once per hardware queue, right after its tags changed. */
static inline void ek_op_depth_updated(struct blk_mq_hw_ctx *hctx)
{
	ek_queue_depth_updated(hctx->queue, hctx);
}
#endif

#endif
