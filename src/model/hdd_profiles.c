// SPDX-License-Identifier: GPL-2.0
/*
 * Named rotating disks: the hdd model (hdd.c) with every default taken from
 * one real drive. The figures are the manufacturers' published spec sheets
 * as we recall them (no sheet was at hand while writing this); where a
 * sheet is silent the value is marked "estimate" and says what it rests on.
 * Seek times are the sheets' read figures (writes are usually 1 ms slower;
 * the model has one curve). Media rates are the sustained rates at the
 * outer (LBA 0) and inner zones. NCQ's starvation limit (ncq_age_ms,
 * 2 s) is an estimate: firmware does not publish it; it must stay well
 * above the queueing delay of 32 random requests on a 5400 rpm disk
 * (~250 ms), or serving aged requests in order snowballs into FIFO.
 */
#include "hdd.h"

#define HDD_PARAMS(cap, rpm, t2t, avg, full, outer, inner, zones, ovh, hit, wovh, bus,	\
		   ra, cache_kb, segs, qd)						\
	{										\
	[HDD_P_CAP] = { "capacity_gb", "GB", "capacity", cap, 1, 100000 },		\
	[HDD_P_RPM] = { "rpm", "rpm", "spindle speed", rpm, 1000, 30000 },		\
	[HDD_P_T2T] = { "t2t_us", "us", "track-to-track seek", t2t, 0, 100000 },	\
	[HDD_P_AVG] = { "avg_seek_us", "us", "average seek (random to random)",		\
			avg, 0, 1000000 },						\
	[HDD_P_FULL] = { "full_seek_us", "us", "full-stroke seek", full, 0, 1000000 },	\
	[HDD_P_OUTER] = { "outer_mbs", "MB/s", "media rate, outer zone (LBA 0)",	\
			  outer, 1, 10000 },						\
	[HDD_P_INNER] = { "inner_mbs", "MB/s", "media rate, inner zone", inner, 1, 10000 }, \
	[HDD_P_ZONES] = { "zones", "count", "recording zones", zones, 1, HDD_MAX_ZONES }, \
	[HDD_P_OVH] = { "overhead_us", "us", "command overhead of a media access",	\
			ovh, 0, 100000 },						\
	[HDD_P_HIT] = { "hit_us", "us", "command overhead of a read-cache hit",		\
			hit, 0, 100000 },						\
	[HDD_P_WOVH] = { "write_us", "us", "command overhead of a write into the cache", \
			 wovh, 0, 100000 },						\
	[HDD_P_BUS] = { "bus_mbs", "MB/s", "interface rate (cache hits, cached writes)", \
			bus, 1, 100000 },						\
	[HDD_P_CACHE] = { "cache", "bool", "on-disk read-ahead cache", 1, 0, 1 },	\
	[HDD_P_RA] = { "ra_kb", "KB", "read-ahead beyond the last read", ra, 0, 1048576 }, \
	[HDD_P_CACHE_KB] = { "cache_kb", "KB",						\
			     "cache size: read segments share it; dirty data fills at most all of it", \
			     cache_kb, 1, 1048576 },					\
	[HDD_P_SEGS] = { "segments", "count", "cache segments (read streams remembered)", \
			 segs, 1, HDD_MAX_SEGS },					\
	[HDD_P_QD] = { "qd", "requests", "queue depth; >1 enables NCQ reordering",	\
		       qd, 1, 256 },							\
	[HDD_P_AGE] = { "ncq_age_ms", "ms", "NCQ: a request this old is served next",	\
			2000, 1, 100000 },						\
	[HDD_P_WCE] = { "wce", "bool", "write cache enabled (as shipped); 0: writes go to the media", \
			1, 0, 1 },							\
	}

/*
 * hdd: Seagate Barracuda 7200.14, ST1000DM003 (1 TB, one platter, SATA
 * 6 Gb/s), product manual: 7200 rpm; average seek read < 8.5 ms (write
 * < 9.5 ms); track-to-track read < 1.0 ms; max sustained data rate, OD
 * read, 210 MB/s; 64 MB multisegmented cache; NCQ, queue depth 32.
 * Estimates: full stroke 16 ms (not in the manual; typical of 3.5"
 * desktop drives, and inside what the seek curve accepts); inner zone
 * 105 MB/s, half the OD rate (the manual gives OD only; the LBA-weighted
 * mean of 210..105 is 163 MB/s, near the 156 MB/s average Seagate quoted
 * for the family); command overhead 100 us for a media access, 30 us for a
 * cache hit, 20 us for a cached write (Seagate publishes none; HGST/IBM
 * sheets give 0.3 / 0.1 / 0.015 ms for 2002's Deskstar 120GXP, and
 * controllers have become faster); 16 read segments, 512 KiB read-ahead.
 */
