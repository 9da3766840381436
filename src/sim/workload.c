// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads: threads doing application I/O of --block. Synchronous threads
 * (readers) do one read at a time and think between reads: sequential
 * ones read through the page cache with read-ahead (readahead.c), random
 * ones issue a bio per read. Asynchronous ones (writeback) keep up to
 * --wdepth bios in flight, or with --dirty-kb dirty a bio's worth per
 * write for one flusher thread to write back (dirty.c). Each thread works
 * in its own region: foreground regions lie one after another from sector
 * 0, background regions after --size; with --interleave the sequential
 * readers share one region, thread i reading blocks i, i + N, i + 2N, ...
 * (N threads), as cooperating processes do (a dump, a pool of I/O
 * threads). Until --min-time, a foreground thread
 * that has done its share
 * starts another pass. The workload reaches the host only through s->hops
 * (struct sim_host_ops); the host completes its bios through end_io.
 */
#include <stdlib.h>
#include "sim_int.h"

#define BG_REGION (1ULL << 31)	/* sectors: 1 TiB, clamped to the device */
#define STARTUP_REGION (1ULL << 21)	/* sectors: 1 GiB of binaries and libraries */

static void thread_setup(struct sim *s, struct sthread *t, uint64_t region,
			 uint64_t len, uint32_t bs)
{
	if (region >= s->cap - bs)
		region = (s->cap - bs) / 2;
	if (len > s->cap - region)
		len = s->cap - region;
	len -= len % bs;
	if (len < bs)
		len = bs;
	t->region = region;
	t->region_len = len;
	t->bs = bs;
	t->stride = bs;
	t->rng = s->cfg->seed * 1000003ULL + t->id * 7919ULL + 17;
}

