// SPDX-License-Identifier: GPL-2.0
/*
 * hdd: a rotating disk.
 *
 * Geometry: `zones` zones of equal cylinder count; the transfer rate falls
 * linearly from outer_mbs (zone 0, LBA 0) to inner_mbs (last zone), so a
 * track of zone z holds rate_z * rotation-period bytes. One surface per
 * cylinder (head switches are hidden by track skew and not charged).
 *
 * Seek: seek(d) = t2t + A*sqrt(d/D) + B*(d/D) for a distance of d of D
 * cylinders, with A and B solved so that seek(D) = full stroke and the mean
 * over uniformly random start and end points (E[sqrt x] = 8/15, E[x] = 1/3)
 * is avg_seek (so avg_seek - t2t must lie between 1/3 and 8/15 of
 * full_seek - t2t, or the model refuses the parameters). Rotation: the platter angle is (time mod period); a sector's
 * angle is its offset in its track. A request pays command overhead, seek,
 * rotational wait until its first sector passes under the head, and the
 * media transfer.
 *
 * Read-ahead cache (cache=1), in `segments` segments, each remembering one
 * read stream: after a read miss the disk keeps reading the following
 * sectors into a segment (the least recently used one) at media rate, up to
 * ra_kb beyond the last request, until the head is needed elsewhere; the
 * segment keeps what it has read. A read that falls in a segment's range and
 * not more than cache_kb/segments behind its fill point is a hit: overhead plus interface transfer at bus_mbs,
 * or the time the prefetch reaches its last sector if later. A read that
 * starts inside the window and runs past it while the prefetch is still
 * streaming is served by the stream too. Writes go to the media (write
 * cache off) and stop the prefetch.
 *
 * Queue: qd=1 serves in arrival order. qd>1 is NCQ: the disk picks the
 * queued request that it can finish first from the current head position
 * and angle, except that a request older than ncq_age_ms goes first.
 */
#include "model.h"

enum { P_CAP, P_RPM, P_T2T, P_AVG, P_FULL, P_OUTER, P_INNER, P_ZONES,
	P_OVH, P_BUS, P_CACHE, P_RA, P_CACHE_KB, P_SEGS, P_QD, P_AGE, P_NR };

#define HDD_MAX_ZONES 64
#define HDD_MAX_SEGS 64

static const struct ek_model_param hdd_params[P_NR] = {
	[P_CAP] = { "capacity_gb", "GB", "capacity", 1000, 1, 100000 },
	[P_RPM] = { "rpm", "rpm", "spindle speed", 7200, 1000, 30000 },
	[P_T2T] = { "t2t_us", "us", "track-to-track seek", 1000, 0, 100000 },
	[P_AVG] = { "avg_seek_us", "us", "average seek (random to random)", 8500, 0, 1000000 },
	[P_FULL] = { "full_seek_us", "us", "full-stroke seek", 16000, 0, 1000000 },
	[P_OUTER] = { "outer_mbs", "MB/s", "media rate, outer zone (LBA 0)", 150, 1, 10000 },
	[P_INNER] = { "inner_mbs", "MB/s", "media rate, inner zone", 75, 1, 10000 },
	[P_ZONES] = { "zones", "count", "recording zones", 16, 1, HDD_MAX_ZONES },
	[P_OVH] = { "overhead_us", "us", "command overhead per request", 30, 0, 100000 },
	[P_BUS] = { "bus_mbs", "MB/s", "interface rate (cache hits)", 300, 1, 100000 },
	[P_CACHE] = { "cache", "bool", "on-disk read-ahead cache", 1, 0, 1 },
	[P_RA] = { "ra_kb", "KB", "read-ahead beyond the last read", 512, 0, 1048576 },
	[P_CACHE_KB] = { "cache_kb", "KB", "cache size, shared by the segments", 8192, 0, 1048576 },
	[P_SEGS] = { "segments", "count", "cache segments (read streams remembered)", 16, 1, HDD_MAX_SEGS },
	[P_QD] = { "qd", "requests", "queue depth; >1 enables NCQ reordering", 1, 1, 256 },
	[P_AGE] = { "ncq_age_ms", "ms", "NCQ: a request this old is served next", 500, 1, 100000 },
};

struct hdd_zone {
	ek_u64 start, end;	/* sectors */
	ek_u64 start_cyl;
	ek_u64 spt;		/* sectors per track */
};

