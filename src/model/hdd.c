// SPDX-License-Identifier: GPL-2.0
/*
 * hdd: a rotating disk. The named drives (default values from datasheets)
 * are in hdd_profiles.c; the write cache's bookkeeping in hdd_wcache.c.
 *
 * Geometry: `zones` zones of equal cylinder count; the transfer rate falls
 * linearly from outer_mbs (zone 0, LBA 0) to inner_mbs (last zone), so a
 * track of zone z holds rate_z * rotation-period bytes. One surface per
 * cylinder. Head and cylinder switches are hidden by track skew: a transfer
 * that continues where the last one ended pays no seek.
 *
 * Seek: seek(d) = t2t + A*sqrt(d/D) + B*(d/D) for a distance of d of D
 * cylinders, with A and B solved so that seek(D) = full stroke and the mean
 * over uniformly random start and end points (E[sqrt x] = 8/15, E[x] = 1/3)
 * is avg_seek. B may be negative (short seeks relatively slow, as on small
 * laptop actuators) as long as the curve still rises everywhere (B >= -A/2):
 * so avg_seek - t2t must lie between 1/3 and 11/15 of full_seek - t2t, or
 * the model refuses the parameters. Rotation: the platter angle is (time mod
 * period); a sector's angle is its offset in its track. A media access pays
 * command overhead (overlapped with earlier work when the command was
 * queued, as NCQ drives do), seek, rotational wait until its first sector
 * passes under the head, and the media transfer.
 *
 * Read-ahead cache (cache=1), in `segments` segments, each remembering one
 * read stream: after a read miss the disk keeps reading the following
 * sectors into a segment (the least recently used one) at media rate, up to
 * ra_kb beyond the last request, until the head is needed elsewhere; the
 * segment keeps what it has read. A stream that reached its window's end
 * stops there; a hit that moves the end on resumes it when the next sector
 * comes round under the head (the platter turned on meanwhile, unread). A
 * read that falls in a segment's range and not more than
 * cache_kb/segments behind its fill point is a hit: hit_us
 * plus interface transfer at bus_mbs, or the time the prefetch reaches its
 * last sector if later. A read that starts inside the window and runs past
 * it while the prefetch is still streaming is served by the stream too.
 *
 * Write cache (wce=1, the default as shipped): a write completes once its
 * data is in the cache, after write_us plus the interface transfer, while
 * the dirty data fits in cache_kb. The disk destages dirty data when the
 * head has nothing else to do (after the read-ahead of the last read has
 * finished), and when a write waits for room, until a sixteenth of the
 * cache (at least 1 MiB) is free again; then destage runs alternate with
 * queued requests, so reads slow down behind a full cache but go on. It destages the
 * dirty extent it can reach first, in runs of up to HDD_DESTAGE_SECTORS; a
 * run that continues the previous one finds its sector under the head, so a
 * streaming writer's data goes to the platter at media rate. FUA writes,
 * writes bigger than the cache, and every write with wce=0, go to the media
 * before completing; a flush completes when nothing dirty is left. Reads of
 * dirty sectors are served from the media (contents are not modelled).
 *
 * Queue: qd=1 serves in arrival order. qd>1 is NCQ: the disk picks the
 * queued request that it can finish first from the current head position
 * and angle, except that a request older than ncq_age_ms goes first.
 */
#include "hdd.h"

struct hdd_plan {
	ek_u64 done;
	int hit;	/* segment index, or -1 */
};