int wl_build(struct sim *s)
{
	const struct sim_config *c = s->cfg;
	unsigned n = c->threads ? c->threads : 1, nfg = n, nbg = 0, i;
	uint32_t bs = (uint32_t)(c->block / 512);
	/* background writeback defaults to 64k bios (bigger than tiobench's) */
	uint32_t bgbs = (uint32_t)((c->bg_block ? c->bg_block :
				    c->block > 65536 ? c->block : 65536) / 512);
	uint64_t align = c->region_align > 512 ? c->region_align : 512;
	/* as fio's --size and --offset_increment where a script rounds them */
	uint64_t per = c->size / n / align * align / 512;
	uint64_t think = (uint64_t)sim_think_us(c) * 1000;
	uint64_t fgend, bglen;
	int bg = c->bg, w = c->workload, flusher;

	if (!bs || !bgbs || bs > s->cap / 4)
		return -1;
	if (bg == BG_DEFAULT)
		bg = (w == WL_READ_VS_WRITE || w == WL_STARTUP) ? BG_WRITE : BG_NONE;
	if (w == WL_STARTUP) {
		nfg = 1;
		nbg = bg == BG_NONE ? 0 : n;
	} else if (bg != BG_NONE) {
		nbg = 1;
	}
	/* buffered writers under --dirty-kb: one flusher writes for them all */
	flusher = c->dirty_kb && (w == WL_SEQWRITE || w == WL_RANDWRITE ||
				  (nbg && bg == BG_WRITE));
	s->nthreads = nfg + nbg + flusher;
	s->threads = calloc(s->nthreads, sizeof(*s->threads));
	if (!s->threads)
		abort();
	if (per < bs)
		per = bs;

	for (i = 0; i < nfg; i++) {
		struct sthread *t = &s->threads[i];

		t->id = i;
		t->prio = c->nprio ? c->prio[i % c->nprio] : (struct sim_prio){ EK_PRIO_BE, 4 };
		switch (w) {
		case WL_SEQREAD:
		case WL_READ_VS_WRITE:
		case WL_THINK_READ:
			t->dir = EK_READ;
			t->sync = 1;
			break;
		case WL_SEQWRITE:
		case WL_RANDWRITE:
			t->dir = EK_WRITE;
			break;
		case WL_RANDREAD:
		case WL_STARTUP:
			t->dir = EK_READ;
			t->sync = 1;
			t->random = 1;
			break;
		}
		if (w == WL_RANDWRITE)
			t->random = 1;
		if (w == WL_STARTUP) {
			t->startup = 1;
			t->start_ns = c->warmup_ns;
			thread_setup(s, t, s->cap / 4, STARTUP_REGION, bs);
			t->left = c->startup_ios;
		} else if (c->interleave && w == WL_SEQREAD) {
			thread_setup(s, t, 0, (uint64_t)nfg * per, bs);
			t->first = t->pos = (uint64_t)i * bs;
			t->stride = (uint64_t)nfg * bs;
			t->left = t->region_len / t->stride ? t->region_len / t->stride : 1;
		} else {
			thread_setup(s, t, (uint64_t)i * per, per, bs);
			if (t->random)
				t->left = c->ios / nfg ? c->ios / nfg : 1;
			else
				t->left = t->region_len / t->bs;
		}
		t->share = t->left;
		t->max_inflight = t->sync ? 1 : c->wdepth;
		t->think_ns = t->sync ? think : 0;
		if (t->sync && !t->random && c->readahead / 512 > t->bs)
			ra_init(s, t);
	}
	/*
	 * Background regions begin after --size, where a job file that
	 * rounds the foreground's regions puts the writer (bench-kernel's
	 * read-vs-write: at half the device), or after the foreground's if
	 * its regions were rounded up to a block.
	 */
	fgend = w == WL_STARTUP ? 0 : ek_max_u64((uint64_t)nfg * per, c->size / 512);
	if (fgend > s->cap / 2)
		fgend = s->cap / 2;
	bglen = nbg ? (s->cap - fgend) / nbg : 0;
	if (bglen > BG_REGION)
		bglen = BG_REGION;
	for (i = nfg; i < nfg + nbg; i++) {
		struct sthread *t = &s->threads[i];

		t->id = i;
		t->bg = 1;
		t->prio = c->bg_prio;
		t->dir = bg == BG_WRITE ? EK_WRITE : EK_READ;
		t->sync = bg == BG_READ;
		t->max_inflight = t->sync ? 1 : c->wdepth;
		thread_setup(s, t, fgend + (uint64_t)(i - nfg) * bglen, bglen, bgbs);
		t->left = UINT64_MAX;
		if (t->sync && c->readahead / 512 > t->bs)
			ra_init(s, t);
	}
	if (flusher) {
		struct sthread *t = &s->threads[i];

		t->id = i;
		t->bg = t->flusher = 1;
		t->prio = (struct sim_prio){ EK_PRIO_BE, 4 };	/* a kworker's nice 0 */
		t->dir = EK_WRITE;
	}
	/*
	 * --start-us: fio's jobs begin within moments of each other, in no set
	 * order. Who issues first matters: wbt watches one read at a time, and
	 * the reader it picks first it keeps (its next read is the next one
	 * issued), which all at once in thread order would always make thread 0.
	 */
	for (i = 0; c->start_us && i < s->nthreads; i++)
		if (!s->threads[i].startup && !s->threads[i].flusher)
			s->threads[i].start_ns = sim_rand(&s->rng) % (c->start_us * 1000 + 1);
	s->fg_running = nfg;
	dirty_init(s);
	for (i = 0; i < s->nthreads; i++)	/* the flusher waits to be woken */
		if (!s->threads[i].flusher)
			heap_push(&s->heap, s->threads[i].start_ns, EV_THREAD, &s->threads[i], 0);
	return 0;
}

static void thread_exit(struct sim *s, struct sthread *t)
{
	if (!t->exited) {
		t->exited = 1;
		s->hops->task_exit(s, t);
	}
}

static void thread_finish(struct sim *s, struct sthread *t)
{
	unsigned i;

	t->done = 1;
	t->finish_ns = s->now;
	/*
	 * After --runtime, fio's jobs are still there until the last one's
	 * I/O is back (a scheduler may wait for their next request
	 * meanwhile: 61 of fair-queue's 62 idle timeouts of a kernel run of
	 * 64 sequential readers came in that drain); they exit together.
	 */
	if (t->bg || !s->stopping)
		thread_exit(s, t);
	if (t->bg)
		return;
	if (t->startup)
		s->res->startup_ns = s->now - t->start_ns;
	if (--s->fg_running || s->ended)
		return;
	/* the measured part is over; background threads wind down */
	s->ended = 1;
	s->end_ns = s->now;
	for (i = 0; i < s->nthreads; i++) {
		if (s->stopping && s->threads[i].done)
			thread_exit(s, &s->threads[i]);
		if (!s->threads[i].done) {
			s->threads[i].left = 0;
			heap_push(&s->heap, s->now, EV_THREAD, &s->threads[i], 0);
		}
	}
}

