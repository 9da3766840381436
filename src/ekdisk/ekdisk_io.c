// SPDX-License-Identifier: GPL-2.0
/*
 * ekdisk's I/O path: queue_rq hands each request to the model, one hrtimer
 * per device completes them at the model's times; optional sparse memory
 * backing so that data reads back.
 */
#define pr_fmt(fmt) "ekdisk: " fmt

#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include "ekdisk.h"

/* The model's clock: ns since the device was created. */
static u64 ekdisk_now(const struct ekdisk *d)
{
	return ktime_get_ns() - d->t0;
}

static unsigned int ekdisk_late_bucket(u64 late_ns)
{
	u64 us = div_u64(late_ns, NSEC_PER_USEC);

	return us ? min_t(unsigned int, ilog2(us) + 1, EKDISK_LATE_BUCKETS - 1) : 0;
}

/* Arm the timer for the model's next event if it is earlier. Under lock. */
static void ekdisk_arm(struct ekdisk *d)
{
	u64 next = d->type->next_done(d->model);

	if (d->dying || next == EK_U64_MAX || next >= d->armed)
		return;
	d->armed = next;
	hrtimer_start(&d->timer, ns_to_ktime(d->t0 + next), HRTIMER_MODE_ABS);
}

enum hrtimer_restart ekdisk_timer_fn(struct hrtimer *t)
{
	struct ekdisk *d = container_of(t, struct ekdisk, timer);
	struct ek_list done;
	struct ek_mrq *r;
	unsigned long flags;
	int rounds = 0;
	u64 now;

	ek_list_init(&done);
	spin_lock_irqsave(&d->lock, flags);
	d->armed = EK_U64_MAX;
	/*
	 * Collect everything due. complete() also plays the model's internal
	 * work (destaging) forward, so after it returns NULL the next event
	 * lies in the future; the bound only guards against a model that
	 * breaks that promise.
	 */
	do {
		now = ekdisk_now(d);
		while ((r = d->type->complete(d->model, now))) {
			d->nr_done++;
			d->model_ns += r->done_ns - r->submit_ns;
			d->late_ns += now - r->done_ns;
			d->late_hist[ekdisk_late_bucket(now - r->done_ns)]++;
			ek_list_add_tail(&r->link, &done);
		}
	} while (d->type->next_done(d->model) <= now && ++rounds < 16);
	ekdisk_arm(d);
	spin_unlock_irqrestore(&d->lock, flags);

	while ((r = ek_list_first(&done, struct ek_mrq, link))) {
		ek_list_del(&r->link);
		blk_mq_complete_request(r->tag);
	}
	return HRTIMER_NORESTART;
}

/* The page holding page index idx; allocated (zeroed) when alloc. */
static struct page *ekdisk_page(struct ekdisk *d, pgoff_t idx, bool alloc)
{
	struct page *p = xa_load(&d->pages, idx), *old;

	if (p || !alloc)
		return p;
	p = alloc_page(GFP_NOIO | __GFP_ZERO | __GFP_NOWARN);
	if (!p)
		return NULL;
	old = xa_cmpxchg(&d->pages, idx, NULL, p, GFP_NOIO | __GFP_NOWARN);
	if (old) {		/* raced with another writer, or failed */
		__free_page(p);
		return xa_is_err(old) ? NULL : old;
	}
	return p;
}

/* Copy a request's data to or from the sparse store. */
static blk_status_t ekdisk_transfer(struct ekdisk *d, struct request *rq)
{
	bool write = req_op(rq) == REQ_OP_WRITE;
	u64 pos = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	struct req_iterator iter;
	struct bio_vec bv;

	rq_for_each_segment(bv, rq, iter) {
		unsigned int done = 0;

		while (done < bv.bv_len) {
			unsigned int off = offset_in_page(pos);
			unsigned int n = min_t(unsigned int, bv.bv_len - done, PAGE_SIZE - off);
			struct page *p = ekdisk_page(d, pos >> PAGE_SHIFT, write);

			if (write && !p)
				return BLK_STS_RESOURCE;
			if (write)
				memcpy_page(p, off, bv.bv_page, bv.bv_offset + done, n);
			else if (p)
				memcpy_page(bv.bv_page, bv.bv_offset + done, p, off, n);
			else
				memzero_page(bv.bv_page, bv.bv_offset + done, n);
			done += n;
			pos += n;
		}
	}
	return BLK_STS_OK;
}

