// SPDX-License-Identifier: GPL-2.0
/*
 * Writeback throttling, following block/blk-wbt.c and blk-rq-qos.c (Linux
 * 6.1-6.12): buffered (async) writes may have only so many requests out
 * (allocated, queued or on the device); the limit shrinks while reads
 * complete slower than a target and grows back when they do not.
 *
 *  - Depth: max_depth = min(16, device queue depth) at scale step 0 (2 for
 *    a queue depth of 1), halved per step down (1 + (d-1) >> step),
 *    doubled per step up while only writes run, up to 3/4 of the queue
 *    depth (rq_depth_calc_max_depth). wb_normal = (max+1)/2,
 *    wb_background = (max+3)/4 (calc_wb_limits).
 *  - Which limit a write gets (get_limit): max_depth if a writer was held
 *    back by its dirty limit in the last second (wb_recent_wait), else
 *    wb_background if a read was issued or completed in the last 100 ms
 *    (close_io), else wb_normal.
 *  - Monitoring (wb_timer_fn, latency_exceeded): a window of 100 ms,
 *    shorter while scaled down (win * 16 / sqrt((step+1) * 256)). Latency
 *    is exceeded when the oldest read on the device has been there longer
 *    than the window, or longer than the target with no read completed,
 *    or when the fastest read of the window (device time) exceeds the
 *    target min_lat: 75 ms rotational, 2 ms otherwise
 *    (wbt_default_latency_nsec). Then scale down; a window with reads and
 *    at least 3 writes and no excess scales up; writes only scale up; five
 *    windows with nothing drift back to step 0.
 *  - Wake-ups (wbt_rqw_done): on a tracked completion, sleepers are woken
 *    only when nothing is left in flight or wb_normal - inflight >=
 *    wb_background / 2; then they take slots in order while under their
 *    limit (rq_qos_wait).
 *
 * Simplified: the device models report no volatile write cache, so the
 * write-cache wake-up limit of 0 never applies; the simulator's writers
 * stand for writeback of a dirtier, and "held back by its dirty limit" is
 * an async writer with all of its --wdepth bios out (workload.c). Discards
 * and kswapd writes do not exist here.
 */
#include "sim_int.h"	/* and, through sim.h, ek_isqrt() */

#define RWB_DEF_DEPTH 16
#define RWB_WINDOW_NS 100000000ULL
#define RWB_MIN_WRITE_SAMPLES 3
#define RWB_UNKNOWN_BUMP 5
#define CLOSE_IO_NS 100000000ULL	/* HZ / 10 */
#define RECENT_WAIT_NS 1000000000ULL	/* HZ */

/* rq_depth_calc_max_depth(): 1 when the depth hit its top going up */
static int calc_max_depth(struct wbt *w)
{
	unsigned depth;
	int ret = 0;

	if (w->queue_depth == 1) {
		if (w->scale_step > 0) {
			w->max_depth = 1;
		} else {
			w->max_depth = 2;
			ret = 1;
		}
		return ret;
	}
	depth = w->default_depth < w->queue_depth ? w->default_depth : w->queue_depth;
	if (w->scale_step > 0) {
		depth = 1 + ((depth - 1) >> (w->scale_step < 31 ? w->scale_step : 31));
	} else if (w->scale_step < 0) {
		unsigned maxd = 3 * w->queue_depth / 4;

		depth = 1 + ((depth - 1) << -w->scale_step);
		if (depth > maxd) {
			depth = maxd;
			ret = 1;
		}
	}
	w->max_depth = depth;
	return ret;
}

static void calc_wb_limits(struct wbt *w)
{
	if (w->max_depth <= 2) {
		w->wb_normal = w->max_depth;
		w->wb_background = 1;
	} else {
		w->wb_normal = (w->max_depth + 1) / 2;
		w->wb_background = (w->max_depth + 3) / 4;
	}
}

static int recent_wait(const struct sim *s)
{
	return s->dirty_slept && s->now < s->dirty_sleep_ns + RECENT_WAIT_NS;
}

static int close_io(const struct sim *s)
{
	const struct wbt *w = &s->wbt;

	return (w->last_issue != WBT_NEVER && s->now < w->last_issue + CLOSE_IO_NS) ||
	       (w->last_comp != WBT_NEVER && s->now < w->last_comp + CLOSE_IO_NS);
}

