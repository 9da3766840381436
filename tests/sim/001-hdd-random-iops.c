/* DESCRIPTION: hdd, QD1 4k random reads over the whole disk: 1/(avg seek + half rotation) IOPS within 10% */
#include "simtest.h"

int main(void)
{
	struct sim_config c;
	struct sim_result r;
	double expect, got, seek, half;

	st_config(&c, "noop", "hdd", "randread", 1);
	c.size = 1000ULL * 1000000000ULL;	/* the whole disk */
	c.ios = 4000;
	st_run(&c, &r);
	seek = (double)st_param(&c, "avg_seek_us") / 1e6;
	half = 30.0 / (double)st_param(&c, "rpm");
	expect = 1.0 / (seek + half);
	got = (double)r.fg_ios / st_secs(r.elapsed_ns);
	printf("avg seek %.2f ms + half rotation %.2f ms: expect %.1f IOPS, got %.1f (%+.1f%%)\n",
	       seek * 1e3, half * 1e3, expect, got, 100.0 * (got - expect) / expect);
	CHECK(got > 0.9 * expect && got < 1.1 * expect, "IOPS %.1f not within 10%% of %.1f", got, expect);

	/* the same at 5400 rpm with a slower seek */
	st_config(&c, "noop", "hdd", "randread", 1);
	c.size = 1000ULL * 1000000000ULL;
	c.ios = 4000;
	CHECK(!sim_config_dev(&c, "rpm", 5400) && !sim_config_dev(&c, "avg_seek_us", 12000) &&
	      !sim_config_dev(&c, "full_seek_us", 22000), "cannot set rpm / seek times");
	st_run(&c, &r);
	expect = 1.0 / (12e-3 + 30.0 / 5400);
	got = (double)r.fg_ios / st_secs(r.elapsed_ns);
	printf("5400 rpm, 12 ms average seek, 22 ms full stroke: expect %.1f IOPS, got %.1f (%+.1f%%)\n", expect, got,
	       100.0 * (got - expect) / expect);
	CHECK(got > 0.9 * expect && got < 1.1 * expect, "IOPS %.1f not within 10%% of %.1f", got, expect);
	return st_done();
}