int ek_hdd_init(void *m, const ek_s64 *v)
{
	struct hdd *d = m;
	ek_u64 want = (ek_u64)v[HDD_P_CAP] * 1000000000ULL / 512, sum = 0, tracks;
	ek_u64 outer = (ek_u64)v[HDD_P_OUTER] * 1000000, inner = (ek_u64)v[HDD_P_INNER] * 1000000;
	ek_s64 full, var, a;
	ek_u32 z;

	if (inner > outer)
		return -22;
	d->period = 60000000000ULL / (ek_u64)v[HDD_P_RPM];
	d->nzones = (ek_u32)v[HDD_P_ZONES];
	for (z = 0; z < d->nzones; z++) {
		ek_u64 rate = outer;

		if (d->nzones > 1)
			rate = outer - (outer - inner) * z / (d->nzones - 1);
		d->zone[z].spt = ek_muldiv(rate, d->period, 1000000000ULL) / 512;
		if (!d->zone[z].spt)
			d->zone[z].spt = 1;
		sum += d->zone[z].spt;
	}
	tracks = (want + sum - 1) / sum;	/* tracks per zone */
	d->cap = 0;
	for (z = 0; z < d->nzones; z++) {
		d->zone[z].start = d->cap;
		d->zone[z].start_cyl = (ek_u64)z * tracks;
		d->cap += tracks * d->zone[z].spt;
		d->zone[z].end = d->cap;
	}
	d->ncyl = tracks * d->nzones;

	/* seek(d) = t2t + A sqrt(x) + B x, x = d / ncyl */
	d->t2t = (ek_u64)v[HDD_P_T2T] * 1000;
	full = (v[HDD_P_FULL] - v[HDD_P_T2T]) * 1000;
	var = (v[HDD_P_AVG] - v[HDD_P_T2T]) * 1000;
	if (full < 0)
		full = 0;
	/*
	 * A + B = full, 8A/15 + B/3 = avg: A = 5 avg - 5 full / 3. A >= 0 and
	 * a rising curve (B >= -A/2, i.e. A <= 2 full) bound what is accepted.
	 */
	a = 5 * var - 5 * full / 3;
	if (var < 0 || a < 0 || a > 2 * full)
		return -22;
	d->coef_a = (ek_u64)a;
	d->coef_b = full - a;

	d->overhead = (ek_u64)v[HDD_P_OVH] * 1000;
	d->hit_ns = (ek_u64)v[HDD_P_HIT] * 1000;
	d->wovh_ns = (ek_u64)v[HDD_P_WOVH] * 1000;
	d->bus_bps = (ek_u64)v[HDD_P_BUS] * 1000000;
	d->cache = (int)v[HDD_P_CACHE];
	d->ra_sectors = (ek_u64)v[HDD_P_RA] * 2;
	d->nsegs = (ek_u32)v[HDD_P_SEGS];
	d->seg_sectors = (ek_u64)v[HDD_P_CACHE_KB] * 2 / d->nsegs;
	d->wce = (int)v[HDD_P_WCE];
	d->wc_sectors = (ek_u64)v[HDD_P_CACHE_KB] * 2;
	d->active = -1;
	d->qd = (ek_u32)v[HDD_P_QD];
	d->age_ns = (ek_u64)v[HDD_P_AGE] * 1000000;
	d->op = HDD_IDLE;
	ek_list_init(&d->queue);
	ek_list_init(&d->wait);
	ek_list_init(&d->flushq);
	ek_list_init(&d->done);
	return 0;
}

static const struct hdd_zone *hdd_zone_of(const struct hdd *d, ek_u64 s)
{
	ek_u32 lo = 0, hi = d->nzones - 1;

	if (s >= d->cap)
		s = d->cap - 1;
	while (lo < hi) {
		ek_u32 mid = (lo + hi + 1) / 2;

		if (d->zone[mid].start <= s)
			lo = mid;
		else
			hi = mid - 1;
	}
	return &d->zone[lo];
}

static ek_u64 hdd_cyl(const struct hdd *d, ek_u64 s)
{
	const struct hdd_zone *z = hdd_zone_of(d, s);

	if (s >= d->cap)
		s = d->cap - 1;
	return z->start_cyl + (s - z->start) / z->spt;
}

static ek_u64 hdd_seek_ns(const struct hdd *d, ek_u64 from, ek_u64 to)
{
	ek_u64 dist = from > to ? from - to : to - from;
	ek_u64 sq, lin, t;

	if (!dist)
		return 0;
	sq = ek_isqrt(ek_muldiv(dist, 1ULL << 40, d->ncyl));	/* sqrt(x) << 20 */
	t = d->t2t + ((d->coef_a * sq) >> 20);
	if (d->coef_b >= 0)
		return t + ek_muldiv((ek_u64)d->coef_b, dist, d->ncyl);
	lin = ek_muldiv((ek_u64)-d->coef_b, dist, d->ncyl);
	return t > lin ? t - lin : 0;
}

/* sector the prefetch of segment g has reached at time t */
static ek_u64 hdd_seg_fill(const struct hdd *d, const struct hdd_seg *g, ek_u64 t)
{
	ek_u64 f;

	if (t > g->stop)
		t = g->stop;
	if (t <= g->t0)
		return g->base;
	f = g->base + ek_muldiv(t - g->t0, g->spt, d->period);
	return ek_min_u64(f, g->limit);
}

