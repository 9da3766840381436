/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fair-queue's shared state, between the policy (fair_queue.c: requests,
 * slots, idling, budgets, raising) and its queue scheduler (fair_queue_wf2q.h:
 * virtual time over the busy queues of each priority class).
 *
 * A queue (struct fq_queue) holds requests of one process (synchronous
 * I/O, in the process's ek_pctx) or of everybody (asynchronous I/O, one
 * queue per priority class, in fq_data). A queue is
 *  - idle: nothing queued, not in service; in no heap, in no sum;
 *  - busy: counted in its class's weight sums, and either waiting in one
 *    of the class's two heaps or in service (then out of the heaps). The
 *    queue in service stays busy while the policy idles for it.
 */
#ifndef ELVKIT_FAIR_QUEUE_H
#define ELVKIT_FAIR_QUEUE_H

#include "elvkit/policy.h"
#include "elvkit/pheap.h"

/* Class index: RT, BE, IDLE, in the order they are served. */
enum {
	FQ_RT,
	FQ_BE,
	FQ_IDLE,
	FQ_NR_CLASSES,
};

/* Busy queues of a class up to which slot times are kept in a table. */
#define FQ_SLOT_TABLE	8

/* Virtual time unit: a sector of service at weight 1 is 1 << FQ_VT_SHIFT. */
#define FQ_VT_SHIFT	10

/* fq_queue.flags */
#define FQ_Q_BUSY	0x01u	/* in the class's sums (heap or in service) */
#define FQ_Q_ASYNC	0x02u	/* shared asynchronous queue, charged more */
#define FQ_Q_SHARED	0x04u	/* not a process's own queue (async, no pctx) */
#define FQ_Q_EXITED	0x08u	/* its process is gone: no idling, no raise */
#define FQ_Q_STARTED	0x10u	/* has seen a request: last_pos valid */
#define FQ_Q_RAISED	0x20u	/* weight-raised (low_latency) */
#define FQ_Q_ELIGIBLE	0x40u	/* in the class's eligible heap, else waiting */
#define FQ_Q_EVER_BUSY	0x80u	/* was busy once: not "new" any more */
#define FQ_Q_SAMPLED	0x100u	/* think time and seek means are valid */
#define FQ_Q_LARGE_BURST 0x200u	/* began in a large burst: not raised */
#define FQ_Q_INDEXED	0x400u	/* in fq_data.coop, by its next request's sector */

struct fq_queue {
	struct ek_ph_node node;		/* eligible (by finish) or waiting (by start) */
	struct ek_rb_root sort;		/* async: its requests by sector (rq->sort) */
	struct ek_list fifo;		/* its requests by arrival (rq->fifo) */
	struct ek_rb_node coop;		/* in fq_data.coop while FQ_Q_INDEXED */
	ek_u32 flags;			/* FQ_Q_* */
	ek_u32 nr_queued;
	ek_u32 nr_inflight;		/* dispatched, not completed; atomic */
	ek_u8 cls;			/* FQ_RT.. while busy */
	ek_u8 level;			/* 0..7 */
	/*
	 * &fd->cls[cls], set with it: every queue switch reaches the class
	 * of two queues several times, each an index computed and, where the
	 * kernel is built with UBSAN_BOUNDS (Debian's 7.2), checked.
	 */
	struct fq_class *in_class;
	ek_u32 weight;			/* effective (raised) weight while busy */

	/* B-WF2Q+ timestamps, in virtual time */
	ek_u64 vstart, vfinish;

	/* the slot: budget and what it used */
	ek_u64 budget;			/* service units (sectors x charge) */
	ek_u64 served;			/* service units this slot */
	ek_u64 served_sectors;		/* plain sectors this slot */
	ek_u64 seq_sectors;		/* of which right after the one before */
	ek_u64 slot_start_ns;
	ek_u64 next_pos;		/* end of the last dispatched request */

	/* think time and seek distance, decaying (as anticipatory) */
	ek_u64 last_pos;		/* end of its last request (at arrival) */
	ek_u64 last_done_ns;		/* last completion, 0 = none; atomic */
	ek_u64 idle_since_ns;		/* when it last went idle */
	ek_u32 ttime_mean8;		/* 8 x think time, 1024 ns units */
	ek_u32 seek_mean8;		/* 8 x seek distance, sectors */

	/* weight raising: what is left of it */
	ek_u64 wr_left;			/* sectors of raised service */
	ek_u64 wr_until_ns;		/* and until when at most */
	ek_u32 burst;			/* the burst it began in, until its verdict is kept (0) */
};

