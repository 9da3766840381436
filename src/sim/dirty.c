// SPDX-License-Identifier: GPL-2.0
/*
 * Buffered writes under --dirty-kb: the page cache between the writers and
 * the block layer, following mm/page-writeback.c and fs/fs-writeback.c
 * (Linux 6.1-6.12) for one device (one bdi_writeback, no memcg, no
 * strictlimit) and Debian's HZ of 250.
 *
 *  - A writer dirties a bio's worth of pages per application write, at
 *    memory speed; it does not submit them. Dirty pages are its bios made
 *    and not completed (dirty or under writeback, gdtc->dirty); the limit
 *    is --dirty-kb (vm.dirty_bytes), background writeback's threshold
 *    --dirty-bg-kb.
 *  - The flusher (one thread, as the device's writeback kworker) writes
 *    the dirty bios back in the order they were dirtied, while more than
 *    bg_thresh of them are not yet under writeback, checked every chunk of
 *    4 MiB (wb_writeback, wb_over_bg_thresh, writeback_chunk_size); it is
 *    woken by a writer's balance_dirty_pages(). It submits them as a task
 *    of its own (plugged, waiting in wbt and for requests), so the
 *    scheduler sees one writer's context for everyone's writeback.
 *  - balance_dirty_pages(): below freerun = (thresh + bg_thresh) / 2 a
 *    writer is not held. Above, each writer is paused so that it dirties
 *    at task_ratelimit = dirty_ratelimit x pos_ratio: pos_ratio is the
 *    3rd order polynomial around setpoint = (freerun + limit) / 2 (0 at
 *    the limit, 2 at freerun) scaled by the wb control line
 *    (wb_position_ratio); dirty_ratelimit follows the device's write
 *    bandwidth, estimated every 200 ms over a ~4 s period
 *    (wb_update_write_bandwidth, wb_update_dirty_ratelimit). A pause is at
 *    most wb_max_pause (200 ms) and is skipped below wb_min_pause; the
 *    pause not taken is owed in the next one (dirty_paused_when). At the
 *    limit a writer sleeps max_pause and looks again.
 *  - The bdi's dirty_sleep is the last pause: wbt's wb_recent_wait.
 *
 * Simplified: dirtying (copying into the page cache) takes --copy-mbs's
 * CPU time per application write (default none; fio's writer in the
 * guest: 90-165 MB/s under TCG), on a CPU of its own, and the flusher
 * runs --flusher-us after it is woken (default 0; the
 * kernel's is a kworker that must be scheduled: about 1.3 ms, and as much
 * again to its first request, under QEMU's TCG). balance_dirty_pages()
 * runs once per application write, or per nr_dirtied_pause pages when
 * writes are smaller (the per-CPU ratelimit_pages is not modelled). The
 * bandwidth estimate is updated from balance_dirty_pages() and after every
 * 4 MiB the flusher writes (do_writepages' lazy update), and starts at
 * the kernel's INIT_BW of 100 MiB/s each run, or at --wb-bw-init's (a
 * kernel's carries over from its last writer: bench-kernel.sh reads it
 * from debugfs before each group). No periodic writeback of old data
 * (dirty_expire): writers here keep more than bg_thresh dirty. A writer that has written all its
 * data waits until it is on the device (fsync), and when the run ends
 * the flusher writes everything left, as a sync would.
 */
#include "sim_int.h"

#define HZ 250
#define JIFFY_NS (1000000000ULL / HZ)
#define PAGE_KB 4
#define BANDWIDTH_INTERVAL (HZ / 5)
#define MAX_PAUSE (HZ / 5)
#define BW_PERIOD 1024			/* roundup_pow_of_two(3 * HZ) */
#define BW_PERIOD_SHIFT 10
#define INIT_BW (100 << (20 - 12))	/* pages/s */
#define RATELIMIT_CALC_SHIFT 10
#define DIRTY_POLL_THRESH 32		/* pages: 128 KiB */
#define EXCEEDED_RATELIMIT 8		/* 32 >> (PAGE_SHIFT - 10) */
#define WB_CHUNK 1024			/* pages: MIN_WRITEBACK_PAGES, 4 MiB */