/* When the streaming segment will have read up to its limit. */
static ek_u64 hdd_prefetch_end(const struct hdd *d)
{
	const struct hdd_seg *g = &d->seg[d->active];

	return g->t0 + ek_muldiv(g->limit - g->base, d->period, g->spt);
}

/* The segment that serves read r at time t, or -1. */
static int hdd_find_hit(const struct hdd *d, const struct ek_mrq *r, ek_u64 t)
{
	ek_u64 end = r->sector + r->nr_sectors;
	ek_u32 i;

	if (!d->cache || r->dir != 0)
		return -1;
	for (i = 0; i < d->nsegs; i++) {
		const struct hdd_seg *g = &d->seg[i];
		ek_u64 fill;

		if (!g->valid || r->sector < g->start || r->sector > g->limit)
			continue;
		fill = hdd_seg_fill(d, g, t);
		if (end > g->limit) {
			/* beyond the window: only while still streaming */
			if ((int)i == d->active && fill < g->limit &&
			    end <= hdd_zone_of(d, g->start)->end)
				return (int)i;
			continue;
		}
		if (fill < d->seg_sectors || r->sector >= fill - d->seg_sectors)
			return (int)i;
	}
	return -1;
}

/* The cylinder under the head at t (a running prefetch moves it). */
static ek_u64 hdd_head(const struct hdd *d, ek_u64 t)
{
	if (d->active >= 0)
		return hdd_cyl(d, hdd_seg_fill(d, &d->seg[d->active], t));
	return d->cur_cyl;
}

/* A media transfer of [sector, +nr) that may start positioning at t. */
static ek_u64 hdd_access(const struct hdd *d, ek_u64 head, ek_u64 sector, ek_u64 nr, ek_u64 t)
{
	const struct hdd_zone *z = hdd_zone_of(d, sector);
	ek_u64 t1 = t + hdd_seek_ns(d, head, hdd_cyl(d, sector));
	ek_u64 off = (sector < d->cap ? sector : d->cap - 1) - z->start;
	ek_u64 ang = (off % z->spt) * d->period / z->spt;
	ek_u64 rot = (ang + d->period - t1 % d->period) % d->period;

	return t1 + rot + ek_muldiv(nr, d->period, z->spt);
}

static struct hdd_plan hdd_plan(const struct hdd *d, const struct ek_mrq *r, ek_u64 t0)
{
	struct hdd_plan p;

	p.hit = hdd_find_hit(d, r, t0);
	if (p.hit >= 0) {
		const struct hdd_seg *g = &d->seg[p.hit];
		ek_u64 end = r->sector + r->nr_sectors;
		ek_u64 ready = end <= g->base ? 0 :
			       g->t0 + ek_muldiv(end - g->base, d->period, g->spt);
		ek_u64 bus = ek_muldiv((ek_u64)r->nr_sectors * 512, 1000000000ULL, d->bus_bps);

		p.done = ek_max_u64(t0 + d->hit_ns + bus, ready);
		return p;
	}
	/* a queued command was decoded while the head was busy */
	p.done = hdd_access(d, hdd_head(d, t0), r->sector, r->nr_sectors,
			    ek_max_u64(t0, r->submit_ns + d->overhead));
	return p;
}

/* The head leaves: the streaming segment keeps what it has read. */
static void hdd_stop_prefetch(struct hdd *d, ek_u64 t)
{
	if (d->active >= 0) {
		struct hdd_seg *g = &d->seg[d->active];

		g->limit = hdd_seg_fill(d, g, t);
		g->stop = t;
		d->active = -1;
	}
}

/* Written sectors are no longer what a read-ahead segment holds. */
static void hdd_seg_invalidate(struct hdd *d, ek_u64 start, ek_u64 end)
{
	ek_u32 i;

	for (i = 0; i < d->nsegs; i++)
		if (d->seg[i].valid && start < d->seg[i].limit && end > d->seg[i].start)
			d->seg[i].valid = 0;
}

/* The head ends a media transfer at the sector after `end - 1`. */
static void hdd_head_to(struct hdd *d, ek_u64 end)
{
	d->cur_cyl = hdd_cyl(d, end < d->cap ? end : d->cap - 1);
}