/*
 * --runtime is over (fio's --time_based end): the threads start no new
 * I/O, and the run ends when the last foreground one has what it had in
 * flight back, so the rates take in that drain as fio's do. A thread
 * mid-request finishes it. Background threads stop too, as fio's
 * time-based writer job does (going on, it wrote into the room the
 * readers' drain left: beside 64 readers under fair-queue twice the
 * kernel's MB/s); the flusher writes back what is dirty.
 */
void wl_runtime_over(struct sim *s)
{
	unsigned i;

	s->stopping = 1;
	for (i = 0; i < s->nthreads; i++) {
		struct sthread *t = &s->threads[i];

		if (t->flusher || t->done)
			continue;
		t->left = 0;
		t->share_done = 1;
		heap_push(&s->heap, s->now, EV_THREAD, t, 0);
	}
}

/* The time limit: everyone stops; 1 if a foreground thread had not done its share. */
int wl_stop(struct sim *s)
{
	int cut = 0;
	unsigned i;

	s->ended = 1;
	s->end_ns = s->now;
	for (i = 0; i < s->nthreads; i++) {
		struct sthread *t = &s->threads[i];

		cut |= !t->bg && !t->done && !t->share_done && t->left;
		t->left = 0;
		heap_push(&s->heap, s->now, EV_THREAD, t, 0);
	}
	return cut;
}

/* Application I/Os left to start; a foreground pass repeats until --min-time. */
uint64_t wl_more(struct sim *s, struct sthread *t)
{
	if (t->left)
		return t->left;
	t->share_done = 1;
	if (!t->bg && !t->startup && !s->ended && !s->stopping &&
	    s->now < s->cfg->min_time_ns)
		t->left = t->share;
	return t->left;
}

struct sbio *wl_new_bio(struct sim *s, struct sthread *t, uint64_t off, uint32_t nr,
			void (*end_io)(struct sim *s, struct sbio *b))
{
	struct sbio *b = s->hops->bio_alloc(s);

	b->sector = t->region + off;
	b->nr = nr;
	b->dir = t->dir;
	b->t = b->owner = t;
	b->submit_ns = s->now;
	b->end_io = end_io;
	t->inflight++;
	s->res->bios++;
	return b;
}

void wl_queue_bio(struct sthread *t, struct sbio *b)
{
	sbio_list_add(&t->pending, &t->pending_tail, b);
}

int wl_submit_pending(struct sim *s, struct sthread *t)
{
	while (t->pending) {
		struct sbio *b = t->pending, *next = b->next;

		if (!s->hops->submit_bio(s, b))
			return 0;
		t->pending = next;
		if (!next)
			t->pending_tail = NULL;
	}
	return 1;
}

/* An async writer: writeback of a task that writes into the page cache. */
static int buffered_writer(const struct sthread *t)
{
	return !t->sync && t->dir == EK_WRITE && !t->flusher;
}

/* ... under --dirty-kb: it only dirties pages, the flusher writes them (dirty.c) */
static int dirty_throttled(const struct sim *s, const struct sthread *t)
{
	return s->dirty.on && buffered_writer(t);
}

/* A reader's think time: --think's constant, or drawn from its points. */
uint64_t wl_think_ns(struct sim *s, const struct sthread *t)
{
	if (t->think_ns && s->cfg->think_q.n)
		return sim_delay_draw_ns(&s->cfg->think_q, &s->rng);
	return t->think_ns;
}

