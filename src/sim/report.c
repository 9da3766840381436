// SPDX-License-Identifier: GPL-2.0
/* tiobench-style text report, "the wall", and ASCII bar charts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

static double rq_kb(const struct sim_result *r, int dir)
{
	return r->dev_rqs[dir] ? (double)r->dev_rq_sectors[dir] / 2 / (double)r->dev_rqs[dir] : 0;
}

static void metrics(const struct sim_result *r, double *m)
{
	double el = r->elapsed_ns ? (double)r->elapsed_ns / 1e9 : 1e-9;
	uint64_t windows = 0;
	int k;

	m[M_RATE] = (double)r->fg_bytes / 1e6 / el;
	m[M_READ] = (double)r->read_bytes / 1e6 / el;
	m[M_WRITE] = (double)r->write_bytes / 1e6 / el;
	m[M_APP_WRITE] = (double)r->app_write_bytes / 1e6 /
			 (r->app_write_ns ? (double)r->app_write_ns / 1e9 : el);
	m[M_IOPS] = (double)r->fg_ios / el;
	m[M_AVG] = r->lat_n ? (double)r->lat_sum_ns / (double)r->lat_n / 1e6 : 0;
	m[M_MAX] = (double)r->lat_max_ns / 1e6;
	for (k = 0; k < SIM_OVER_NR; k++)
		m[M_OVER + k] = r->lat_n ? 100.0 * (double)r->over[k] / (double)r->lat_n : 0;
	m[M_STARTUP] = (double)r->startup_ns / 1e6;
	m[M_BGMAX] = (double)r->bg_lat_max_ns / 1e6;
	m[M_P99] = (double)sim_lat_quantile(r, 0.99) / 1e6;
	m[M_P999] = (double)sim_lat_quantile(r, 0.999) / 1e6;
	m[M_JAIN] = r->jain;
	m[M_DEV_IOPS] = (double)r->dev_completed / el;
	m[M_ELAPSED] = el;
	m[M_WB_NORMAL] = r->avg_wb_normal;
	m[M_WBT_INFLIGHT] = r->avg_wbt_inflight;
	m[M_TAGS_USED] = r->avg_tags_used;
	m[M_TAG_SLEEPERS] = r->avg_tag_sleepers;
	m[M_DEV_INFLIGHT] = r->avg_dev_inflight;
	m[M_RD_RQ_KB] = rq_kb(r, EK_READ);
	m[M_WR_RQ_KB] = rq_kb(r, EK_WRITE);
	m[M_DIRTY_KB] = r->avg_dirty_kb;
	for (k = 0; k < WBT_WIN_NR; k++)
		windows += r->wbt_windows[k];
	for (k = 0; k < WBT_WIN_NR; k++)
		m[M_WBT_WIN + k] = windows ? 100.0 * (double)r->wbt_windows[k] / (double)windows : 0;
}

void row_fill(struct sim_row *row, const struct sim_result *r, unsigned n)
{
	double lo[M_NR], hi[M_NR], m[M_NR];
	unsigned i, k;

	for (k = 0; k < M_NR; k++) {
		row->mean[k] = 0;
		lo[k] = INFINITY;
		hi[k] = -INFINITY;
	}
	row->runs = n;
	row->truncated = 0;
	row->violations = 0;
	for (i = 0; i < n; i++) {
		metrics(&r[i], m);
		for (k = 0; k < M_NR; k++) {
			row->mean[k] += m[k] / n;
			lo[k] = m[k] < lo[k] ? m[k] : lo[k];
			hi[k] = m[k] > hi[k] ? m[k] : hi[k];
		}
		row->truncated |= r[i].truncated;
		row->violations += r[i].violations;
	}
	for (k = 0; k < M_NR; k++)
		row->pm[k] = (hi[k] - lo[k]) / 2;
	row->nr_counters = r[0].nr_counters;
	for (k = 0; k < row->nr_counters; k++) {
		row->counter_name[k] = r[0].counter_name[k];
		row->counter[k] = 0;
		for (i = 0; i < n; i++)
			row->counter[k] += (double)r[i].counter[k] / n;
	}
}

void row_thread_bytes(struct sim_row *row, const uint64_t *tb, unsigned nthreads, unsigned n)
{
	unsigned i, k;

	row->nthread_bytes = nthreads;
	row->thread_bytes = calloc(nthreads ? nthreads : 1, sizeof(*row->thread_bytes));
	if (!row->thread_bytes)
		abort();
	for (i = 0; i < n; i++)
		for (k = 0; k < nthreads; k++)
			row->thread_bytes[k] += (double)tb[(size_t)i * nthreads + k] / n;
}

static void cell(FILE *f, const struct sim_row *r, int k, int width, int prec)
{
	char buf[64];

	if (r->runs > 1)
		snprintf(buf, sizeof(buf), "%.*f+/-%.*f", prec, r->mean[k], prec, r->pm[k]);
	else
		snprintf(buf, sizeof(buf), "%.*f", prec, r->mean[k]);
	fprintf(f, " %*s", r->runs > 1 ? width + prec + 6 : width, buf);
}

static void hdr(FILE *f, const struct sim_row *r, const char *a, int width, int prec)
{
	fprintf(f, " %*s", r->runs > 1 ? width + prec + 6 : width, a);
}

static int wl_writes(int w)
{
	return w == WL_SEQWRITE || w == WL_RANDWRITE;
}

static int same_group(const struct sim_row *a, const struct sim_row *b)
{
	return a->workload == b->workload && !strcmp(a->device, b->device);
}

static void size_str(char *buf, size_t len, uint64_t v)
{
	if (v && !(v % (1ULL << 30)))
		snprintf(buf, len, "%llug", (unsigned long long)(v >> 30));
	else if (v && !(v % (1ULL << 20)))
		snprintf(buf, len, "%llum", (unsigned long long)(v >> 20));
	else if (v && !(v % 1024))
		snprintf(buf, len, "%lluk", (unsigned long long)(v >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

void report_table(FILE *f, const struct sim_row *rows, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i = j) {
		const struct sim_row *g = &rows[i];
		int startup = g->workload == WL_STARTUP;
		char bs[32], sz[32];

		for (j = i; j < n && same_group(&rows[j], g); j++)
			;
		size_str(bs, sizeof(bs), g->block);
		size_str(sz, sizeof(sz), g->size);
		fprintf(f, "%s%s on %s: block %s, size %s, seed %llu\n",
			sim_workload_name(g->workload),
			g->interleave ? " (interleaved)" : "", g->device, bs, sz,
			(unsigned long long)g->seed);
		if (g->runs > 1)
			fprintf(f, "  (mean +/- half the range over %u seeds)\n", g->runs);
		fprintf(f, "  App: the foreground threads' %s of %s as the application sees "
			"them%s;\n  Dev: requests the device completed%s. Jain: fairness of "
			"the threads' bytes (1 = equal).\n",
			wl_writes(g->workload) ? "writes" : "reads", bs,
			wl_writes(g->workload) ? "" : " (page-cache hits included)",
			g->mixed ? "; Read/Write MB/s: the device's, all threads" : "");
		fprintf(f, "%-14s %4s", "Scheduler", "Thr");
		hdr(f, g, "Rate MB/s", 10, 2);
		if (g->mixed) {
			hdr(f, g, "Read MB/s", 10, 2);
			hdr(f, g, "Write MB/s", 10, 2);
		}
		if (startup)
			hdr(f, g, "Startup ms", 11, 1);
		hdr(f, g, "App IO/s", 9, 1);
		hdr(f, g, "App avg ms", 11, 3);
		hdr(f, g, "App p99 ms", 11, 3);
		hdr(f, g, "App p99.9 ms", 11, 3);
		hdr(f, g, "App max ms", 11, 3);
		hdr(f, g, "App% >2s", 10, 4);
		hdr(f, g, "App% >10s", 10, 4);
		hdr(f, g, "Dev req/s", 10, 1);
		hdr(f, g, "Jain", 6, 3);
		fprintf(f, "\n");
		for (; i < j; i++) {
			const struct sim_row *r = &rows[i];

			fprintf(f, "%-14s %4u", r->sched, r->threads);
			cell(f, r, M_RATE, 10, 2);
			if (g->mixed) {
				cell(f, r, M_READ, 10, 2);
				cell(f, r, M_WRITE, 10, 2);
			}
			if (startup)
				cell(f, r, M_STARTUP, 11, 1);
			cell(f, r, M_IOPS, 9, 1);
			cell(f, r, M_AVG, 11, 3);
			cell(f, r, M_P99, 11, 3);
			cell(f, r, M_P999, 11, 3);
			cell(f, r, M_MAX, 11, 3);
			cell(f, r, M_OVER + SIM_OVER_2S, 10, 4);
			cell(f, r, M_OVER + SIM_OVER_10S, 10, 4);
			cell(f, r, M_DEV_IOPS, 10, 1);
			cell(f, r, M_JAIN, 6, 3);
			fprintf(f, "%s\n", r->truncated ? "  (time limit hit)" : "");
		}
		fprintf(f, "\n");
	}
}

/* Rows of one group and one scheduler, in the order given (thread counts). */
void report_wall(FILE *f, const struct sim_row *rows, size_t n)
{
	size_t i, j, a, b;

	for (i = 0; i < n; i = j) {
		const struct sim_row *g = &rows[i];
		const char *seen[64];
		size_t nseen = 0;

		for (j = i; j < n && same_group(&rows[j], g); j++)
			;
		fprintf(f, "The wall, %s on %s (first thread count where max latency "
			"jumps 10x or more):\n", sim_workload_name(g->workload), g->device);
		for (a = i; a < j; a++) {
			const struct sim_row *prev = NULL;
			int found = 0, dup = 0;
			size_t k;

			for (k = 0; k < nseen; k++)
				dup |= !strcmp(seen[k], rows[a].sched);
			if (dup || nseen == 64)
				continue;
			seen[nseen++] = rows[a].sched;
			for (b = i; b < j && !found; b++) {
				const struct sim_row *r = &rows[b];

				if (strcmp(r->sched, rows[a].sched))
					continue;
				if (prev && prev->mean[M_MAX] > 0 &&
				    r->mean[M_MAX] >= 10 * prev->mean[M_MAX]) {
					fprintf(f, "  %-14s at %u threads: max latency %.1f ms -> %.1f ms "
						"(at %u)\n", r->sched, r->threads,
						prev->mean[M_MAX], r->mean[M_MAX], prev->threads);
					found = 1;
				}
				prev = r;
			}
			if (!found)
				fprintf(f, "  %-14s none (max latency %.1f ms at %u threads)\n",
					rows[a].sched, prev ? prev->mean[M_MAX] : 0,
					prev ? prev->threads : 0);
		}
		fprintf(f, "\n");
	}
}

