/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Observer for deadline checks: follows the queued requests of one direction
 * in deadline order (arrival; a merged request keeps the earlier one) and
 * logs every dispatch. For the oldest request, once it is both expired and
 * the oldest, it counts the dispatches that still went before it.
 */
#ifndef ELVKIT_FIFO_OBSERVER_H
#define ELVKIT_FIFO_OBSERVER_H

#include "simtest.h"

#define OBS_SLOTS 4096

struct obs_slot {
	const struct ek_rq *rq;
	uint64_t arrival, seq, head_since;
};

struct observer {
	uint8_t dir;
	uint64_t expire_ns;
	struct obs_slot slot[OBS_SLOTS];
	unsigned n;
	uint64_t seq;
	uint64_t *log;
	size_t nlog, caplog;
	/* results */
	uint64_t checked, max_after_expiry, max_late_ns, max_wait_ns;
	uint64_t overflow;
};

static inline int obs_head(const struct observer *o)
{
	unsigned i;
	int h = -1;

	for (i = 0; i < o->n; i++)
		if (h < 0 || o->slot[i].arrival < o->slot[h].arrival ||
		    (o->slot[i].arrival == o->slot[h].arrival && o->slot[i].seq < o->slot[h].seq))
			h = (int)i;
	return h;
}

static inline int obs_find(const struct observer *o, const struct ek_rq *rq)
{
	unsigned i;

	for (i = 0; i < o->n; i++)
		if (o->slot[i].rq == rq)
			return (int)i;
	return -1;
}

static inline void obs_remove(struct observer *o, int i, uint64_t now)
{
	int h;

	o->slot[i] = o->slot[--o->n];
	h = obs_head(o);
	if (h >= 0 && !o->slot[h].head_since)
		o->slot[h].head_since = now;
}

static inline void obs_insert(void *arg, const struct ek_rq *rq, uint64_t now)
{
	struct observer *o = arg;
	int h;

	if (rq->dir != o->dir)
		return;
	if (o->n == OBS_SLOTS) {
		o->overflow++;
		return;
	}
	o->slot[o->n++] = (struct obs_slot){ rq, rq->arrival_ns, o->seq++, 0 };
	h = obs_head(o);
	if (!o->slot[h].head_since)
		o->slot[h].head_since = now;
}

static inline void obs_merged_away(void *arg, const struct ek_rq *gone,
				   const struct ek_rq *into, uint64_t now)
{
	struct observer *o = arg;
	int g = obs_find(o, gone), i = obs_find(o, into);
	uint64_t arr;

	if (gone->dir != o->dir || g < 0)
		return;
	arr = o->slot[g].arrival;
	if (i >= 0 && arr < o->slot[i].arrival)
		o->slot[i].arrival = arr;
	obs_remove(o, g, now);
}

static inline void obs_dispatch(void *arg, const struct ek_rq *rq, uint64_t now)
{
	struct observer *o = arg;
	int i, h;

	if (o->nlog == o->caplog) {
		o->caplog = o->caplog ? 2 * o->caplog : 65536;
		o->log = realloc(o->log, o->caplog * sizeof(*o->log));
		if (!o->log)
			abort();
	}
	if (rq->dir == o->dir && (i = obs_find(o, rq)) >= 0) {
		h = obs_head(o);
		if (now - o->slot[i].arrival > o->max_wait_ns)
			o->max_wait_ns = now - o->slot[i].arrival;
		if (h == i) {
			uint64_t e = o->slot[i].arrival + o->expire_ns;
			size_t lo = 0, hi = o->nlog;

			if (o->slot[i].head_since > e)
				e = o->slot[i].head_since;
			if (now > e) {
				/* dispatches at or after e, before this one */
				while (lo < hi) {
					size_t mid = (lo + hi) / 2;

					if (o->log[mid] < e)
						lo = mid + 1;
					else
						hi = mid;
				}
				if (o->nlog - lo > o->max_after_expiry)
					o->max_after_expiry = o->nlog - lo;
				if (now - e > o->max_late_ns)
					o->max_late_ns = now - e;
			}
			o->checked++;
		}
		obs_remove(o, i, now);
	}
	o->log[o->nlog++] = now;
}

static inline void obs_attach(struct observer *o, struct sim_config *c, uint8_t dir,
			      uint64_t expire_ns)
{
	memset(o, 0, sizeof(*o));
	o->dir = dir;
	o->expire_ns = expire_ns;
	c->hooks.arg = o;
	c->hooks.on_insert = obs_insert;
	c->hooks.on_dispatch = obs_dispatch;
	c->hooks.on_merged_away = obs_merged_away;
}

static inline void obs_free(struct observer *o)
{
	free(o->log);
	o->log = NULL;
}

#endif