static int64_t jiffies_of(uint64_t ns)
{
	return (int64_t)(ns / JIFFY_NS);
}

void dirty_init(struct sim *s)
{
	const struct sim_config *c = s->cfg;
	struct dirty *d = &s->dirty;
	uint64_t bw;
	unsigned i;

	d->on = c->dirty_kb != 0;
	if (!d->on)
		return;
	d->thresh = c->dirty_kb / PAGE_KB;
	d->bg_thresh = (c->dirty_bg_kb ? c->dirty_bg_kb : c->dirty_kb / 4) / PAGE_KB;
	if (d->bg_thresh >= d->thresh)		/* domain_dirty_limits() */
		d->bg_thresh = d->thresh / 2;
	/* KiB/s to pages/s; a kernel's estimate carries over from its last writer */
	bw = c->wb_bw_kbps ? c->wb_bw_kbps / PAGE_KB : INIT_BW;
	d->write_bw = d->avg_write_bw = bw;
	d->dirty_ratelimit = d->balanced_ratelimit = bw;
	for (i = 0; i < s->nthreads; i++) {
		s->threads[i].bdp.nr_dirtied_pause = DIRTY_POLL_THRESH;
		if (s->threads[i].flusher)
			d->flusher = &s->threads[i];
	}
}

static uint64_t freerun_ceiling(const struct dirty *d)
{
	return (d->thresh + d->bg_thresh) / 2;
}

/* pos_ratio_polynom(): 2 at freerun, 1 at setpoint, 0 at limit */
static int64_t pos_polynom(uint64_t setpoint, uint64_t dirty, uint64_t limit)
{
	int64_t x = (((int64_t)setpoint - (int64_t)dirty) * (1 << RATELIMIT_CALC_SHIFT)) /
		    (int64_t)((limit - setpoint) | 1);
	int64_t pos = x;

	pos = pos * x / (1 << RATELIMIT_CALC_SHIFT);
	pos = pos * x / (1 << RATELIMIT_CALC_SHIFT);
	pos += 1 << RATELIMIT_CALC_SHIFT;
	if (pos < 0)
		pos = 0;
	if (pos > 2 << RATELIMIT_CALC_SHIFT)
		pos = 2 << RATELIMIT_CALC_SHIFT;
	return pos;
}

/* wb_position_ratio() for the one wb, whose share is the whole thresh. */
static uint64_t position_ratio(const struct dirty *d)
{
	uint64_t dirty = d->nr, limit = d->thresh;
	uint64_t setpoint = (freerun_ceiling(d) + limit) / 2;
	uint64_t wb_thresh = d->thresh, wb_setpoint, span, x_icept, x;
	uint64_t pos;

	if (dirty >= limit)
		return 0;
	pos = (uint64_t)pos_polynom(setpoint, dirty, limit);
	if (wb_thresh < (limit - dirty) / 8)
		wb_thresh = (limit - dirty) / 8;
	x = (wb_thresh << 16) / (d->thresh | 1);
	wb_setpoint = setpoint * x >> 16;
	span = ((d->thresh > wb_thresh ? d->thresh - wb_thresh : 0) + 8 * d->avg_write_bw) * x >> 16;
	x_icept = wb_setpoint + span;
	if (dirty < x_icept - span / 4)
		pos = pos * (x_icept - dirty) / ((x_icept - wb_setpoint) | 1);
	else
		pos /= 4;
	/* the wb reserve area: keep a low wb from running dry */
	x_icept = wb_thresh / 2;
	if (dirty < x_icept) {
		if (dirty > x_icept / 8)
			pos = pos * x_icept / dirty;
		else
			pos *= 8;
	}
	return pos;
}

