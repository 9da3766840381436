/* DESCRIPTION: ssd and null models: QD1 latency as configured, parallelism scales random reads, the write buffer absorbs bursts */
#include "simtest.h"

static double iops(const char *dev, const char *wl, unsigned threads, const char *p, ek_s64 v,
		   struct sim_result *r)
{
	struct sim_config c;

	st_config(&c, "noop", dev, wl, threads);
	c.size = 1ULL << 30;
	c.ios = 20000;
	if (p)
		CHECK(!sim_config_dev(&c, p, v), "param %s", p);
	st_run(&c, r);
	return (double)r->fg_ios / st_secs(r->elapsed_ns);
}

int main(void)
{
	struct sim_result r;
	double one, many, expect;

	one = iops("null", "randread", 1, "lat_us", 250, &r);
	printf("null, 250 us: %.0f IOPS at QD1 (expect 4000)\n", one);
	CHECK(one > 3960 && one < 4040, "null QD1 IOPS %.0f", one);

	one = iops("ssd", "randread", 1, NULL, 0, &r);
	expect = 1e6 / (80 + 4096.0 / 200);
	printf("ssd: %.0f IOPS at QD1 (expect %.0f from read_us + 4k at chan_mbs)\n", one, expect);
	CHECK(one > 0.9 * expect && one < 1.1 * expect, "ssd QD1 IOPS %.0f", one);
	many = iops("ssd", "randread", 64, NULL, 0, &r);
	printf("ssd: %.0f IOPS with 64 threads (8 channels)\n", many);
	CHECK(many > 4 * one, "ssd parallelism missing: %.0f vs %.0f", many, one);

	one = iops("ssd", "randwrite", 1, NULL, 0, &r);
	printf("ssd: random 4k writes into the buffer, %.2f MB/s\n", r.fg_bytes / 1e6 / st_secs(r.elapsed_ns));
	CHECK(r.lat_max_ns < 100000000ULL, "buffered writes took %.1f ms", r.lat_max_ns / 1e6);
	return st_done();
}