struct fq_class {
	struct ek_ph_root eligible;	/* busy, vstart <= vtime: min vfinish first */
	struct ek_ph_root waiting;	/* busy, vstart > vtime: min vstart first */
	ek_u64 vtime;
	ek_u64 wsum;			/* weights of the busy queues */
	ek_u64 wsq;			/* their squares: equal weights iff n*wsq == wsum^2 */
	ek_u32 nr_busy;
	ek_u64 wait_since_ns;		/* busy and unserved since (aging) */
};

/* Tunable indices: the order of fq_tunables[]. */
enum {
	FQ_T_SLICE_IDLE,
	FQ_T_LOW_LATENCY,
	FQ_T_FIFO_EXPIRE_SYNC,
	FQ_T_FIFO_EXPIRE_ASYNC,
	FQ_T_TARGET_LATENCY,
	FQ_T_SLICE_MAX,
	FQ_T_MAX_BUDGET,
	FQ_T_CLASS_AGE,
	FQ_T_ASYNC_CHARGE,
	FQ_T_IDLE_NONROT,
	FQ_T_ASYNC_DEPTH,
	FQ_T_COOPERATE,
	FQ_NR_TUNABLES,
};

/* Counter indices: the order of fq_counters[] and fq_data.count[]. */
enum {
	FQ_C_SWITCHES,
	FQ_C_IDLE_HITS,
	FQ_C_IDLE_TIMEOUTS,
	FQ_C_RAISES,
	FQ_C_EXPIRED,
	FQ_C_PREEMPTS,
	FQ_C_AGED,
	FQ_C_READS,
	FQ_C_WRITES,
	FQ_C_OTHER,
	FQ_C_COOP,
	FQ_NR_COUNTERS,
};

struct fq_data {
	struct ek_host *host;
	struct fq_class cls[FQ_NR_CLASSES];
	struct fq_queue async[FQ_NR_CLASSES];	/* asynchronous I/O per class */
	struct fq_queue nopctx;		/* synchronous I/O without a context */
	struct ek_list special;		/* flush, passthrough, at_head: FIFO */
	/*
	 * Close cooperators to be: the processes' own busy queues out of
	 * service, by the sector of the request each serves next, while
	 * coop_on. A queue leaves it with its last queued request always.
	 */
	struct ek_rb_root coop;
	ek_u64 nr_queued;		/* normal requests in all queues */
	ek_u32 nr_busy;			/* busy queues of all classes */

	struct fq_queue *in_service;
	ek_u8 preempt;			/* end the slot at the next dispatch */
	ek_u8 idling;			/* an idle wait is running */
	ek_u8 aged_slot;		/* the slot in service was given by aging */
	ek_u8 coop_slot;		/* ... to a close cooperator, out of turn */
	ek_u8 over_why;			/* has_work found the slot over (why), 0 = no */
	ek_u64 slot_ns;			/* the time of the slot in service */
	ek_u64 slot_by_busy[FQ_SLOT_TABLE];	/* fq_slot_ns_of() for 0.. busy queues */
	ek_u64 timer_ns;		/* armed time, 0 = none */
	ek_u64 now;			/* latest time seen (for pctx_exit) */

	/* device service rate, sectors per ms, measured on sequential slots */
	ek_u64 rate;
	ek_u64 seek_charge;		/* service units of one seek (fq_set_rate) */
	ek_u64 min_budget;		/* sectors: the smallest slot */

	/* bursts of new queues (no raise for the members of a large one) */
	ek_u64 burst_last_ns;
	ek_u32 burst_count;
	ek_u32 burst_id;
	ek_u64 large_bursts;		/* bit i: burst burst_id - i was large */

	/* tunables, converted */
	ek_u64 slice_idle_ns;
	ek_u32 low_latency;
	ek_u64 fifo_expire_ns[2];	/* [0] async, [1] sync */
	ek_u64 target_latency_ns;
	ek_u64 slice_max_ns;
	ek_u64 max_budget;		/* sectors, 0 = from the rate */
	ek_u64 class_age_ns;
	ek_u32 async_charge;
	ek_u64 async_depth;		/* limit_depth: tags for all but sync reads */
	ek_u32 idle_nonrot;
	ek_u32 cooperate;
	ek_u8 idle_seq;			/* rotational or idle_nonrot: idle for a sequential queue */
	ek_u8 coop_on;			/* cooperate, and idling can happen */

	ek_u64 count[FQ_NR_COUNTERS];
};

/* Weight of priority level 0..7: 80 .. 10 (as BFQ), ratio 8 : 1. */
static inline ek_u32 ek_fq_level_weight(ek_u8 level)
{
	return 10u * (8u - (level & 7u));
}

/* All busy queues of class c have the same weight (and some are busy). */
static inline int ek_fq_symmetric(const struct fq_class *c)
{
	return c->nr_busy * c->wsq == c->wsum * c->wsum;
}

#endif