void ekdisk_free_pages(struct ekdisk *d)
{
	struct page *p;
	unsigned long idx;

	xa_for_each(&d->pages, idx, p)
		__free_page(p);
	xa_destroy(&d->pages);
}

/*
 * The armed test requeue (ekdisk.h): rq, started, covers requeue_sector,
 * so it goes back to the block layer as a driver sends back what it
 * cannot take now, and the requeue list runs after requeue_ms. No
 * RQF_DONTPREP: blk-mq re-inserts it through the scheduler.
 */
static bool ekdisk_send_back(struct ekdisk *d, struct request *rq)
{
	u64 pos = blk_rq_pos(rq);
	unsigned long flags;
	unsigned int ms = 0;
	bool hit;

	if (READ_ONCE(d->requeue_sector) == EK_U64_MAX)
		return false;
	spin_lock_irqsave(&d->lock, flags);
	hit = d->requeue_sector >= pos &&
	      d->requeue_sector < pos + blk_rq_sectors(rq);
	if (hit) {
		d->requeue_sector = EK_U64_MAX;
		d->nr_requeued++;
		ms = d->requeue_ms;
	}
	spin_unlock_irqrestore(&d->lock, flags);
	if (!hit)
		return false;
	blk_mq_requeue_request(rq, false);
	blk_mq_delay_kick_requeue_list(rq->q, ms);
	return true;
}

static blk_status_t ekdisk_queue_rq(struct blk_mq_hw_ctx *hctx,
				    const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct ekdisk *d = hctx->queue->queuedata;
	struct ekdisk_cmd *cmd = blk_mq_rq_to_pdu(rq);
	struct ek_mrq *m = &cmd->mrq;
	unsigned long flags;
	blk_status_t st;

	memset(m, 0, sizeof(*m));
	switch (req_op(rq)) {
	case REQ_OP_READ:
		break;
	case REQ_OP_WRITE:
		m->dir = 1;
		if (rq->cmd_flags & REQ_FUA)
			m->flags |= EK_MRQ_FUA;
		break;
	case REQ_OP_FLUSH:
		m->dir = 1;
		m->flags = EK_MRQ_FLUSH;
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
	if (d->memory_backed && req_op(rq) != REQ_OP_FLUSH) {
		/* BLK_MQ_F_BLOCKING: allocating a page may sleep */
		st = ekdisk_transfer(d, rq);
		if (st != BLK_STS_OK)
			return st;
	}
	blk_mq_start_request(rq);
	if (req_op(rq) == REQ_OP_FLUSH && !d->write_cache) {
		/* nothing volatile to write back (the block layer sends none) */
		blk_mq_end_request(rq, BLK_STS_OK);
		return BLK_STS_OK;
	}
	if (req_op(rq) != REQ_OP_FLUSH) {
		if (ekdisk_send_back(d, rq))
			return BLK_STS_OK;
		m->sector = blk_rq_pos(rq);
		m->nr_sectors = blk_rq_sectors(rq);
	}
	m->tag = rq;

	spin_lock_irqsave(&d->lock, flags);
	if (m->flags & EK_MRQ_FLUSH)
		d->nr_flushes++;
	else if (m->dir)
		d->nr_writes++;
	else
		d->nr_reads++;
	if (m->flags & EK_MRQ_FUA)
		d->nr_fua++;
	if (!(m->flags & EK_MRQ_FLUSH)) {
		d->nr_seq += m->sector == d->next_sector;
		d->next_sector = m->sector + m->nr_sectors;
	}
	d->type->submit(d->model, m, ekdisk_now(d));
	ekdisk_arm(d);
	spin_unlock_irqrestore(&d->lock, flags);
	return BLK_STS_OK;
}

static void ekdisk_complete_rq(struct request *rq)
{
	blk_mq_end_request(rq, BLK_STS_OK);
}

/* The model finishes every request it was given; wait for it. */
static enum blk_eh_timer_return ekdisk_timeout(struct request *rq)
{
	return BLK_EH_RESET_TIMER;
}

const struct blk_mq_ops ekdisk_mq_ops = {
	.queue_rq = ekdisk_queue_rq,
	.complete = ekdisk_complete_rq,
	.timeout = ekdisk_timeout,
};