/* Start host request r (already off the queue) on the mechanism at t0. */
static void hdd_start_host(struct hdd *d, struct ek_mrq *r, struct hdd_plan p, ek_u64 t0)
{
	ek_u64 end = r->sector + r->nr_sectors;
	ek_u32 i;

	r->start_ns = t0;
	r->done_ns = p.done;
	ek_mrq_insert_sorted(&d->done, r);
	d->op = HDD_HOST;
	d->mech_end = p.done;

	if (p.hit >= 0) {
		struct hdd_seg *g = &d->seg[p.hit];

		g->lru = ++d->lru_clock;
		if (p.hit == d->active) {
			const struct hdd_zone *z = hdd_zone_of(d, g->start);
			ek_u64 limit = ek_min_u64(ek_max_u64(g->limit, end + d->ra_sectors), z->end);

			if (limit > g->limit && hdd_prefetch_end(d) < t0) {
				g->base = g->limit;
				g->t0 = hdd_access(d, hdd_cyl(d, g->base), g->base, 0, t0);
			}
			g->limit = limit;
		}
		return;
	}
	hdd_stop_prefetch(d, t0);
	hdd_head_to(d, end);
	if (r->dir == 0 && d->cache) {
		const struct hdd_zone *z = hdd_zone_of(d, r->sector);
		struct hdd_seg *g = &d->seg[0];

		for (i = 0; i < d->nsegs; i++) {	/* an empty or the LRU segment */
			if (!d->seg[i].valid) {
				g = &d->seg[i];
				break;
			}
			if (d->seg[i].lru < g->lru)
				g = &d->seg[i];
		}
		g->valid = 1;
		g->start = r->sector;
		g->base = r->sector;
		g->spt = z->spt;
		g->t0 = p.done - ek_muldiv(r->nr_sectors, d->period, z->spt);
		g->limit = ek_max_u64(ek_min_u64(end + d->ra_sectors, z->end), end);
		g->stop = EK_U64_MAX;
		g->lru = ++d->lru_clock;
		d->active = (int)(g - d->seg);
	} else if (r->dir != 0) {
		hdd_seg_invalidate(d, r->sector, end);
	}
}

/* Pick the next queued media request (FIFO, or NCQ) and start it. */
static void hdd_start_queued(struct hdd *d, ek_u64 t0)
{
	struct ek_mrq *r = ek_list_first(&d->queue, struct ek_mrq, link);
	struct hdd_plan best = hdd_plan(d, r, t0);

	if (d->queued > 1 && t0 - r->submit_ns < d->age_ns) {
		/* NCQ: shortest time to completion first */
		struct ek_list *pos;

		for (pos = r->link.next; pos != &d->queue; pos = pos->next) {
			struct ek_mrq *c = ek_list_entry(pos, struct ek_mrq, link);
			struct hdd_plan cp = hdd_plan(d, c, t0);

			if (cp.done < best.done) {
				best = cp;
				r = c;
			}
		}
	}
	ek_list_del(&r->link);
	d->queued--;
	hdd_start_host(d, r, best, t0);
}

/* Write back the dirty run the head reaches first (rotational ordering). */
static void hdd_start_destage(struct hdd *d, ek_u64 t0)
{
	ek_u64 head = hdd_head(d, t0), best = EK_U64_MAX, s = 0, n = 0;
	ek_u32 i;

	for (i = 0; i < d->ndirty; i++) {
		const struct hdd_ext *x = &d->dirty[i];
		ek_u64 len = ek_min_u64(ek_min_u64(x->len, HDD_DESTAGE_SECTORS),
					hdd_zone_of(d, x->start)->end - x->start);
		ek_u64 at = hdd_access(d, head, x->start, 0, t0);

		if (at < best) {
			best = at;
			s = x->start;
			n = len;
		}
	}
	hdd_stop_prefetch(d, t0);
	d->op = HDD_DESTAGE;
	d->op_sector = s;
	d->op_len = n;
	d->mech_end = hdd_access(d, head, s, n, t0);
	hdd_head_to(d, s + n);
	hdd_seg_invalidate(d, s, s + n);
}

static void hdd_accept_write(struct hdd *d, struct ek_mrq *r, ek_u64 t)
{
	ek_u64 start = ek_max_u64(t, d->bus_free);

	r->start_ns = t;
	r->done_ns = start + d->wovh_ns +
		     ek_muldiv((ek_u64)r->nr_sectors * 512, 1000000000ULL, d->bus_bps);
	d->bus_free = r->done_ns;
	hdd_wc_add(d, r->sector, r->nr_sectors);
	hdd_seg_invalidate(d, r->sector, r->sector + r->nr_sectors);
	ek_mrq_insert_sorted(&d->done, r);
}

