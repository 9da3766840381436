/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elvkit-sim: a deterministic discrete-event host for elvkit policies.
 * Virtual time in nanoseconds; device models from src/model/; workloads of
 * threads issuing bios. Userspace only (libc allowed here, not in models
 * or policies).
 */
#ifndef ELVKIT_SIM_H
#define ELVKIT_SIM_H

#include <stdint.h>
#include <stdio.h>
#include <elvkit/policy.h>
#include "../model/model.h"

#define SIM_MAX_PARAMS 32
#define SIM_MAX_PRIO 16

enum sim_workload {
	WL_SEQREAD, WL_SEQWRITE, WL_RANDREAD, WL_RANDWRITE,
	WL_READ_VS_WRITE, WL_THINK_READ, WL_STARTUP, WL_NR
};

enum sim_bg { BG_DEFAULT = -1, BG_NONE = 0, BG_WRITE, BG_READ };

struct sim_prio {
	uint8_t cls, lvl;
};

/* Observers for tests; any may be NULL. */
struct sim_hooks {
	void *arg;
	void (*on_insert)(void *arg, const struct ek_rq *rq, uint64_t now);
	void (*on_dispatch)(void *arg, const struct ek_rq *rq, uint64_t now);
	void (*on_complete)(void *arg, const struct ek_rq *rq, uint64_t now);
	/* a queued request vanished into another (merged_requests) */
	void (*on_merged_away)(void *arg, const struct ek_rq *gone,
			       const struct ek_rq *into, uint64_t now);
};

/*
 * --think, --tag-wake-us, --late-us as "PCT:US,...": a delay drawn from the points of
 * its quantile function, 0 to 100 %, linear between them (delay.c), as a
 * trace measured it (waketrace.py). n == 0: the option's single number.
 */
#define SIM_DELAY_POINTS 24
struct sim_delay {
	unsigned n;
	uint32_t ppm[SIM_DELAY_POINTS];	/* PCT in parts per million (0..1000000) */
	uint32_t us[SIM_DELAY_POINTS];
};

struct sim_config {
	const struct ek_policy *policy;
	ek_s64 tun[EK_MAX_TUNABLES];
	const struct ek_model_type *model;
	ek_s64 dev[SIM_MAX_PARAMS];
	int workload;			/* enum sim_workload */
	unsigned threads;
	uint64_t block;			/* bytes per bio */
	uint64_t readahead;		/* sequential sync readers: bios of at least this */
	uint64_t size;			/* total bytes, sequential workloads */
	int interleave;			/* seqread: the threads read alternate blocks
					   of one region (--interleave) */
	uint64_t region_align;		/* a foreground region is size / threads rounded
					   down to this many bytes (a sector, 512, unless set) */
	uint64_t ios;			/* total bios, random workloads */
	int64_t think_us;		/* -1: the workload's default; with think_q
					   its mean */
	struct sim_delay think_q;
	int bg;				/* enum sim_bg */
	uint64_t bg_block;		/* 0: same as block */
	unsigned wdepth;		/* async bios in flight per writer */
	uint64_t dirty_kb, dirty_bg_kb;	/* vm.dirty_bytes, _background_bytes; 0: no dirty throttling */
	uint64_t flusher_us;		/* the flusher runs this long after it is woken */
	uint64_t wb_bw_kbps;		/* the writeback estimate a run starts with
					   (KiB/s); 0: the kernel's INIT_BW */
	uint64_t copy_mbs;		/* buffered writers copy into the page cache at this
					   many MB/s (CPU time per write); 0: in no time */
	unsigned nr_requests;		/* shared request pool; 0: 2 x min(queue depth, 128),
					   or the queue depth for EK_POLICY_AS_NONE */
	int64_t tag_wake_us;		/* -1: a freed tag goes to the first sleeper; else it
					   wakes to retry this much later (tags.c) */
	struct sim_delay tag_wake_q;	/* ... drawn from these; tag_wake_us their mean */
	unsigned tag_wake_batch;	/* sleepers woken per batch of freed requests;
					   0: as sbitmap computes it (tags.c) */
	int64_t late_us;		/* the device's completions reach the host this
					   late (a guest's timer under TCG); 0: on time */
	struct sim_delay late_q;	/* ... drawn from these; late_us their mean */
	int64_t wbt_wake_us;		/* tasks wbt wakes ask again this much later on
					   average; -1: as tag_wake_us */
	uint64_t write_end_us;		/* a write request ends (bios, wbt, tag) this
					   long after the device completed it */
	unsigned max_kb;		/* largest merged request */
	int wbt;			/* writeback throttling: 1 on, 0 off, -1 rotational only */
	unsigned requeue_pct;		/* requeue this % of dispatches */
	uint64_t requeue_us;		/* ... and run the requeue list this much later */
	int requeue_dontprep;		/* ... as RQF_DONTPREP: to the device again,
					   past the policy */
	uint64_t seed;
	uint64_t time_limit_ns;
	unsigned startup_ios;
	uint64_t warmup_ns;
	uint64_t start_us;		/* threads start at a random 0..this (per seed) */
	struct sim_prio prio[SIM_MAX_PRIO];
	unsigned nprio;			/* 0: all best-effort 4 */
	struct sim_prio bg_prio;
	uint64_t min_time_ns;		/* foreground threads repeat their work until then */
	uint64_t runtime_ns;		/* --runtime: ... and then start no new I/O; 0: off */
	uint64_t *thread_bytes;		/* optional out: each foreground thread's bytes */
	struct sim_hooks hooks;
};

/* Latency histogram: exact below 64 ns, then 64 steps per power of two (1.6%). */
#define SIM_LAT_SUB_BITS 6
#define SIM_LAT_BUCKETS (64 * (64 - SIM_LAT_SUB_BITS + 1))

