/* SPDX-License-Identifier: GPL-2.0 */
/* Results of one configuration over --runs seeds, and how they are shown. */
#ifndef ELVKIT_SIM_REPORT_H
#define ELVKIT_SIM_REPORT_H

#include "sim.h"

/*
 * Metrics of a row. App: the foreground threads' application I/Os (reads of
 * --block, page-cache hits included, or write bios). Dev: what the device
 * did, for every thread.
 */
enum { M_RATE, M_READ, M_WRITE, M_IOPS, M_AVG, M_MAX,
	/* % of the app I/Os over sim_over_ns[] (SIM_OVER_*, in that order) */
	M_OVER, M_OVER_LAST = M_OVER + SIM_OVER_NR - 1, M_STARTUP,
	M_BGMAX, M_P99, M_JAIN, M_DEV_IOPS, M_ELAPSED,
	/* the block layer's time averages (sim_result's avg_*) */
	M_WB_NORMAL, M_WBT_INFLIGHT, M_TAGS_USED, M_TAG_SLEEPERS, M_DEV_INFLIGHT,
	M_RD_RQ_KB, M_WR_RQ_KB,	/* KiB per device request, reads and writes */
	M_DIRTY_KB,		/* dirty or under writeback, with --dirty-kb */
	M_APP_WRITE,		/* the writers' MB/s as they see it (sim_result) */
	M_P999,			/* the tail beyond p99: where a knee sits */
	/* % of wbt's windows that ended so (WBT_WIN_*, in that order) */
	M_WBT_WIN, M_WBT_WIN_LAST = M_WBT_WIN + WBT_WIN_NR - 1,
	M_NR };

struct sim_row {
	const char *sched, *device;
	int workload;
	unsigned threads;
	int mixed;
	int interleave;			/* --interleave */
	uint64_t block, size;
	uint64_t seed;
	unsigned runs;
	double mean[M_NR], pm[M_NR];	/* pm: (max - min) / 2 over runs */
	int truncated;
	uint64_t violations;
	double *thread_bytes;		/* per foreground thread, mean over runs (malloc'd) */
	unsigned nthread_bytes;
	unsigned nr_counters;		/* the policy's counters, mean over runs */
	const char *counter_name[EK_MAX_COUNTERS];
	double counter[EK_MAX_COUNTERS];
};

void row_fill(struct sim_row *row, const struct sim_result *r, unsigned n);
/* tb: n runs of nthreads entries each (sim_config.thread_bytes) */
void row_thread_bytes(struct sim_row *row, const uint64_t *tb, unsigned nthreads, unsigned n);
void report_table(FILE *f, const struct sim_row *rows, size_t n);
void report_wall(FILE *f, const struct sim_row *rows, size_t n);
void report_chart(FILE *f, const struct sim_row *rows, size_t n);
/* into f, opened before the runs (--json FILE), and close it; -1 and errno if that failed */
int json_write(FILE *f, const struct sim_row *rows, size_t n);

#endif