static void bar(FILE *f, double frac, int width)
{
	int k, len = (int)(frac * width + 0.5);

	if (len > width)
		len = width;
	if (len < 0)
		len = 0;
	for (k = 0; k < len; k++)
		fputc('#', f);
	for (; k < width; k++)
		fputc(' ', f);
}

void report_chart(FILE *f, const struct sim_row *rows, size_t n)
{
	size_t i, j, k;
	const int width = 40;

	for (i = 0; i < n; i = j) {
		const struct sim_row *g = &rows[i];
		double rmax = 0, lmax = 0, lmin = 0.1;
		int lat_metric = g->workload == WL_STARTUP ? M_STARTUP : M_MAX;
		unsigned prev_thr = 0;

		for (j = i; j < n && same_group(&rows[j], g); j++) {
			double rate = g->mixed ? rows[j].mean[M_READ] : rows[j].mean[M_RATE];

			rmax = rate > rmax ? rate : rmax;
			lmax = rows[j].mean[lat_metric] > lmax ? rows[j].mean[lat_metric] : lmax;
		}
		fprintf(f, "%s on %s: %s MB/s (linear) | %s ms (log scale, %.1f .. %.0f)\n",
			sim_workload_name(g->workload), g->device,
			g->mixed ? "read" : "rate",
			lat_metric == M_STARTUP ? "startup time" : "max latency", lmin, lmax);
		for (k = i; k < j; k++) {
			const struct sim_row *r = &rows[k];
			double rate = g->mixed ? r->mean[M_READ] : r->mean[M_RATE];
			double lat = r->mean[lat_metric], lf = 0;

			if (lmax > lmin && lat > lmin)
				lf = log10(lat / lmin) / log10(lmax / lmin);
			if (r->threads != prev_thr && k != i)
				fprintf(f, "\n");
			if (r->threads != prev_thr)
				fprintf(f, "%4u ", r->threads);
			else
				fprintf(f, "     ");
			prev_thr = r->threads;
			fprintf(f, "%-13s |", r->sched);
			bar(f, rmax > 0 ? rate / rmax : 0, width / 2);
			fprintf(f, "| %7.1f |", rate);
			bar(f, lf, width);
			fprintf(f, "| %9.1f\n", lat);
		}
		fprintf(f, "\n");
	}
}
