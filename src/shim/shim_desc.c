// SPDX-License-Identifier: GPL-2.0
/*
 * Request descriptors, one per scheduler tag, allocated when a hardware
 * queue gets the scheduler (init_hctx) and when its tags grow
 * (depth_updated), never per request: prepare_request runs where the
 * submitter may not sleep, and a request without a descriptor could only
 * be served around the policy. A request's scheduler tag (internal_tag) is
 * unique among the requests of its tags while it lives, so it names its
 * descriptor. Hardware queues that share their scheduler tags (a host-wide
 * tag set: 2048 tags for the whole queue) share one set of descriptors
 * too: a set each was some 290 KiB per hardware queue.
 *
 * One array of them, indexed by the tag: the descriptor of a request is
 * then an address computation, not a division by the descriptors of a
 * chunk (prepare_request does it for every request). kvmalloc gives it
 * from vmalloc when it is large (2048 tags: 288 KiB), which can be asked
 * with __GFP_NOFAIL (5.17 on): depth_updated cannot fail. Growing
 * replaces the array: the queue is frozen then, no descriptor is in use.
 */
#include <linux/blk-mq.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "shim_internal.h"

static unsigned int ek_tags_of(struct blk_mq_hw_ctx *hctx)
{
	return hctx->sched_tags->nr_tags;
}

/* Room for nr descriptors; the queue is frozen or not yet in use. */
static int ek_descs_reserve(struct ek_descs *d, unsigned int nr, gfp_t gfp)
{
	struct ek_rq *desc;

	if (nr <= d->nr)
		return 0;
	desc = kvcalloc(nr, sizeof(*desc), gfp);
	if (!desc)
		return -ENOMEM;
	kvfree(d->desc);
	d->desc = desc;
	d->nr = nr;
	return 0;
}

/* The descriptors of another hardware queue with the same tags, or NULL. */
static struct ek_descs *ek_descs_shared(struct blk_mq_hw_ctx *hctx)
{
	struct blk_mq_hw_ctx *other;
	unsigned long i;

	queue_for_each_hw_ctx(hctx->queue, other, i)
		if (other != hctx && other->sched_tags == hctx->sched_tags &&
		    other->sched_data)
			return other->sched_data;
	return NULL;
}

/* Hardware queues are set up and torn down one at a time, frozen. */
int ek_descs_init(struct blk_mq_hw_ctx *hctx, struct ek_queue *eq)
{
	struct ek_descs *d = ek_descs_shared(hctx);
	int ret;

	if (d) {
		d->users++;
		hctx->sched_data = d;
		return 0;
	}
	d = kzalloc_node(sizeof(*d), GFP_KERNEL, hctx->numa_node);
	if (!d)
		return -ENOMEM;
	ret = ek_descs_reserve(d, ek_tags_of(hctx), GFP_KERNEL);
	if (ret) {
		kfree(d);
		return ret;
	}
	d->eq = eq;
	d->users = 1;
	hctx->sched_data = d;
	return 0;
}

/*
 * The tags may have grown. The queue is frozen (no request lives), and the
 * caller may be in the I/O path of its own queue's memory reclaim: no I/O.
 */
void ek_descs_grow(struct blk_mq_hw_ctx *hctx)
{
	struct ek_descs *d = hctx->sched_data;
	unsigned int noio = memalloc_noio_save();

	ek_descs_reserve(d, ek_tags_of(hctx), GFP_KERNEL | __GFP_NOFAIL);
	memalloc_noio_restore(noio);
}

void ek_descs_exit(struct blk_mq_hw_ctx *hctx)
{
	struct ek_descs *d = hctx->sched_data;

	if (!d)
		return;
	hctx->sched_data = NULL;
	if (--d->users)
		return;
	kvfree(d->desc);
	kfree(d);
}
