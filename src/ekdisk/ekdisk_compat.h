/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ekdisk: every difference of the kernel's block driver API that ekdisk
 * meets, in one place. The EK_FACT_* facts come from the target kernel's
 * own headers (scripts/kernel-facts.py writes gen/elvkit_facts.h), not from
 * version numbers:
 *   (the hrtimer difference is ek_timer.h's, shared with the shim)
 *   EK_FACT_ALLOC_DISK_LIMITS   blk_mq_alloc_disk() takes queue_limits (6.9)
 *   EK_FACT_BLK_FEAT            rotational, write cache and FUA are
 *                               queue_limits features (6.11)
 *   EK_FACT_MQ_F_SHOULD_MERGE   BLK_MQ_F_SHOULD_MERGE still exists (< 6.14)
 */
#ifndef EKDISK_COMPAT_H
#define EKDISK_COMPAT_H

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/hrtimer.h>
#include "elvkit_facts.h"
#include "ek_timer.h"	/* ek_hrtimer_setup() */

#if EK_FACT_MQ_F_SHOULD_MERGE
#define EKDISK_MQ_FLAGS BLK_MQ_F_SHOULD_MERGE
#else
#define EKDISK_MQ_FLAGS 0
#endif

/* What the queue reports: from the model. */
struct ekdisk_qprops {
	unsigned int max_hw_sectors;
	bool rotational;
	bool write_cache;	/* and FUA with it */
};

static inline struct gendisk *ekdisk_alloc_disk(struct blk_mq_tag_set *set, void *data,
						 const struct ekdisk_qprops *p)
{
	struct gendisk *disk;
#if EK_FACT_ALLOC_DISK_LIMITS
	struct queue_limits lim = {
		.logical_block_size = SECTOR_SIZE,
		.max_hw_sectors = p->max_hw_sectors,
	};

#if EK_FACT_BLK_FEAT
	if (p->rotational)
		lim.features |= BLK_FEAT_ROTATIONAL;
	if (p->write_cache)
		lim.features |= BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA;
#endif
	disk = blk_mq_alloc_disk(set, &lim, data);
	if (IS_ERR(disk))
		return disk;
#else
	disk = blk_mq_alloc_disk(set, data);
	if (IS_ERR(disk))
		return disk;
	blk_queue_logical_block_size(disk->queue, SECTOR_SIZE);
	blk_queue_max_hw_sectors(disk->queue, p->max_hw_sectors);
#endif
#if !EK_FACT_BLK_FEAT
	if (p->rotational)
		blk_queue_flag_clear(QUEUE_FLAG_NONROT, disk->queue);
	else
		blk_queue_flag_set(QUEUE_FLAG_NONROT, disk->queue);
	blk_queue_write_cache(disk->queue, p->write_cache, p->write_cache);
#endif
	return disk;
}

#endif