static const struct ek_model_param hdd_7200_params[HDD_P_NR] =
	HDD_PARAMS(1000, 7200, 1000, 8500, 16000, 210, 105, 16,
		   100, 30, 20, 600, 512, 65536, 16, 32);

/*
 * hdd-laptop: Hitachi Travelstar 5K320, HTS543232L9SA00 (320 GB, 2.5",
 * SATA 3 Gb/s), OEM specification: 5400 rpm (average latency 5.5 ms);
 * average seek read 12 ms (write 13 ms); full stroke read 20 ms; single
 * track read 1.0 ms; 8 MB buffer; NCQ, queue depth 32. Estimates: media
 * rate 70 MB/s outer to 35 MB/s inner (the transfer curves reviews
 * measured on 160 GB-per-platter 5400 rpm drives); command overhead
 * 300 us (media), 100 us (hit), 30 us (cached write), as for 2002's
 * Deskstar; 8 segments, 256 KiB read-ahead.
 */
static const struct ek_model_param hdd_laptop_params[HDD_P_NR] =
	HDD_PARAMS(320, 5400, 1000, 12000, 20000, 70, 35, 16,
		   300, 100, 30, 300, 256, 8192, 8, 32);

/*
 * hdd-2002: IBM Deskstar 120GXP, IC35L120AVVA07 (120 GB, Ultra ATA/100,
 * 2002), IBM hard disk drive specification rev 4.1: 7200 rpm; average
 * seek read 8.2 ms for the 60..120 GB models (write 9.2 ms); command
 * overhead 0.3 ms for a read cache miss, 0.1 ms for a cache hit, 0.015 ms
 * for a write; buffer-host 100 MB/s; 2 MB buffer. Media rates 48 MB/s in
 * zone 0 and 23 MB/s in the last zone (30): derived from the sheet's
 * sequential-access table (16 MiB in 0.38 s typical in zone 0 and 0.77 s
 * in zone 30, where typical = 105% of overhead + seek + latency +
 * 16 MiB / rate); the LBA-weighted mean is 37 MB/s. The same sheet's
 * random-access table (4096 random reads in 55 s typical) gives 78 IOPS,
 * which overhead + seek + half a turn reproduce. Queue depth 1: Linux's IDE
 * driver never used the drive's TCQ. Estimates: track-to-track 1.2 ms,
 * full stroke 15 ms (as for IBM's 75GXP, whose sheet gives 14.7 ms);
 * 4 segments, 256 KiB read-ahead.
 */
static const struct ek_model_param hdd_2002_params[HDD_P_NR] =
	HDD_PARAMS(120, 7200, 1200, 8200, 15000, 48, 23, 31,
		   300, 100, 15, 100, 256, 2048, 4, 1);

#define HDD_TYPE(var, nm, desc, tbl)			\
	const struct ek_model_type var = {		\
		.name = nm,				\
		.description = desc,			\
		.size = sizeof(struct hdd),		\
		.params = tbl,			\
		.nr_params = HDD_P_NR,			\
		.init = ek_hdd_init,			\
		.queue_depth = ek_hdd_qd,		\
		.rotational = ek_hdd_rot,		\
		.capacity = ek_hdd_capacity,		\
		.submit = ek_hdd_submit,		\
		.next_done = ek_hdd_next,		\
		.complete = ek_hdd_complete,		\
	}

HDD_TYPE(ek_model_hdd, "hdd",
	 "7200 rpm SATA disk (Seagate Barracuda 7200.14 1 TB): NCQ 32, 64 MB write cache",
	 hdd_7200_params);
HDD_TYPE(ek_model_hdd_laptop, "hdd-laptop",
	 "5400 rpm 2.5\" laptop disk (Hitachi Travelstar 5K320): NCQ 32, 8 MB cache",
	 hdd_laptop_params);
HDD_TYPE(ek_model_hdd_2002, "hdd-2002",
	 "2002 IDE disk (IBM Deskstar 120GXP): 7200 rpm, ~37 MB/s, QD1, 2 MB cache",
	 hdd_2002_params);
