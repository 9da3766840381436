/* DESCRIPTION: hdd, sequential reads from LBA 0 run at the outer zone's rate within 10% */
#include "simtest.h"

static void one(ek_s64 outer, uint64_t block, uint64_t readahead)
{
	struct sim_config c;
	struct sim_result r;
	double got;

	st_config(&c, "noop", "hdd", "seqread", 1);
	/* the inner zone may not be faster than the outer one */
	CHECK(!sim_config_dev(&c, "inner_mbs", outer / 2) && !sim_config_dev(&c, "outer_mbs", outer),
	      "cannot set outer_mbs");
	c.block = block;
	c.readahead = readahead;
	c.max_kb = block / 1024 > 512 ? (unsigned)(block / 1024) : 512;
	c.size = 1ULL << 30;
	st_run(&c, &r);
	got = (double)r.fg_bytes / 1e6 / st_secs(r.elapsed_ns);
	printf("outer zone %lld MB/s, %llu KiB reads (read-ahead %llu KiB): %.2f MB/s (%+.1f%%)\n",
	       (long long)outer, (unsigned long long)block >> 10,
	       (unsigned long long)readahead >> 10, got, 100.0 * (got - outer) / outer);
	CHECK(got > 0.9 * outer && got < 1.1 * outer, "rate %.2f not within 10%% of %lld",
	      got, (long long)outer);
}

int main(void)
{
	one(150, 1 << 20, 0);
	one(150, 128 << 10, 0);
	one(150, 4096, 128 << 10);	/* tiobench's 4k through read-ahead */
	one(100, 1 << 20, 0);
	return st_done();
}
