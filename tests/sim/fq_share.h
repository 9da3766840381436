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

#endif
