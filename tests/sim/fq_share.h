/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-thread service for fair-queue's simulator tests: bytes completed
 * per foreground thread (owner = thread id + 1) until the run is cut at
 * its time limit, so that nobody has finished yet and shares are shares
 * of a busy disk; Jain's fairness index over them.
 */
#ifndef ELVKIT_FQ_SHARE_H
#define ELVKIT_FQ_SHARE_H

#include "simtest.h"

#define FS_MAX 512

struct fs_share {
	uint64_t until;			/* count completions before this */
	double bytes[FS_MAX];		/* by thread id */
	uint64_t max_wait[FS_MAX];	/* insert to dispatch */
};

static void fs_on_complete(void *arg, const struct ek_rq *rq, uint64_t now)
{
	struct fs_share *s = arg;

	if (now <= s->until && rq->owner && rq->owner <= FS_MAX)
		s->bytes[rq->owner - 1] += (double)rq->nr_sectors * 512;
}

static void fs_on_dispatch(void *arg, const struct ek_rq *rq, uint64_t now)
{
	struct fs_share *s = arg;

	if (rq->owner && rq->owner <= FS_MAX &&
	    now - rq->arrival_ns > s->max_wait[rq->owner - 1])
		s->max_wait[rq->owner - 1] = now - rq->arrival_ns;
}

/* Run c for secs of simulated time with s counting. */
static inline void fs_run(struct sim_config *c, struct fs_share *s, double secs,
			  struct sim_result *r)
{
	memset(s, 0, sizeof(*s));
	s->until = (uint64_t)(secs * 1e9);
	c->time_limit_ns = s->until;
	c->hooks.arg = s;
	c->hooks.on_complete = fs_on_complete;
	c->hooks.on_dispatch = fs_on_dispatch;
	st_run(c, r);
}

static inline double fs_jain(const struct fs_share *s, unsigned n)
{
	double sum = 0, sq = 0;
	unsigned i;

	for (i = 0; i < n; i++) {
		sum += s->bytes[i];
		sq += s->bytes[i] * s->bytes[i];
	}
	return sq > 0 ? sum * sum / (n * sq) : 1;
}

static inline double fs_sum(const struct fs_share *s, unsigned from, unsigned to)
{
	double sum = 0;
	unsigned i;

	for (i = from; i < to; i++)
		sum += s->bytes[i];
	return sum;
}

/*
 * README's bound for a synchronous request among n busy queues of equal
 * weight: every other queue has at most one slot first, a slot being its
 * share of target_latency_ms (at least 10 ms) plus an idle wait and one
 * request of service (30 ms covers a full-stroke seek, a turn and 512 KiB
 * on the slowest profile).
 */
static inline uint64_t fs_round_bound_ns(const struct sim_config *c, unsigned n)
{
	const uint64_t ms = 1000000ULL;
	uint64_t slot = (uint64_t)st_param(c, "target_latency_ms") * ms / n;

	if (slot < 10 * ms)
		slot = 10 * ms;
	if (slot > (uint64_t)st_param(c, "slice_max_ms") * ms)
		slot = (uint64_t)st_param(c, "slice_max_ms") * ms;
	return n * (slot + (uint64_t)st_param(c, "slice_idle_us") * 1000 +
		    30 * ms);
}

#endif
