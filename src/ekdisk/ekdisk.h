/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ekdisk: a blk-mq block device whose service times come from elvkit's
 * device models (src/model/, the simulator's own sources). Each device owns
 * one model instance, a passive state machine in virtual nanoseconds
 * (ktime since the device was created), under the device's spinlock. A
 * request is submitted to the model in queue_rq; one hrtimer per device is
 * armed at the model's next completion time, and its callback hands every
 * finished request to blk_mq_complete_request().
 */
#ifndef EKDISK_H
#define EKDISK_H

#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include "model.h"

#define EKDISK_MAX_DEVICES 16
#define EKDISK_MAX_HW_SECTORS 1024	/* 512 KiB; the simulator's --max-kb in A/B runs */

/*
 * How late the timer hands completions back, counted per power of two of
 * microseconds: bucket 0 under 1 us, bucket k in [2^(k-1), 2^k) us, the
 * last everything from 2^(N-2) us on. The guest's timer under TCG is the
 * one delay the model does not plan, and its tail is what a reader feels.
 */
#define EKDISK_LATE_BUCKETS 16

struct ekdisk {
	unsigned int index;
	const struct ek_model_type *type;
	void *model;		/* the model's state; under lock */
	spinlock_t lock;
	struct hrtimer timer;
	u64 t0;			/* ktime (ns) of the model's time 0 */
	u64 armed;		/* model time the timer is set for, or EK_U64_MAX */
	bool dying;		/* no more timer arming */
	bool write_cache;
	bool memory_backed;
	struct xarray pages;	/* memory_backed: page index -> struct page */
	/* counters, for sysfs (under lock) */
	u64 nr_reads, nr_writes, nr_flushes, nr_fua;
	u64 nr_done;		/* completed by the model */
	u64 model_ns;		/* sum of the model's latencies (done - submit) */
	u64 late_ns;		/* sum of how late the timer handed them back */
	u64 late_hist[EKDISK_LATE_BUCKETS];	/* ... per power of two of us */
	u64 nr_seq;		/* reads and writes starting where the last ended */
	u64 next_sector;	/* where the last read or write ended */
	/*
	 * A test's requeue (the requeue attribute): the next request that
	 * covers requeue_sector goes back to the block layer once, without
	 * RQF_DONTPREP, to be re-inserted after requeue_ms. Under lock.
	 */
	u64 requeue_sector;	/* EK_U64_MAX: none armed */
	unsigned int requeue_ms;
	u64 nr_requeued;
	struct blk_mq_tag_set set;
	struct gendisk *disk;
};

/* Per request: the model's view of it. */
struct ekdisk_cmd {
	struct ek_mrq mrq;
};

/* ekdisk_io.c */
extern const struct blk_mq_ops ekdisk_mq_ops;
enum hrtimer_restart ekdisk_timer_fn(struct hrtimer *t);
void ekdisk_free_pages(struct ekdisk *d);

#endif