static unsigned get_limit(const struct sim *s)
{
	if (recent_wait(s))
		return s->wbt.max_depth;
	if (close_io(s))
		return s->wbt.wb_background;
	return s->wbt.wb_normal;
}

/* Sleepers take slots in order while under their limit (rq_qos_wake_function). */
static void wake_all(struct sim *s)
{
	struct wbt *w = &s->wbt;
	int own = s->cfg->wbt_wake_us >= 0;
	int64_t wake_us = own ? s->cfg->wbt_wake_us : s->cfg->tag_wake_us;
	const struct sim_delay *q = own ? NULL : &s->cfg->tag_wake_q;

	while (w->wait.head && w->inflight < get_limit(s)) {
		w->inflight++;
		w->wait.head->wbt_granted = 1;
		waitq_wake_at(s, &w->wait, &w->wait.head, s->now + waitq_wake_delay(s, wake_us, q));
	}
}

static void note_depth(struct sim *s)
{
	struct sim_result *r = s->res;

	if (!r->wbt_min_depth || s->wbt.max_depth < r->wbt_min_depth)
		r->wbt_min_depth = s->wbt.max_depth;
}

static void scale_up(struct sim *s)
{
	struct wbt *w = &s->wbt;

	if (w->scaled_max)
		return;
	w->scale_step--;
	w->scaled_max = calc_max_depth(w);
	calc_wb_limits(w);
	w->unknown_cnt = 0;
	s->res->wbt_scale_ups++;
	wake_all(s);
}

static void scale_down(struct sim *s, int hard_throttle)
{
	struct wbt *w = &s->wbt;

	if (w->max_depth == 1)
		return;
	if (w->scale_step < 0 && hard_throttle)
		w->scale_step = 0;
	else
		w->scale_step++;
	w->scaled_max = 0;
	calc_max_depth(w);
	calc_wb_limits(w);
	w->unknown_cnt = 0;
	s->res->wbt_scale_downs++;
	note_depth(s);
}

/* rwb_arm_timer() with blk_stat_activate_nsecs(): a new stats window */
static void arm_timer(struct sim *s)
{
	struct wbt *w = &s->wbt;

	if (w->scale_step > 0)
		w->cur_win_ns = (w->win_ns << 4) / ek_isqrt((uint64_t)(w->scale_step + 1) << 8);
	else
		w->cur_win_ns = w->win_ns;
	w->rd_n = w->wr_n = 0;
	w->rd_min = UINT64_MAX;
	w->timer_active = 1;
	heap_push(&s->heap, s->now + w->cur_win_ns, EV_WBT, NULL, ++w->timer_gen);
}

void wbt_init(struct sim *s)
{
	struct wbt *w = &s->wbt;
	int on = s->cfg->wbt < 0 ? s->host.dev.rotational : s->cfg->wbt;

	w->enabled = on && !(s->pol->flags & EK_POLICY_NO_WBT);
	w->min_lat_ns = s->host.dev.rotational ? 75000000ULL : 2000000ULL;
	w->win_ns = w->cur_win_ns = RWB_WINDOW_NS;
	w->last_issue = w->last_comp = WBT_NEVER;
	w->default_depth = RWB_DEF_DEPTH;
	/* blk_queue_depth(): the device's queue depth */
	w->queue_depth = s->qd;
	calc_max_depth(w);
	calc_wb_limits(w);
	if (w->enabled)
		note_depth(s);
}

/* Buffered writes are throttled; O_DIRECT-style sync writes and reads are not. */
static int tracked(const struct sim *s, const struct sbio *b)
{
	return s->wbt.enabled && b->dir == EK_WRITE && !b->t->sync;
}

int wbt_throttle(struct sim *s, struct sbio *b)
{
	struct wbt *w = &s->wbt;
	struct sthread *t = b->t;

	if (!tracked(s, b) || b->wbt_tracked)
		return 1;
	if (t->wbt_granted) {
		t->wbt_granted = 0;
	} else if (!w->wait.head && w->inflight < get_limit(s)) {
		w->inflight++;
	} else {
		s->res->wbt_waits++;
		waitq_add(&w->wait, t);
		return 0;
	}
	b->wbt_tracked = 1;
	if (!w->timer_active)
		arm_timer(s);
	return 1;
}

void wbt_read_issue(struct sim *s)
{
	if (s->wbt.enabled)
		s->wbt.last_issue = s->now;
}