static void update_write_bw(struct dirty *d, int64_t elapsed)
{
	uint64_t avg = d->avg_write_bw, old = d->write_bw;
	uint64_t bw = (d->written - d->written_stamp) * HZ;

	if (elapsed > BW_PERIOD) {
		bw /= (uint64_t)elapsed;
		avg = bw;
	} else {
		bw += old * (uint64_t)(BW_PERIOD - elapsed);
		bw >>= BW_PERIOD_SHIFT;
		/* one more level of smoothing, against sudden spikes */
		if (avg > old && old >= bw)
			avg -= (avg - old) >> 3;
		if (avg < old && old <= bw)
			avg += (old - avg) >> 3;
	}
	d->write_bw = bw;
	d->avg_write_bw = avg ? avg : 1;
}

/* wb_update_dirty_ratelimit(): towards write_bw / (writers dirtying). */
static void update_ratelimit(struct dirty *d, uint64_t pos, int64_t elapsed)
{
	uint64_t setpoint = (freerun_ceiling(d) + d->thresh) / 2;
	uint64_t rl = d->dirty_ratelimit, write_bw = d->avg_write_bw;
	uint64_t dirty_rate = (d->dirtied - d->dirtied_stamp) * HZ / (uint64_t)elapsed;
	uint64_t task_rl = (rl * pos >> RATELIMIT_CALC_SHIFT) + 1;
	uint64_t balanced = task_rl * write_bw / (dirty_rate | 1);
	uint64_t step = 0, x, shift;

	if (balanced > write_bw)
		balanced = write_bw;
	if (d->nr < setpoint) {
		x = d->balanced_ratelimit < balanced ? d->balanced_ratelimit : balanced;
		x = x < task_rl ? x : task_rl;
		if (rl < x)
			step = x - rl;
	} else {
		x = d->balanced_ratelimit > balanced ? d->balanced_ratelimit : balanced;
		x = x > task_rl ? x : task_rl;
		if (rl > x)
			step = rl - x;
	}
	/* slower as it gets close: the balanced rate itself fluctuates */
	shift = rl / (2 * step + 1);
	step = shift < 64 ? ((step >> shift) + 7) / 8 : 0;
	if (rl < balanced)
		rl += step;
	else
		rl -= step;
	d->dirty_ratelimit = rl ? rl : 1;
	d->balanced_ratelimit = balanced;
}

/* __wb_update_bandwidth(): pos is the caller's pos_ratio, or -1 for none. */
static void update_bandwidth(struct sim *s, int64_t pos)
{
	struct dirty *d = &s->dirty;
	int64_t now = jiffies_of(s->now);
	int64_t elapsed = now - d->bw_stamp > 1 ? now - d->bw_stamp : 1;

	if (pos >= 0)
		update_ratelimit(d, (uint64_t)pos, elapsed);
	update_write_bw(d, elapsed);
	d->dirtied_stamp = d->dirtied;
	d->written_stamp = d->written;
	d->bw_stamp = now;
}

static int bw_due(const struct sim *s)
{
	return jiffies_of(s->now) > s->dirty.bw_stamp + BANDWIDTH_INTERVAL;
}

static uint64_t poll_interval(uint64_t dirty, uint64_t thresh)
{
	return thresh > dirty ? 1ULL << (sim_ilog2(thresh - dirty) >> 1) : 1;
}

static int64_t max_pause(const struct dirty *d)
{
	int64_t t = (int64_t)(d->nr / (1 + d->avg_write_bw / sim_roundup_pow2(1 + HZ / 8))) + 1;

	return t < MAX_PAUSE ? t : MAX_PAUSE;
}

