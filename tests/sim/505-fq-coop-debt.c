/* DESCRIPTION: fair-queue: random readers in neighbouring small regions (close cooperators of each other on hdd) wait no longer than the documented round bound */
#include "fq_share.h"

#define MSEC 1000000ULL

/*
 * 32 and 64 readers of 4 KiB at random in 2 and 1 MiB each of 64 MiB (the
 * simulator's default randread): not seeky by distance, so idled for, and
 * each one's next read is near where its neighbour stopped. Served in its
 * neighbours' slots, out of turn, a queue had run its virtual start far
 * ahead of the class's and then waited for it: up to 57 s, 5% of the reads
 * over 10 s, in 50 s runs.
 */
int main(void)
{
	static const unsigned ns[] = { 32, 64 };
	struct sim_config c;
	struct sim_result r;
	unsigned i, seed;

	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		for (seed = 1; seed <= 2; seed++) {
			uint64_t b;

			st_config(&c, "fair-queue", "hdd", "randread", ns[i]);
			c.nr_requests = 0;	/* blk-mq's default, as the CLI */
			c.size = 64ULL << 20;
			c.seed = seed;
			c.min_time_ns = c.time_limit_ns = 50000 * MSEC;
			st_run(&c, &r);
			b = fs_round_bound_ns(&c, ns[i]);
			printf("N=%u seed %u: max latency %.0f ms (bound %.0f), %llu cooperator slots\n",
			       ns[i], seed, r.lat_max_ns / 1e6, b / 1e6,
			       (unsigned long long)st_counter(&r, "coop_switches"));
			CHECK(st_counter(&r, "coop_switches") > 0,
			      "N=%u: no cooperator slots: the case is not exercised", ns[i]);
			CHECK(r.lat_max_ns <= b, "N=%u seed %u: %.0f ms over the bound %.0f",
			      ns[i], seed, r.lat_max_ns / 1e6, b / 1e6);
		}
	}
	return st_done();
}
