/* DESCRIPTION: baselines behave as documented: on a QD1 disk the 2.4 elevator makes a reader behind a streaming writer wait seconds (bounded, not starved), noop serves in arrival order, deadline-read does neither */
#include "simtest.h"

struct order {
	uint64_t last_arrival;
	uint64_t out_of_order, n;
};

static void fifo_check(void *arg, const struct ek_rq *rq, uint64_t now)
{
	struct order *o = arg;

	(void)now;
	if (rq->arrival_ns < o->last_arrival)
		o->out_of_order++;
	o->last_arrival = rq->arrival_ns;
	o->n++;
}

static double read_rate(const char *sched, uint64_t *max_lat)
{
	struct sim_config c;
	struct sim_result r;

	/* QD1 and a small cache: the scheduler, not the disk, orders the I/O */
	st_config(&c, sched, "hdd-2002", "read-vs-write", 1);
	c.wbt = 0;	/* 2.4 had no writeback throttling to hide the elevator */
	c.size = 16ULL << 20;
	c.time_limit_ns = 30ULL * 1000000000ULL;
	st_run(&c, &r);
	*max_lat = r.lat_max_ns;
	return r.read_bytes / 1e6 / st_secs(r.elapsed_ns);
}

int main(void)
{
	uint64_t lat_dl, lat_el, lat_noop;
	double dl = read_rate("deadline-read", &lat_dl);
	double el = read_rate("elevator", &lat_el);
	double noop = read_rate("noop", &lat_noop);
	struct sim_config c;
	struct sim_result r;
	struct order o = { 0, 0, 0 };

	printf("read-vs-write, 1 reader: deadline-read %.3f MB/s (max %.0f ms), noop %.3f MB/s "
	       "(max %.0f ms), elevator %.3f MB/s (max %.0f ms)\n", dl, lat_dl / 1e6, noop,
	       lat_noop / 1e6, el, lat_el / 1e6);
	CHECK(el < dl / 10, "elevator did not slow the reader down (%.3f vs %.3f MB/s)", el, dl);
	CHECK(lat_el > 10 * lat_dl, "elevator's max read latency %.0f ms is not far worse",
	      lat_el / 1e6);
	/* 2.4's bound: a read is passed over at most 8192/16 times */
	CHECK(lat_el < 30000000000ULL, "elevator let a read wait %.0f ms", lat_el / 1e6);
	CHECK(lat_dl < 2000000000ULL, "deadline-read let a read wait %.0f ms", lat_dl / 1e6);

	/* noop: dispatch order is arrival order (no requeues, at_head unused) */
	st_config(&c, "noop", "hdd", "randread", 64);
	c.bg = BG_WRITE;
	c.ios = 2000;
	c.hooks.arg = &o;
	c.hooks.on_dispatch = fifo_check;
	st_run(&c, &r);
	printf("noop: %llu dispatches, %llu out of arrival order\n", (unsigned long long)o.n,
	       (unsigned long long)o.out_of_order);
	CHECK(o.n > 1000 && o.out_of_order == 0, "noop reordered requests");
	return st_done();
}
