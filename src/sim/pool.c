// SPDX-License-Identifier: GPL-2.0
/* Request and bio memory, in chunks freed at the end of a run; a request's release. */
#include <stdlib.h>
#include <string.h>
#include "sim_int.h"

static void *chunk(struct sim *s, size_t bytes)
{
	void *p = calloc(1, bytes);

	if (!p)
		abort();
	s->chunks = realloc(s->chunks, (s->nchunks + 1) * sizeof(*s->chunks));
	if (!s->chunks)
		abort();
	s->chunks[s->nchunks++] = p;
	return p;
}

struct srq *rq_alloc(struct sim *s)
{
	struct srq *r;

	if (!s->free_rq) {
		struct srq *a = chunk(s, 256 * sizeof(*a));
		int i;

		for (i = 255; i >= 0; i--) {
			a[i].pool_next = s->free_rq;
			s->free_rq = &a[i];
		}
	}
	r = s->free_rq;
	s->free_rq = r->pool_next;
	memset(r, 0, sizeof(*r));
	return r;
}

/*
 * A request is done with, completed or merged into another: as the
 * kernel's blk_mq_free_request, it leaves wbt's count and gives back its tag.
 */
void rq_release(struct sim *s, struct srq *r)
{
	uint8_t limited = r->tag_limited;

	wbt_rq_done(s, r);
	r->state = RQ_FREE;
	r->pool_next = s->free_rq;
	s->free_rq = r;
	tag_put(s, limited);
}

struct sbio *bio_alloc(struct sim *s)
{
	struct sbio *b;

	if (!s->free_bio) {
		struct sbio *a = chunk(s, 1024 * sizeof(*a));
		int i;

		for (i = 1023; i >= 0; i--) {
			a[i].next = s->free_bio;
			s->free_bio = &a[i];
		}
	}
	b = s->free_bio;
	s->free_bio = b->next;
	memset(b, 0, sizeof(*b));
	return b;
}

void bio_free(struct sim *s, struct sbio *b)
{
	b->next = s->free_bio;
	s->free_bio = b;
}

void pool_free_all(struct sim *s)
{
	size_t i;

	for (i = 0; i < s->nchunks; i++)
		free(s->chunks[i]);
	free(s->chunks);
	s->chunks = NULL;
	s->nchunks = 0;
}