struct hdd_plan {
	ek_u64 done;
	int hit;	/* segment index, or -1 */
};

/* A read-ahead cache segment: sectors [start, fill(t)) are cached. */
struct hdd_seg {
	int valid;
	ek_u64 start, t0, limit, stop, spt, lru;
};

struct hdd {
	ek_u64 period;			/* ns per revolution */
	ek_u64 t2t, coef_a, coef_b;	/* ns */
	ek_u64 overhead, bus_bps;
	ek_u64 ra_sectors, seg_sectors;
	int cache;
	ek_u32 nsegs;
	ek_u32 qd, nzones;
	ek_u64 age_ns;
	ek_u64 ncyl, cap;
	struct hdd_zone zone[HDD_MAX_ZONES];

	ek_u64 cur_cyl;
	struct ek_list queue;		/* submitted, not started */
	ek_u32 queued;
	struct ek_mrq *cur;

	struct hdd_seg seg[HDD_MAX_SEGS];
	int active;		/* segment being prefetched into, or -1 */
	ek_u64 lru_clock;
};

static int hdd_init(void *m, const ek_s64 *v)
{
	struct hdd *d = m;
	ek_u64 want = (ek_u64)v[P_CAP] * 1000000000ULL / 512, sum = 0, tracks;
	ek_u64 outer = (ek_u64)v[P_OUTER] * 1000000, inner = (ek_u64)v[P_INNER] * 1000000;
	ek_s64 full, var, a, b;
	ek_u32 z;

	if (inner > outer)
		return -22;
	d->period = 60000000000ULL / (ek_u64)v[P_RPM];
	d->nzones = (ek_u32)v[P_ZONES];
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
	d->t2t = (ek_u64)v[P_T2T] * 1000;
	full = (v[P_FULL] - v[P_T2T]) * 1000;
	var = (v[P_AVG] - v[P_T2T]) * 1000;
	if (full < 0)
		full = 0;
	/*
	 * A + B = full, 8A/15 + B/3 = avg: solvable with A, B >= 0 only for
	 * full/3 <= avg - t2t <= 8 full/15. Anything else is refused.
	 */
	a = 5 * var - 5 * full / 3;
	if (var < 0 || a < 0 || a > full)
		return -22;
	b = full - a;
	d->coef_a = (ek_u64)a;
	d->coef_b = (ek_u64)b;

	d->overhead = (ek_u64)v[P_OVH] * 1000;
	d->bus_bps = (ek_u64)v[P_BUS] * 1000000;
	d->cache = (int)v[P_CACHE];
	d->ra_sectors = (ek_u64)v[P_RA] * 2;
	d->nsegs = (ek_u32)v[P_SEGS];
	d->seg_sectors = (ek_u64)v[P_CACHE_KB] * 2 / d->nsegs;
	d->active = -1;
	d->qd = (ek_u32)v[P_QD];
	d->age_ns = (ek_u64)v[P_AGE] * 1000000;
	ek_list_init(&d->queue);
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
	ek_u64 sq;

	if (!dist)
		return 0;
	sq = ek_isqrt(ek_muldiv(dist, 1ULL << 40, d->ncyl));	/* sqrt(x) << 20 */
	return d->t2t + ((d->coef_a * sq) >> 20) + ek_muldiv(d->coef_b, dist, d->ncyl);
}