/* A bio that is one application I/O is done; the thread runs again after its think time. */
static void app_bio_end_io(struct sim *s, struct sbio *b)
{
	struct sthread *t = b->owner;

	t->inflight--;
	if (dirty_throttled(s, t))
		dirty_written(s, b, !t->inflight);
	else if (b->dir == EK_WRITE)
		acct_app_write(s, (uint64_t)b->nr * 512);
	acct_bio_done(s, b);
	acct_app_io(s, t, s->now - b->submit_ns, (uint64_t)b->nr * 512);
	heap_push(&s->heap, s->now + wl_think_ns(s, t), EV_THREAD, t, 0);
}

static struct sbio *make_bio(struct sim *s, struct sthread *t)
{
	uint64_t off;

	if (t->random) {
		off = (sim_rand(&t->rng) % (t->region_len / t->bs)) * t->bs;
	} else {
		if (t->pos + t->bs > t->region_len)
			t->pos = t->first;
		off = t->pos;
		t->pos += t->stride;
	}
	t->left--;
	return wl_new_bio(s, t, off, t->bs, app_bio_end_io);
}

/*
 * Without --dirty-kb, an async writer that still has data but all of its
 * --wdepth bios out is held back by its dirty limit: what
 * balance_dirty_pages() records for wbt (with it, dirty.c records pauses).
 */
static void note_dirty_limit(struct sim *s, const struct sthread *t)
{
	if (!s->dirty.on && buffered_writer(t) && t->left && !t->done) {
		s->dirty_sleep_ns = s->now;
		s->dirty_slept = 1;
	}
}

/* --copy-mbs: the CPU time of one application write's copy into the page cache */
static uint64_t copy_ns(const struct sim *s, const struct sthread *t)
{
	return s->cfg->copy_mbs ? (uint64_t)t->bs * 512 * 1000 / s->cfg->copy_mbs : 0;
}

/*
 * A buffered writer under --dirty-kb dirties a bio's worth per application
 * write, each after its copy (--copy-mbs; none by default), until
 * balance_dirty_pages() pauses it; the flusher writes them back
 * (dirty.c); --wdepth does not apply. Done, it waits for its data to be
 * written, as an fsync would.
 */
static void dirty_ahead(struct sim *s, struct sthread *t)
{
	uint64_t copy = copy_ns(s, t);

	while (!dirty_held(s, t)) {
		if (t->copy_end_ns > s->now)
			return;		/* still copying; its end is queued */
		if (!t->copy_end_ns && copy && wl_more(s, t)) {
			t->copy_end_ns = s->now + copy;
			heap_push(&s->heap, t->copy_end_ns, EV_THREAD, t, 0);
			return;
		}
		t->copy_end_ns = 0;
		/* asked again after a copy: the run may have been cut meanwhile */
		if (!wl_more(s, t)) {
			if (t->inflight)
				dirty_sync(s, t);
			return;
		}
		if (dirty_write(s, t, make_bio(s, t)))
			return;
	}
}

/* A bio per application I/O; 1 when the thread has nothing left. */
static int bio_thread_run(struct sim *s, struct sthread *t)
{
	if (dirty_throttled(s, t)) {
		dirty_ahead(s, t);
		return !t->left && !t->inflight;
	}
	if (!wl_submit_pending(s, t))
		return 0;
	while (t->inflight < t->max_inflight && wl_more(s, t)) {
		wl_queue_bio(t, make_bio(s, t));
		if (!wl_submit_pending(s, t))
			return 0;
	}
	return !t->left && !t->inflight;
}

void wl_thread_run(struct sim *s, struct sthread *t)
{
	int finished;

	if (t->done || t->waiting)
		return;
	if (t->ra_on) {
		finished = ra_reader_run(s, t);	/* plugs each read-ahead itself */
	} else if (t->flusher) {
		s->hops->plug_start(s, t);
		finished = dirty_flusher_run(s, t);
		s->hops->plug_finish(s, t);
	} else {
		s->hops->plug_start(s, t);
		finished = bio_thread_run(s, t);
		s->hops->plug_finish(s, t);
	}
	note_dirty_limit(s, t);
	if (finished)
		thread_finish(s, t);
}

void wl_free(struct sim *s)
{
	unsigned i;

	for (i = 0; i < s->nthreads; i++)
		ra_free(&s->threads[i]);
	free(s->threads);
	s->threads = NULL;
}