static int64_t min_pause(const struct dirty *d, int64_t maxp, uint64_t task_rl,
			 uint64_t *nr_pause)
{
	int64_t hi = sim_ilog2(d->avg_write_bw), lo = sim_ilog2(d->dirty_ratelimit);
	int64_t t = HZ / 100 > 1 ? HZ / 100 : 1, pause;
	uint64_t pages;

	if (hi > lo)		/* 10 ms more per doubling of concurrent writers */
		t += (hi - lo) * (10 * HZ) / 1024;
	if (t > 1 + maxp / 2)
		t = 1 + maxp / 2;
	pages = d->dirty_ratelimit * (uint64_t)t / sim_roundup_pow2(HZ);
	if (pages < DIRTY_POLL_THRESH) {
		t = maxp;
		pages = d->dirty_ratelimit * (uint64_t)t / sim_roundup_pow2(HZ);
		if (pages > DIRTY_POLL_THRESH) {
			pages = DIRTY_POLL_THRESH;
			t = HZ * DIRTY_POLL_THRESH / (int64_t)d->dirty_ratelimit;
		}
	}
	pause = (int64_t)(HZ * pages / (task_rl + 1));
	if (pause > maxp) {
		t = maxp;
		pages = task_rl * (uint64_t)t / sim_roundup_pow2(HZ);
	}
	*nr_pause = pages;
	return pages >= DIRTY_POLL_THRESH ? 1 + t / 2 : t;
}

static uint64_t pages_of(const struct sbio *b)
{
	return b->nr / 8 ? b->nr / 8 : 1;
}

/* Wake the flusher: it runs --flusher-us later, unless it waits in the block layer. */
static void wake_flusher(struct sim *s)
{
	struct sthread *f = s->dirty.flusher;

	if (!f->waiting && !f->done)
		heap_push(&s->heap, s->now + s->cfg->flusher_us * 1000, EV_THREAD, f, 0);
}

/* wb_start_background_writeback(): wake the flusher unless it runs. */
static void start_flusher(struct sim *s)
{
	struct dirty *d = &s->dirty;

	if (d->flushing || d->reclaimable <= d->bg_thresh)
		return;		/* wb_check_background_flush would do nothing */
	d->flushing = 1;
	d->chunk = 0;
	wake_flusher(s);
}

/*
 * balance_dirty_pages() for t, which dirtied pages since its last look:
 * 1 if t now sleeps (its wake-up is queued), 0 if it goes on.
 */
static int balance(struct sim *s, struct sthread *t, uint64_t pages)
{
	struct dirty *d = &s->dirty;
	struct dirty_task *p = &t->bdp;
	int64_t now = jiffies_of(s->now), period, pause, maxp, minp;
	uint64_t pos, rl, task_rl, nr_pause;

	/*
	 * The kernel wakes the flusher here when more than bg_thresh is
	 * dirty, and again above freerun whatever is dirty; either way it
	 * writes only above bg_thresh (start_flusher), so one call is both.
	 */
	start_flusher(s);
	if (d->nr <= freerun_ceiling(d)) {
		p->paused_when = now;
		p->nr_dirtied = 0;
		p->nr_dirtied_pause = poll_interval(d->nr, d->thresh);
		return 0;
	}
	d->exceeded = d->nr > d->thresh;
	pos = position_ratio(d);
	if (bw_due(s))
		update_bandwidth(s, (int64_t)pos);
	rl = d->dirty_ratelimit;
	task_rl = rl * pos >> RATELIMIT_CALC_SHIFT;
	maxp = max_pause(d);
	minp = min_pause(d, maxp, task_rl, &nr_pause);
	if (!task_rl) {
		pause = maxp;
	} else {
		period = (int64_t)(HZ * pages / task_rl);
		pause = period;
		if (p->paused_when)
			pause -= now - p->paused_when;
		if (pause < minp) {
			/* not worth a sleep: owe it to the next look */
			if (pause < -HZ) {
				p->paused_when = now;
				p->nr_dirtied = 0;
			} else if (period) {
				p->paused_when += period;
				p->nr_dirtied = 0;
			} else if (p->nr_dirtied_pause <= pages) {
				p->nr_dirtied_pause += pages;
			}
			return 0;
		}
		if (pause > maxp) {
			now += pause - maxp < maxp ? pause - maxp : maxp;
			pause = maxp;
		}
	}
	s->dirty_sleep_ns = (uint64_t)now * JIFFY_NS;
	s->dirty_slept = 1;
	p->paused_when = now + pause;
	p->nr_dirtied = 0;
	p->nr_dirtied_pause = nr_pause;
	p->until_ns = s->now + (uint64_t)pause * JIFFY_NS;
	/* at the limit, look again after the sleep (task_ratelimit 0) */
	p->recheck = !task_rl;
	p->recheck_pages = pages;
	d->pauses++;
	heap_push(&s->heap, p->until_ns, EV_THREAD, t, 0);
	return 1;
}