/* Room may have been made: take waiting writes, finish flushes. */
static void hdd_accept(struct hdd *d, ek_u64 t)
{
	ek_u64 slack = ek_max_u64(d->wc_sectors / 16, 2048);
	struct ek_mrq *r;

	while ((r = ek_list_first(&d->wait, struct ek_mrq, link)) &&
	       hdd_wc_fits(d, r->nr_sectors)) {
		ek_list_del(&r->link);
		hdd_accept_write(d, r, t);
	}
	if (!ek_list_empty(&d->wait))
		d->pressure = 1;
	else if (d->dirty_sectors + slack <= d->wc_sectors)
		d->pressure = 0;
	while (!d->ndirty && (r = ek_list_first(&d->flushq, struct ek_mrq, link))) {
		ek_list_del(&r->link);
		r->start_ns = t;
		r->done_ns = t + d->hit_ns;
		ek_mrq_insert_sorted(&d->done, r);
	}
}

/* The mechanism is free at t: start what comes next. 0 if it stays idle. */
static int hdd_start_next(struct hdd *d, ek_u64 t)
{
	/*
	 * Making room alternates with queued requests, one run each: a full
	 * cache slows a drive's reads down but does not stop them.
	 */
	if (d->ndirty && (d->pressure || !ek_list_empty(&d->flushq)) &&
	    (!d->queued || !d->destaged)) {
		hdd_start_destage(d, t);
		d->destaged = 1;
		return 1;
	}
	if (d->queued) {
		hdd_start_queued(d, t);
		d->destaged = 0;
		return 1;
	}
	if (!d->ndirty)
		return 0;
	/* idle: let the last read's prefetch finish before writing back */
	if (d->active >= 0 && hdd_prefetch_end(d) > t &&
	    d->seg[d->active].stop == EK_U64_MAX) {
		d->op = HDD_PREFETCH_WAIT;
		d->mech_end = hdd_prefetch_end(d);
		return 1;
	}
	hdd_start_destage(d, t);
	return 1;
}

/* Play the mechanism forward to t. */
static void hdd_run(struct hdd *d, ek_u64 t)
{
	for (;;) {
		ek_u64 at = t;

		if (d->op != HDD_IDLE) {
			if (d->mech_end > t)
				return;
			at = d->mech_end;
			if (d->op == HDD_DESTAGE)
				hdd_wc_clean(d, d->op_sector, d->op_len);
			d->op = HDD_IDLE;
		}
		hdd_accept(d, at);
		if (!hdd_start_next(d, at))
			return;
	}
}

ek_u32 ek_hdd_qd(void *m) { return ((struct hdd *)m)->qd; }
int ek_hdd_rot(void *m) { (void)m; return 1; }
ek_u64 ek_hdd_capacity(void *m) { return ((struct hdd *)m)->cap; }

void ek_hdd_submit(void *m, struct ek_mrq *r, ek_u64 now)
{
	struct hdd *d = m;

	r->submit_ns = now;
	hdd_run(d, now);
	if (d->op == HDD_PREFETCH_WAIT)
		d->op = HDD_IDLE;	/* only idle time was waited for */
	if (r->flags & EK_MRQ_FLUSH) {
		ek_list_add_tail(&r->link, &d->flushq);
	} else if (r->dir != 0 && d->wce && !(r->flags & EK_MRQ_FUA) &&
		   r->nr_sectors <= d->wc_sectors) {
		if (ek_list_empty(&d->wait) && hdd_wc_fits(d, r->nr_sectors))
			hdd_accept_write(d, r, now);
		else
			ek_list_add_tail(&r->link, &d->wait);
	} else {
		ek_list_add_tail(&r->link, &d->queue);
		d->queued++;
	}
	hdd_run(d, now);
}

ek_u64 ek_hdd_next(void *m)
{
	struct hdd *d = m;
	struct ek_mrq *r = ek_list_first(&d->done, struct ek_mrq, link);
	ek_u64 t = r ? r->done_ns : EK_U64_MAX;

	/* internal work (destage) also needs the host to come back */
	if (d->op != HDD_IDLE && d->mech_end < t)
		t = d->mech_end;
	return t;
}

struct ek_mrq *ek_hdd_complete(void *m, ek_u64 now)
{
	struct hdd *d = m;
	struct ek_mrq *r;

	hdd_run(d, now);
	r = ek_list_first(&d->done, struct ek_mrq, link);
	if (!r || r->done_ns > now)
		return EK_NULL;
	ek_list_del(&r->link);
	return r;
}
