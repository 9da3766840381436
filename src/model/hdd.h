/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rotating-disk model's internals, shared by its three files:
 * hdd.c (mechanics, queue, read-ahead), hdd_wcache.c (the write cache's
 * dirty extents) and hdd_profiles.c (named drives: parameter defaults from
 * their datasheets). Hosts see only the ek_model_type structs.
 */
#ifndef ELVKIT_MODEL_HDD_H
#define ELVKIT_MODEL_HDD_H

#include "model.h"

/* Parameter slots; every profile lists the same names in this order. */
enum { HDD_P_CAP, HDD_P_RPM, HDD_P_T2T, HDD_P_AVG, HDD_P_FULL, HDD_P_OUTER,
	HDD_P_INNER, HDD_P_ZONES, HDD_P_OVH, HDD_P_HIT, HDD_P_WOVH, HDD_P_BUS,
	HDD_P_CACHE, HDD_P_RA, HDD_P_CACHE_KB, HDD_P_SEGS, HDD_P_QD, HDD_P_AGE,
	HDD_P_WCE, HDD_P_NR };

#define HDD_MAX_ZONES 64
#define HDD_MAX_SEGS 64
/*
 * Dirty extents the write cache tracks. Real drives keep a few hundred
 * cache descriptors; a full table counts as a full cache (one slot is kept
 * free so that cleaning the middle of an extent can always split it).
 */
#define HDD_MAX_DIRTY 512
/*
 * Longest destage operation, in sectors. Short enough that a read arriving
 * during an idle-time destage waits at most a few ms; long runs cost
 * nothing extra because a destage that continues where the last one ended
 * finds its sector under the head.
 */
#define HDD_DESTAGE_SECTORS 2048

struct hdd_zone {
	ek_u64 start, end;	/* sectors */
	ek_u64 start_cyl;
	ek_u64 spt;		/* sectors per track */
};

/* A read-ahead cache segment: sectors [start, fill(t)) are cached. */
struct hdd_seg {
	int valid;
	ek_u64 start, t0, limit, stop, spt, lru;
	ek_u64 base;	/* the sector the stream reads at t0: start, or where it resumed */
};

/* Dirty data in the write cache: [start, start + len). */
struct hdd_ext {
	ek_u64 start, len;
};

/* What the mechanism (head and actuator) is doing until mech_end. */
enum hdd_op { HDD_IDLE, HDD_HOST, HDD_DESTAGE, HDD_PREFETCH_WAIT };

struct hdd {
	/* geometry and timing, from the parameters */
	ek_u64 period;			/* ns per revolution */
	ek_u64 t2t, coef_a;		/* ns */
	ek_s64 coef_b;			/* ns; negative for steep short seeks */
	ek_u64 overhead, hit_ns, wovh_ns, bus_bps;
	ek_u64 ra_sectors, seg_sectors;
	int cache, wce;
	ek_u32 nsegs;
	ek_u32 qd, nzones;
	ek_u64 age_ns;
	ek_u64 ncyl, cap;
	struct hdd_zone zone[HDD_MAX_ZONES];

	/* the mechanism */
	ek_u64 cur_cyl;
	enum hdd_op op;
	ek_u64 mech_end;
	ek_u64 op_sector, op_len;	/* the destage in progress */

	/* host requests */
	struct ek_list queue;		/* need the media, not started */
	ek_u32 queued;
	struct ek_list wait;		/* cached writes waiting for room, FIFO */
	struct ek_list flushq;		/* flushes waiting for a clean cache */
	struct ek_list done;		/* finish at a known time, sorted */
	ek_u64 bus_free;		/* interface busy with cached writes until */

	/* read-ahead */
	struct hdd_seg seg[HDD_MAX_SEGS];
	int active;		/* segment being prefetched into, or -1 */
	ek_u64 lru_clock;

	/* write cache */
	struct hdd_ext dirty[HDD_MAX_DIRTY];	/* sorted by start, disjoint */
	ek_u32 ndirty;
	ek_u64 dirty_sectors, wc_sectors;
	int pressure;		/* destaging to make room */
	int destaged;		/* the last mechanism op made room */
};

int ek_hdd_init(void *m, const ek_s64 *v);
ek_u32 ek_hdd_qd(void *m);
int ek_hdd_rot(void *m);
ek_u64 ek_hdd_capacity(void *m);
void ek_hdd_submit(void *m, struct ek_mrq *r, ek_u64 now);
ek_u64 ek_hdd_next(void *m);
struct ek_mrq *ek_hdd_complete(void *m, ek_u64 now);

/* hdd_wcache.c */
int hdd_wc_fits(const struct hdd *d, ek_u64 len);
void hdd_wc_add(struct hdd *d, ek_u64 start, ek_u64 len);
void hdd_wc_clean(struct hdd *d, ek_u64 start, ek_u64 len);

#endif
