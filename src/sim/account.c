// SPDX-License-Identifier: GPL-2.0
/*
 * What a run records: counts, bytes and latencies in struct sim_result, and
 * the first violation of the host contract. The host and the workloads call
 * in here at the points that matter; nothing else writes a result's totals.
 */
#include <stdarg.h>
#include "sim_int.h"

void sim_violation(struct sim *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->res->violations++) {
		int n = snprintf(s->res->violation, sizeof(s->res->violation),
				 "t=%llu ns: ", (unsigned long long)s->now);

		va_start(ap, fmt);
		vsnprintf(s->res->violation + n, sizeof(s->res->violation) - n, fmt, ap);
		va_end(ap);
	}
}

/* A bio is done: what the device transferred (every thread's, within the run). */
void acct_bio_done(struct sim *s, const struct sbio *b)
{
	struct sim_result *r = s->res;
	uint64_t bytes = (uint64_t)b->nr * 512;

	r->bios_done++;
	if (s->ended)
		return;
	if (b->dir == EK_WRITE)
		r->write_bytes += bytes;
	else
		r->read_bytes += bytes;
}

/* A writer wrote bytes, as it sees it: dirtied them, or its bio is done. */
void acct_app_write(struct sim *s, uint64_t bytes)
{
	if (!s->ended) {
		s->res->app_write_bytes += bytes;
		s->res->app_write_end_ns = s->now;
	}
}

static unsigned lat_bucket(uint64_t ns)
{
	unsigned e;

	if (ns < (1u << SIM_LAT_SUB_BITS))
		return (unsigned)ns;
	e = sim_ilog2(ns);
	return (e - SIM_LAT_SUB_BITS + 1) * (1u << SIM_LAT_SUB_BITS) +
	       (unsigned)((ns >> (e - SIM_LAT_SUB_BITS)) & ((1u << SIM_LAT_SUB_BITS) - 1));
}

/* the largest value of bucket i: a quantile is never understated */
static uint64_t bucket_value(unsigned i)
{
	unsigned sub = 1u << SIM_LAT_SUB_BITS, e;
	uint64_t lo, width;

	if (i < sub)
		return i;
	e = i / sub + SIM_LAT_SUB_BITS - 1;
	width = 1ULL << (e - SIM_LAT_SUB_BITS);
	lo = (1ULL << e) + (uint64_t)(i % sub) * width;
	return lo + width - 1;
}

uint64_t sim_lat_quantile(const struct sim_result *r, double q)
{
	uint64_t need = (uint64_t)(q * (double)r->lat_n + 0.999999), seen = 0;
	unsigned i;

	if (!r->lat_n)
		return 0;
	if (!need)
		need = 1;
	for (i = 0; i < SIM_LAT_BUCKETS; i++) {
		seen += r->lat_hist[i];
		if (seen >= need)
			return bucket_value(i) < r->lat_max_ns ? bucket_value(i) : r->lat_max_ns;
	}
	return r->lat_max_ns;
}

/*
 * An application I/O is done: a read() of --block (which may have been a
 * page-cache hit) or a write's bio. Latency from the call to the data.
 */
const uint64_t sim_over_ns[SIM_OVER_NR] = {
	[SIM_OVER_100MS] = 100000000ULL, [SIM_OVER_500MS] = 500000000ULL,
	[SIM_OVER_2S] = 2000000000ULL, [SIM_OVER_10S] = 10000000000ULL,
};

void acct_app_io(struct sim *s, struct sthread *t, uint64_t lat, uint64_t bytes)
{
	struct sim_result *r = s->res;
	int k;

	if (t->bg) {
		if (lat > r->bg_lat_max_ns)
			r->bg_lat_max_ns = lat;
		return;
	}
	/*
	 * After a cut at the time limit, bytes no longer count, but the
	 * latency of what was stuck does (measured when it drains).
	 */
	if (!s->ended) {
		r->fg_bytes += bytes;
		r->fg_ios++;
		t->app_bytes += bytes;
	}
	r->lat_n++;
	r->lat_sum_ns += lat;
	r->lat_hist[lat_bucket(lat)]++;
	if (lat > r->lat_max_ns)
		r->lat_max_ns = lat;
	for (k = 0; k < SIM_OVER_NR && lat > sim_over_ns[k]; k++)
		r->over[k]++;
}

