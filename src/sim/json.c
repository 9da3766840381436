// SPDX-License-Identifier: GPL-2.0
/*
 * --json FILE: one object per (scheduler, device, workload, threads).
 * iops, avg/p99/p999/max_lat_ms and pct_over_*: the foreground threads'
 * application I/Os; read_mbs, write_mbs, dev_iops: the device's;
 * app_write_mbs: every writer's as the application sees it, written into
 * the page cache under --dirty-kb (what fio reports for buffered writes);
 * thread_bytes: each foreground thread's application bytes, jain their
 * fairness index; counters: the scheduler's own (its statistics files in
 * sysfs), at the end of the run. avg_*: the block layer's state averaged
 * over the run (wbt's wb_normal and buffered writes in flight, requests
 * held and threads sleeping for one, requests on the device), to set
 * beside `bench-kernel.sh --probe`; read_rq_kb, write_rq_kb: KiB per
 * device request (no flushes); wbt_*_pct: how wbt's windows ended, % of
 * them (sim.h's WBT_WIN_*).
 */
#include <errno.h>
#include <stdio.h>
#include "report.h"

static const char *const mname[M_NR] = {
	[M_RATE] = "rate_mbs", [M_READ] = "read_mbs", [M_WRITE] = "write_mbs",
	[M_IOPS] = "iops", [M_AVG] = "avg_lat_ms", [M_MAX] = "max_lat_ms",
	[M_OVER + SIM_OVER_100MS] = "pct_over_100ms",
	[M_OVER + SIM_OVER_500MS] = "pct_over_500ms",
	[M_OVER + SIM_OVER_2S] = "pct_over_2s", [M_OVER + SIM_OVER_10S] = "pct_over_10s",
	[M_STARTUP] = "startup_ms", [M_BGMAX] = "bg_max_lat_ms",
	[M_P99] = "p99_lat_ms", [M_JAIN] = "jain", [M_DEV_IOPS] = "dev_iops",
	[M_ELAPSED] = "elapsed_s",
	[M_WB_NORMAL] = "avg_wb_normal", [M_WBT_INFLIGHT] = "avg_wbt_inflight",
	[M_TAGS_USED] = "avg_tags_used", [M_TAG_SLEEPERS] = "avg_tag_sleepers",
	[M_DEV_INFLIGHT] = "avg_dev_inflight",
	[M_RD_RQ_KB] = "read_rq_kb", [M_WR_RQ_KB] = "write_rq_kb",
	[M_DIRTY_KB] = "avg_dirty_kb", [M_APP_WRITE] = "app_write_mbs",
	[M_P999] = "p999_lat_ms",
	[M_WBT_WIN + WBT_WIN_EXCEEDED_ISSUE] = "wbt_exceeded_issue_pct",
	[M_WBT_WIN + WBT_WIN_EXCEEDED_MIN] = "wbt_exceeded_min_pct",
	[M_WBT_WIN + WBT_WIN_OK] = "wbt_ok_pct",
	[M_WBT_WIN + WBT_WIN_UNKNOWN_WRITES] = "wbt_unknown_writes_pct",
	[M_WBT_WIN + WBT_WIN_UNKNOWN] = "wbt_unknown_pct",
};

int json_write(FILE *f, const struct sim_row *rows, size_t n)
{
	size_t i;
	int k, e;

	fprintf(f, "[");
	for (i = 0; i < n; i++) {
		const struct sim_row *r = &rows[i];

		fprintf(f, "%s\n  {\"sched\": \"%s\", \"device\": \"%s\", \"workload\": \"%s\", "
			"\"threads\": %u, \"block\": %llu, \"size\": %llu, \"seed\": %llu, "
			"\"runs\": %u, \"interleave\": %d",
			i ? "," : "", r->sched, r->device, sim_workload_name(r->workload),
			r->threads, (unsigned long long)r->block, (unsigned long long)r->size,
			(unsigned long long)r->seed, r->runs, r->interleave);
		for (k = 0; k < M_NR; k++) {
			fprintf(f, ", \"%s\": %.6f", mname[k], r->mean[k]);
			if (r->runs > 1)
				fprintf(f, ", \"%s_pm\": %.6f", mname[k], r->pm[k]);
		}
		fprintf(f, ", \"thread_bytes\": [");
		for (k = 0; k < (int)r->nthread_bytes; k++)
			fprintf(f, "%s%.0f", k ? ", " : "", r->thread_bytes[k]);
		fprintf(f, "], \"counters\": {");
		for (k = 0; k < (int)r->nr_counters; k++)
			fprintf(f, "%s\"%s\": %.1f", k ? ", " : "", r->counter_name[k], r->counter[k]);
		fprintf(f, "}");
		fprintf(f, ", \"truncated\": %s, \"violations\": %llu}",
			r->truncated ? "true" : "false", (unsigned long long)r->violations);
	}
	fprintf(f, "\n]\n");
	if (fflush(f) || ferror(f)) {
		e = errno;
		fclose(f);
		errno = e;
		return -1;
	}
	return fclose(f) ? -1 : 0;
}