/* Whether writer t is still paused; at the limit, its look after the pause. */
int dirty_held(struct sim *s, struct sthread *t)
{
	struct dirty_task *p = &t->bdp;

	if (p->until_ns > s->now)
		return 1;
	if (!p->recheck)
		return 0;
	p->recheck = 0;
	return balance(s, t, p->recheck_pages);
}

/* Queue the dirtied bio b for writeback; 1 if its writer t sleeps now. */
int dirty_write(struct sim *s, struct sthread *t, struct sbio *b)
{
	struct dirty *d = &s->dirty;
	struct dirty_task *p = &t->bdp;
	uint64_t pages = pages_of(b), ratelimit;

	sbio_list_add(&d->head, &d->tail, b);
	d->nr += pages;
	d->reclaimable += pages;
	d->dirtied += pages;
	p->nr_dirtied += pages;
	acct_app_write(s, (uint64_t)b->nr * 512);
	ratelimit = p->nr_dirtied_pause;
	if (d->exceeded && ratelimit > EXCEEDED_RATELIMIT)
		ratelimit = EXCEEDED_RATELIMIT;
	if (p->nr_dirtied < ratelimit)
		return 0;
	return balance(s, t, p->nr_dirtied);
}

/* b is written back; last: its writer has nothing more out. */
void dirty_written(struct sim *s, const struct sbio *b, int last)
{
	struct dirty *d = &s->dirty;
	struct dirty_task *p = &b->owner->bdp;
	uint64_t pages = pages_of(b);

	d->nr = d->nr > pages ? d->nr - pages : 0;
	d->written += pages;
	if (last && p->syncing) {
		p->syncing = 0;
		d->syncers--;
	}
}

/*
 * t has written all it will: the flusher writes everything dirty until t's
 * data is on the device (a WB_SYNC_ALL writeback, as fsync starts).
 */
void dirty_sync(struct sim *s, struct sthread *t)
{
	if (t->bdp.syncing)
		return;
	t->bdp.syncing = 1;
	s->dirty.syncers++;
	wake_flusher(s);
}

/*
 * The flusher: background writeback of the oldest dirty bios, a chunk at
 * a time while more than bg_thresh is dirty (everything while a writer
 * syncs, and once the run has ended). 1 when it has nothing more to do at
 * the end.
 */
int dirty_flusher_run(struct sim *s, struct sthread *f)
{
	struct dirty *d = &s->dirty;

	if (!wl_submit_pending(s, f))
		return 0;
	while (d->head && (d->flushing || d->syncers || s->ended)) {
		struct sbio *b = d->head;
		uint64_t pages = pages_of(b);

		d->head = b->next;
		if (!d->head)
			d->tail = NULL;
		d->reclaimable -= pages;
		d->chunk += pages;
		d->writepages += pages;
		if (d->writepages >= WB_CHUNK) {
			d->writepages = 0;
			if (bw_due(s))
				update_bandwidth(s, -1);
		}
		/* a chunk ends when written or when no dirty page is left */
		if (d->chunk >= WB_CHUNK || !d->head) {
			d->chunk = 0;
			d->flushing = d->reclaimable > d->bg_thresh;
		}
		b->t = f;
		wl_queue_bio(f, b);
		if (!wl_submit_pending(s, f))
			return 0;
	}
	return s->ended && !d->head;
}
