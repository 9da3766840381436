// SPDX-License-Identifier: GPL-2.0
/*
 * A sequential reader through the page cache, with read-ahead as
 * mm/readahead.c does it (page_cache_sync_ra / page_cache_async_ra and
 * their ondemand logic, Linux 6.1-6.12). The application reads --block at a
 * time; a read is a page-cache hit, a wait for pages being read, or a miss:
 *
 *  - a miss starts a window: initial size get_init_ra_size() (the request
 *    rounded up to a power of two, x4 if at most max/32, x2 if at most
 *    max/4, else max), async_size = size - request;
 *  - the first page of a window's async part carries the PG_readahead mark;
 *    reading it starts the next window at once, without waiting
 *    (get_next_ra_size(): x4 below max/16, x2 up to max/2, then max), so a
 *    steady reader has one window of --readahead (max) ahead of it;
 *  - a window that would hit its own mark right away is merged with the
 *    next one (the readit: branch of ondemand_readahead).
 *
 * The model keeps only the pages of the current pass (nothing is evicted,
 * nothing is cached across passes) and a reader is always sequential, so
 * the random-access and context-readahead branches never apply. A window
 * goes out as bios of at most --max-kb; pages already read are skipped.
 */
#include <stdlib.h>
#include "sim_int.h"

#define NO_MARK UINT64_MAX

static uint64_t init_ra_size(uint64_t req, uint64_t max)
{
	uint64_t n = sim_roundup_pow2(req);

	if (n <= max / 32)
		return n * 4;
	if (n <= max / 4)
		return n * 2;
	return max;
}

static uint64_t next_ra_size(uint64_t cur, uint64_t max)
{
	if (cur < max / 16)
		return 4 * cur;
	if (cur <= max / 2)
		return 2 * cur;
	return max;
}

void ra_init(struct sim *s, struct sthread *t)
{
	struct ra_state *ra = &t->ra;

	ra->unit = t->bs % 8 ? t->bs : 8;
	ra->max = s->cfg->readahead / 512 / ra->unit;
	ra->mark = NO_MARK;
	t->ra_on = 1;
}

void ra_free(struct sthread *t)
{
	free(t->ra.io);
	t->ra.io = NULL;
}

/* The reader starts its region over: a new file, nothing cached. */
static void ra_restart(struct sthread *t)
{
	struct ra_state *ra = &t->ra;

	ra->gen++;
	ra->nio = 0;
	ra->issued_end = 0;
	ra->start = ra->size = ra->async_size = 0;
	ra->mark = NO_MARK;
	t->pos = 0;
}

/* 0 not read, 1 being read, 2 cached */
static int page_state(const struct ra_state *ra, uint64_t p)
{
	unsigned i;

	if (p >= ra->issued_end)
		return 0;
	for (i = 0; i < ra->nio; i++)
		if (p >= ra->io[i].start && p < ra->io[i].end)
			return 1;
	return 2;
}

static void ra_bio_end_io(struct sim *s, struct sbio *b)
{
	struct sthread *t = b->t;
	struct ra_state *ra = &t->ra;
	uint64_t start = (b->sector - t->region) / ra->unit;
	unsigned i;

	t->inflight--;
	acct_bio_done(s, b);
	if (b->cookie == ra->gen) {
		for (i = 0; i < ra->nio; i++) {
			if (ra->io[i].start == start) {
				ra->io[i] = ra->io[--ra->nio];
				break;
			}
		}
	}
	if (t->io_wait || (!t->left && !t->inflight)) {
		t->io_wait = 0;
		heap_push(&s->heap, s->now, EV_THREAD, t, 0);
	}
}

/* Read pages [from, to) of the region: bios of at most --max-kb, queued for submission. */
static void read_pages(struct sim *s, struct sthread *t, uint64_t from, uint64_t to)
{
	struct ra_state *ra = &t->ra;
	uint64_t per = s->cfg->max_kb * 2ULL / ra->unit;
	uint64_t end_page = t->region_len / ra->unit;

	if (!per)
		per = 1;
	if (to > end_page)
		to = end_page;
	if (from < ra->issued_end)
		from = ra->issued_end;
	while (from < to) {
		uint64_t n = to - from < per ? to - from : per;
		struct sbio *b;

		if (ra->nio == ra->cap) {
			ra->cap = ra->cap ? 2 * ra->cap : 8;
			ra->io = realloc(ra->io, ra->cap * sizeof(*ra->io));
			if (!ra->io)
				abort();
		}
		ra->io[ra->nio++] = (struct ra_io){ from, from + n };
		b = wl_new_bio(s, t, from * ra->unit, (uint32_t)(n * ra->unit), ra_bio_end_io);
		b->cookie = ra->gen;
		wl_queue_bio(t, b);
		from += n;
	}
	if (to > ra->issued_end)
		ra->issued_end = to;
}

