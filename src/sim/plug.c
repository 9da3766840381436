// SPDX-License-Identifier: GPL-2.0
/*
 * Plugging, as blk_start_plug()/blk_finish_plug(): while a thread submits a
 * burst, its new requests collect in its plug instead of reaching the
 * policy, and a bio that continues the last of them merges there
 * (blk_attempt_plug_merge() looks at the last request only). The plug goes
 * to the policy, in submission order, when the burst ends, when the thread
 * sleeps (schedule() flushes it), or when it holds 32 requests
 * (BLK_MAX_REQUEST_COUNT). Plugged requests already hold their tags.
 */
#include "sim_int.h"

#define PLUG_MAX_REQUESTS 32

void plug_start(struct sim *s, struct sthread *t)
{
	(void)s;
	t->plugged = 1;
}

static void plug_flush(struct sim *s, struct sthread *t)
{
	struct srq_list l = t->plug;
	struct srq *r;

	t->plug = (struct srq_list){ 0 };
	t->plug_count = 0;
	while ((r = srq_list_pop(&l)))
		sched_insert(s, r);
}

void plug_finish(struct sim *s, struct sthread *t)
{
	plug_flush(s, t);
	t->plugged = 0;
}

int plug_merge(struct sim *s, struct sbio *b)
{
	struct srq *r = b->t->plug.tail;

	if (!r || r->rq.dir != b->dir ||
	    (uint64_t)r->rq.nr_sectors + b->nr > s->max_sectors)
		return 0;
	if (ek_rq_end(&r->rq) == b->sector) {
		r->bios_tail->next = b;
		r->bios_tail = b;
		b->next = NULL;
	} else if (b->sector + b->nr == r->rq.sector) {
		b->next = r->bios;
		r->bios = b;
		r->rq.sector = b->sector;
	} else {
		return 0;
	}
	r->rq.nr_sectors += b->nr;
	s->res->plug_merges++;
	return 1;
}

void plug_add(struct sim *s, struct sthread *t, struct srq *r)
{
	r->state = RQ_PLUGGED;
	srq_list_add_tail(&t->plug, r);
	if (++t->plug_count >= PLUG_MAX_REQUESTS)
		plug_flush(s, t);
}