/*
 * How a wbt monitoring window ended (latency_exceeded() in blk-wbt.c), as
 * bench-kernel --trace-wake counts the kernel's (wbt_timer, wbt_stat):
 * a read out longer than the window, or than the target with none done;
 * the window's fastest read slower than the target; reads fast; too few
 * samples but writes; nothing at all.
 */
enum { WBT_WIN_EXCEEDED_ISSUE, WBT_WIN_EXCEEDED_MIN, WBT_WIN_OK,
	WBT_WIN_UNKNOWN_WRITES, WBT_WIN_UNKNOWN, WBT_WIN_NR };

/*
 * Latencies whose share of the application I/Os is counted exactly
 * (--json's pct_over_*): tiobench's 2 s and 10 s, and two under them that
 * hold a tail's share where a p99 on a knee of it says little.
 */
enum { SIM_OVER_100MS, SIM_OVER_500MS, SIM_OVER_2S, SIM_OVER_10S, SIM_OVER_NR };
extern const uint64_t sim_over_ns[SIM_OVER_NR];

struct sim_result {
	uint64_t elapsed_ns;		/* until the last foreground thread ended */
	uint64_t fg_bytes, fg_ios;
	uint64_t read_bytes, write_bytes;	/* everyone's, within elapsed */
	uint64_t app_write_bytes;	/* written as the writers see it: dirtied into
					   the page cache under --dirty-kb (fio's
					   bandwidth for buffered writes), else done */
	uint64_t app_write_end_ns;	/* the last of those writes */
	uint64_t app_write_ns;		/* the writers' time for their rate: elapsed,
					   or with --runtime until they stopped */
	/* application I/Os of the foreground threads (reads include page-cache hits) */
	uint64_t lat_n, lat_sum_ns, lat_max_ns;
	uint64_t over[SIM_OVER_NR];	/* how many took longer than sim_over_ns[] */
	uint64_t lat_hist[SIM_LAT_BUCKETS];
	unsigned nthread_bytes;		/* foreground threads (entries of cfg->thread_bytes) */
	double jain;			/* Jain's fairness index of their bytes */
	uint64_t bg_lat_max_ns;
	uint64_t max_wait_ns[2];	/* insert to dispatch, per direction */
	uint64_t max_service_ns;	/* dispatch to completion */
	uint64_t startup_ns;
	uint64_t inserted, dispatched, completed, merged_away;
	uint64_t dev_completed;		/* requests the device completed within elapsed */
	uint64_t back_merges, front_merges, requeues;
	uint64_t bios, bios_done;
	uint64_t plug_merges;
	uint64_t events;
	/* the block layer */
	unsigned nr_requests;		/* the shared pool's size */
	unsigned tags_max, tags_limited_max;	/* most held at once; under limit_depth */
	uint64_t tag_waits;		/* submissions that slept for a request */
	unsigned tag_wake_batch;	/* --tag-wake-us: sleepers woken per batch */
	uint64_t wbt_waits;		/* submissions that slept in wbt */
	uint64_t wbt_scale_downs, wbt_scale_ups;
	unsigned wbt_min_depth;		/* wbt's smallest max_depth; 0 when off */
	uint64_t wbt_windows[WBT_WIN_NR];	/* how wbt's windows ended */
	/*
	 * Time averages over the run of what `bench-kernel.sh --probe` samples
	 * in the kernel: wbt's wb_normal and buffered writes in flight, requests
	 * held (the scheduler's tags; `none`'s are the driver's) and the
	 * threads sleeping for one, requests on the device (the driver's tags
	 * under a scheduler).
	 */
	double avg_wb_normal, avg_wbt_inflight, avg_tags_used, avg_tag_sleepers, avg_dev_inflight;
	double avg_dirty_kb;		/* page cache dirty or under writeback (--dirty-kb) */
	uint64_t dirty_pauses;		/* writers paused by balance_dirty_pages */
	uint64_t dev_rqs[2], dev_rq_sectors[2];	/* device requests per direction, within elapsed */
	/* the policy's counters at the end of the run: its statistics files in sysfs */
	unsigned nr_counters;
	const char *counter_name[EK_MAX_COUNTERS];
	uint64_t counter[EK_MAX_COUNTERS];
	int truncated;			/* hit time_limit */
	uint64_t violations;
	char violation[200];		/* the first one */
};

/* config.c */
void sim_config_init(struct sim_config *c);
void sim_config_policy(struct sim_config *c, const struct ek_policy *p);
void sim_config_model(struct sim_config *c, const struct ek_model_type *m);
/* 0, -1 unknown name, -2 out of range */
int sim_config_tune(struct sim_config *c, const char *name, ek_s64 v);
int sim_config_dev(struct sim_config *c, const char *name, ek_s64 v);
const struct ek_policy *sim_find_policy(const char *name);
const struct ek_model_type *sim_find_model(const char *name);
int sim_find_workload(const char *name);
const char *sim_workload_name(int w);
const char *sim_workload_help(int w);
int sim_workload_mixed(const struct sim_config *c);
int64_t sim_think_us(const struct sim_config *c);
/* delay.c */
uint64_t sim_delay_mean_us(const struct sim_delay *d);
uint64_t sim_delay_draw_ns(const struct sim_delay *d, ek_u64 *rng);	/* d->n >= 2 */

/* policy_table.c: every policy of elvkit/policy_list.h, NULL-terminated */
extern const struct ek_policy *const sim_policies[];

/* run.c */
int sim_run(const struct sim_config *c, struct sim_result *r);

/* account.c: the latency (ns) below which a share q (0..1) of the histogram lies */
uint64_t sim_lat_quantile(const struct sim_result *r, double q);

#endif