/* sector the prefetch of segment g has reached at time t */
static ek_u64 hdd_seg_fill(const struct hdd *d, const struct hdd_seg *g, ek_u64 t)
{
	ek_u64 f;

	if (t > g->stop)
		t = g->stop;
	if (t <= g->t0)
		return g->start;
	f = g->start + ek_muldiv(t - g->t0, g->spt, d->period);
	return ek_min_u64(f, g->limit);
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

static struct hdd_plan hdd_plan(const struct hdd *d, const struct ek_mrq *r, ek_u64 t0)
{
	struct hdd_plan p;
	const struct hdd_zone *z = hdd_zone_of(d, r->sector);
	ek_u64 head, t1, ang, rot, off;

	p.hit = hdd_find_hit(d, r, t0);
	if (p.hit >= 0) {
		const struct hdd_seg *g = &d->seg[p.hit];
		ek_u64 ready = g->t0 + ek_muldiv(r->sector + r->nr_sectors - g->start,
						 d->period, g->spt);
		ek_u64 bus = ek_muldiv((ek_u64)r->nr_sectors * 512, 1000000000ULL, d->bus_bps);

		p.done = ek_max_u64(t0 + d->overhead + bus, ready);
		return p;
	}
	head = d->cur_cyl;
	if (d->active >= 0)
		head = hdd_cyl(d, hdd_seg_fill(d, &d->seg[d->active], t0));
	t1 = t0 + d->overhead + hdd_seek_ns(d, head, hdd_cyl(d, r->sector));
	off = (r->sector < d->cap ? r->sector : d->cap - 1) - z->start;
	ang = (off % z->spt) * d->period / z->spt;
	rot = (ang + d->period - t1 % d->period) % d->period;
	p.done = t1 + rot + ek_muldiv(r->nr_sectors, d->period, z->spt);
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

static void hdd_start(struct hdd *d, ek_u64 t0)
{
	struct ek_mrq *r = ek_list_first(&d->queue, struct ek_mrq, link);
	struct hdd_plan p;
	ek_u64 end;
	ek_u32 i;

	if (!r)
		return;
	if (d->queued > 1 && t0 - r->submit_ns < d->age_ns) {
		/* NCQ: shortest time to completion first */
		struct ek_list *pos;
		struct hdd_plan best = hdd_plan(d, r, t0);

		for (pos = r->link.next; pos != &d->queue; pos = pos->next) {
			struct ek_mrq *c = ek_list_entry(pos, struct ek_mrq, link);
			struct hdd_plan cp = hdd_plan(d, c, t0);

			if (cp.done < best.done) {
				best = cp;
				r = c;
			}
		}
		p = best;
	} else {
		p = hdd_plan(d, r, t0);
	}
	ek_list_del(&r->link);
	d->queued--;
	r->start_ns = t0;
	r->done_ns = p.done;
	d->cur = r;
	end = r->sector + r->nr_sectors;

	if (p.hit >= 0) {
		struct hdd_seg *g = &d->seg[p.hit];

		g->lru = ++d->lru_clock;
		if (p.hit == d->active) {
			const struct hdd_zone *z = hdd_zone_of(d, g->start);

			g->limit = ek_min_u64(ek_max_u64(g->limit, end + d->ra_sectors), z->end);
		}
		return;
	}
	hdd_stop_prefetch(d, t0);
	d->cur_cyl = hdd_cyl(d, end - 1);
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
		g->spt = z->spt;
		g->t0 = p.done - ek_muldiv(r->nr_sectors, d->period, z->spt);
		g->limit = ek_max_u64(ek_min_u64(end + d->ra_sectors, z->end), end);
		g->stop = EK_U64_MAX;
		g->lru = ++d->lru_clock;
		d->active = (int)(g - d->seg);
	} else {
		for (i = 0; i < d->nsegs; i++)	/* a write over cached data */
			if (d->seg[i].valid && r->sector < d->seg[i].limit &&
			    end > d->seg[i].start)
				d->seg[i].valid = 0;
	}
}

static ek_u32 hdd_qd(void *m) { return ((struct hdd *)m)->qd; }
static int hdd_rot(void *m) { (void)m; return 1; }
static ek_u64 hdd_capacity(void *m) { return ((struct hdd *)m)->cap; }

static void hdd_submit(void *m, struct ek_mrq *r, ek_u64 now)
{
	struct hdd *d = m;

	r->submit_ns = now;
	ek_list_add_tail(&r->link, &d->queue);
	d->queued++;
	if (!d->cur)
		hdd_start(d, now);
}

static ek_u64 hdd_next(void *m)
{
	struct hdd *d = m;

	return d->cur ? d->cur->done_ns : EK_U64_MAX;
}

static struct ek_mrq *hdd_complete(void *m, ek_u64 now)
{
	struct hdd *d = m;
	struct ek_mrq *r = d->cur;

	if (!r || r->done_ns > now)
		return EK_NULL;
	d->cur = EK_NULL;
	hdd_start(d, r->done_ns);
	return r;
}

const struct ek_model_type ek_model_hdd = {
	.name = "hdd",
	.description = "7200 rpm SATA disk: seek curve, rotation, zones, read-ahead, optional NCQ",
	.size = sizeof(struct hdd),
	.params = hdd_params,
	.nr_params = P_NR,
	.init = hdd_init,
	.queue_depth = hdd_qd,
	.rotational = hdd_rot,
	.capacity = hdd_capacity,
	.submit = hdd_submit,
	.next_done = hdd_next,
	.complete = hdd_complete,
};