/* Each foreground thread's bytes; Jain's index (sum x)^2 / (n sum x^2), 1 = all equal. */
void acct_threads(struct sim *s)
{
	double sum = 0, sq = 0;
	unsigned i, n = 0;

	for (i = 0; i < s->nthreads; i++) {
		const struct sthread *t = &s->threads[i];

		if (t->bg)
			continue;
		if (s->cfg->thread_bytes && n < s->cfg->threads)
			s->cfg->thread_bytes[n] = t->app_bytes;
		sum += (double)t->app_bytes;
		sq += (double)t->app_bytes * (double)t->app_bytes;
		n++;
	}
	s->res->nthread_bytes = n;
	s->res->jain = sq > 0 ? sum * sum / ((double)n * sq) : 1;
}

/* The policy handed rq to the device: how long it waited in the scheduler. */
void acct_dispatch(struct sim *s, const struct ek_rq *rq)
{
	uint64_t wait = s->now - rq->arrival_ns;

	s->res->dispatched++;
	if (wait > s->res->max_wait_ns[rq->dir & 1])
		s->res->max_wait_ns[rq->dir & 1] = wait;
}

/* The device finished rq: how long it took there. */
void acct_service(struct sim *s, const struct srq *r)
{
	const struct ek_rq *rq = &r->rq;
	uint64_t service = s->now - r->issue_ns;

	s->res->completed++;
	if (!s->ended) {
		s->res->dev_completed++;
		if (rq->kind == EK_KIND_NORMAL) {
			s->res->dev_rqs[rq->dir & 1]++;
			s->res->dev_rq_sectors[rq->dir & 1] += rq->nr_sectors;
		}
	}
	if (service > s->res->max_service_ns)
		s->res->max_service_ns = service;
}

void acct_counters(struct sim *s)
{
	const struct ek_policy *p = s->pol;
	struct sim_result *r = s->res;
	unsigned i;

	r->nr_counters = p->nr_counters;	/* at most EK_MAX_COUNTERS: ek_policy_load */
	for (i = 0; i < r->nr_counters; i++) {
		r->counter_name[i] = p->counters[i].name;
		r->counter[i] = p->read_counter(s->sd, i);
	}
}

/* Every request and bio accounted for at the end. */
void acct_end_checks(struct sim *s)
{
	struct sim_result *res = s->res;

	if (res->inserted != res->completed + res->merged_away)
		sim_violation(s, "requests lost: %llu inserted, %llu completed, %llu merged away",
			      (unsigned long long)res->inserted,
			      (unsigned long long)res->completed,
			      (unsigned long long)res->merged_away);
	if (res->bios != res->bios_done)
		sim_violation(s, "bios lost: %llu submitted, %llu completed",
			      (unsigned long long)res->bios, (unsigned long long)res->bios_done);
}

/*
 * The block layer's state, integrated over time until the run ends, for the
 * same means bench-kernel.sh --probe takes from the kernel's debugfs.
 */
void acct_block_time(struct sim *s, uint64_t t)
{
	uint64_t dt;

	if (s->ended || t <= s->now)
		return;
	dt = t - s->now;
	s->blk.ns += dt;
	s->blk.wb_normal += dt * (s->wbt.enabled ? s->wbt.wb_normal : 0);
	s->blk.wbt_inflight += dt * s->wbt.inflight;
	s->blk.tags_used += dt * s->tags.used;
	s->blk.tag_sleepers += dt * s->tags.wait.n;
	s->blk.dev_inflight += dt * s->dev_inflight;
	s->blk.dirty_pages += dt * s->dirty.nr;
}

void acct_block_end(struct sim *s)
{
	struct sim_result *r = s->res;
	double ns = (double)s->blk.ns;

	if (!s->blk.ns)
		return;
	r->avg_wb_normal = (double)s->blk.wb_normal / ns;
	r->avg_wbt_inflight = (double)s->blk.wbt_inflight / ns;
	r->avg_tags_used = (double)s->blk.tags_used / ns;
	r->avg_tag_sleepers = (double)s->blk.tag_sleepers / ns;
	r->avg_dev_inflight = (double)s->blk.dev_inflight / ns;
	r->avg_dirty_kb = (double)s->blk.dirty_pages * 4 / ns;
	r->dirty_pauses = s->dirty.pauses;
}
