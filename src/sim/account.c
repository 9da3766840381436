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

/* A bio the application waited for is done: its latency, its bytes. */
void acct_bio_done(struct sim *s, const struct sbio *b)
{
	const struct sthread *t = b->t;
	uint64_t lat = s->now - b->submit_ns, bytes = (uint64_t)b->nr * 512;
	struct sim_result *r = s->res;

	r->bios_done++;
	if (!t->bg) {
		/*
		 * After a cut at the time limit, bytes no longer count, but the
		 * latency of what was stuck does (measured when it drains).
		 */
		if (!s->ended) {
			r->fg_bytes += bytes;
			r->fg_ios++;
		}
		r->lat_n++;
		r->lat_sum_ns += lat;
		if (lat > r->lat_max_ns)
			r->lat_max_ns = lat;
		if (lat > 2000000000ULL)
			r->over_2s++;
		if (lat > 10000000000ULL)
			r->over_10s++;
	} else if (lat > r->bg_lat_max_ns) {
		r->bg_lat_max_ns = lat;
	}
	if (!s->ended) {
		if (b->dir == EK_WRITE)
			r->write_bytes += bytes;
		else
			r->read_bytes += bytes;
	}
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
void acct_service(struct sim *s, const struct ek_rq *rq)
{
	uint64_t service = s->now - rq->dispatch_ns;

	s->res->completed++;
	if (service > s->res->max_service_ns)
		s->res->max_service_ns = service;
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