/* The readit: step of ondemand_readahead(), then the window goes out. */
static void read_window(struct sim *s, struct sthread *t, uint64_t index)
{
	struct ra_state *ra = &t->ra;

	if (index == ra->start && ra->size == ra->async_size) {
		uint64_t add = next_ra_size(ra->size, ra->max);

		if (ra->size + add <= ra->max) {
			ra->async_size = add;
			ra->size += add;
		} else {
			ra->size = ra->max;
			ra->async_size = ra->max >> 1;
		}
	}
	ra->mark = ra->start + ra->size - ra->async_size;
	read_pages(s, t, ra->start, ra->start + ra->size);
}

/* The expected next window: push it forward and ramp it up. */
static void next_window(struct ra_state *ra)
{
	ra->start += ra->size;
	ra->size = next_ra_size(ra->size, ra->max);
	ra->async_size = ra->size;
}

/* page_cache_sync_ra(): page index missing, req pages wanted from it */
static void sync_ra(struct sim *s, struct sthread *t, uint64_t index, uint64_t req)
{
	struct ra_state *ra = &t->ra;

	if (index && (index == ra->start + ra->size - ra->async_size ||
		      index == ra->start + ra->size)) {
		next_window(ra);
	} else {
		ra->start = index;
		ra->size = init_ra_size(req, ra->max);
		ra->async_size = ra->size > req ? ra->size - req : ra->size;
	}
	read_window(s, t, index);
}

/* page_cache_async_ra(): the marked page was read */
static void async_ra(struct sim *s, struct sthread *t, uint64_t index)
{
	t->ra.mark = NO_MARK;
	next_window(&t->ra);
	read_window(s, t, index);
}

/* One step of the current read: 1 done, 0 it must wait for pages. */
static int read_step(struct sim *s, struct sthread *t)
{
	struct ra_state *ra = &t->ra;
	uint64_t first = t->pos / ra->unit, n = t->bs / ra->unit, p;
	int waiting = 0;

	for (p = first; p < first + n; p++) {
		if (page_state(ra, p) == 0) {
			sync_ra(s, t, p, first + n - p);
			break;
		}
	}
	if (ra->mark >= first && ra->mark < first + n)
		async_ra(s, t, ra->mark);
	for (p = first; p < first + n && !waiting; p++)
		waiting = page_state(ra, p) == 1;
	return !waiting;
}

/* Each read-ahead goes out under its own plug, as read_pages() does. */
static int submit(struct sim *s, struct sthread *t)
{
	int ok;

	if (!t->pending)
		return 1;
	s->hops->plug_start(s, t);
	ok = wl_submit_pending(s, t);
	s->hops->plug_finish(s, t);
	return ok;
}

int ra_reader_run(struct sim *s, struct sthread *t)
{
	for (;;) {
		int ready;

		if (!submit(s, t))
			return 0;	/* read-ahead bios wait for the host */
		if (!t->read_start_ns) {
			if (!wl_more(s, t))
				return !t->inflight;
			if (t->pos + t->bs > t->region_len)
				ra_restart(t);
			t->read_start_ns = s->now + 1;	/* 0 means none */
			t->left--;
		}
		ready = read_step(s, t);
		if (!submit(s, t))
			return 0;
		if (!ready) {
			t->io_wait = 1;
			return 0;
		}
		acct_app_io(s, t, s->now + 1 - t->read_start_ns, (uint64_t)t->bs * 512);
		t->read_start_ns = 0;
		t->pos += t->bs;
		if (t->think_ns) {
			heap_push(&s->heap, s->now + wl_think_ns(s, t), EV_THREAD, t, 0);
			return 0;
		}
	}
}