/* wbt_rqw_done(): one fewer in flight; wake sleepers once there is room enough */
static void inflight_done(struct sim *s)
{
	struct wbt *w = &s->wbt;
	unsigned limit = w->wb_normal;

	w->inflight--;
	if (w->inflight && w->inflight >= limit)
		return;
	if (w->wait.head) {
		int diff = (int)limit - (int)w->inflight;

		if (!w->inflight || diff >= (int)w->wb_background / 2)
			wake_all(s);
	}
}

/* A bio holding a slot, or whose thread was handed one, merged after all (wbt_cleanup). */
void wbt_bio_merged(struct sim *s, struct sbio *b)
{
	if (b->t->wbt_granted) {
		b->t->wbt_granted = 0;
		inflight_done(s);
	}
	if (b->wbt_tracked) {
		b->wbt_tracked = 0;
		inflight_done(s);
	}
}

void wbt_rq_issue(struct sim *s, const struct srq *r)
{
	struct wbt *w = &s->wbt;

	if (w->enabled && r->rq.dir == EK_READ && !w->sync_cookie) {
		w->sync_cookie = r;
		w->sync_issue = s->now;
	}
}

void wbt_rq_requeue(struct sim *s, const struct srq *r)
{
	if (s->wbt.sync_cookie == r) {
		s->wbt.sync_issue = 0;
		s->wbt.sync_cookie = NULL;
	}
}

/* blk_stat_add(): device time of a completed request, while a window is open */
void wbt_rq_complete(struct sim *s, const struct srq *r)
{
	struct wbt *w = &s->wbt;
	uint64_t lat = s->now - r->issue_ns;

	if (!w->enabled || !w->timer_active)
		return;
	if (r->rq.dir == EK_READ) {
		w->rd_n++;
		if (lat < w->rd_min)
			w->rd_min = lat;
	} else {
		w->wr_n++;
	}
}

void wbt_rq_done(struct sim *s, struct srq *r)
{
	struct wbt *w = &s->wbt;

	if (!w->enabled)
		return;
	if (!r->wbt_tracked) {
		wbt_rq_requeue(s, r);	/* clears the sync cookie if it is r */
		if (r->rq.dir == EK_READ && r->state == RQ_DISPATCHED)
			w->last_comp = s->now;
		return;
	}
	r->wbt_tracked = 0;
	inflight_done(s);
}

/* latency_exceeded(), its two ways of exceeding told apart (WBT_WIN_*) */
static int latency_exceeded(struct sim *s)
{
	struct wbt *w = &s->wbt;
	uint64_t thislat = w->sync_cookie ? s->now - w->sync_issue : 0;

	if (thislat > w->cur_win_ns || (thislat > w->min_lat_ns && !w->rd_n))
		return WBT_WIN_EXCEEDED_ISSUE;
	if (!(w->rd_n >= 1 && w->wr_n >= RWB_MIN_WRITE_SAMPLES)) {
		if (w->wr_n || recent_wait(s) || w->inflight)
			return WBT_WIN_UNKNOWN_WRITES;
		return WBT_WIN_UNKNOWN;
	}
	if (w->rd_min > w->min_lat_ns)
		return WBT_WIN_EXCEEDED_MIN;
	return WBT_WIN_OK;
}

/* wb_timer_fn(): the end of a window */
void wbt_timer(struct sim *s, uint64_t gen)
{
	struct wbt *w = &s->wbt;
	int end;

	if (gen != w->timer_gen || !w->timer_active)
		return;
	w->timer_active = 0;
	end = latency_exceeded(s);
	if (!s->ended)		/* not the drain after the run */
		s->res->wbt_windows[end]++;
	switch (end) {
	case WBT_WIN_EXCEEDED_ISSUE:
	case WBT_WIN_EXCEEDED_MIN:
		scale_down(s, 1);
		break;
	case WBT_WIN_OK:
	case WBT_WIN_UNKNOWN_WRITES:
		scale_up(s);
		break;
	case WBT_WIN_UNKNOWN:
		if (++w->unknown_cnt < RWB_UNKNOWN_BUMP)
			break;
		if (w->scale_step > 0)
			scale_up(s);
		else if (w->scale_step < 0)
			scale_down(s, 0);
		break;
	}
	if (w->scale_step || w->inflight)
		arm_timer(s);
}
