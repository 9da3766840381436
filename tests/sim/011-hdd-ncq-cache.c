/* DESCRIPTION: hdd options: NCQ reordering raises random IOPS with deep queues; without the read-ahead cache, back-to-back 4k reads lose a rotation each */
#include "simtest.h"

static double run(const char *wl, unsigned threads, ek_s64 qd, ek_s64 cache, uint64_t size,
		  uint64_t readahead, int bytes)
{
	struct sim_config c;
	struct sim_result r;

	st_config(&c, "noop", "hdd", wl, threads);
	/* write cache off: with it, the cache would reorder the writes, not NCQ */
	CHECK(!sim_config_dev(&c, "qd", qd) && !sim_config_dev(&c, "cache", cache) &&
	      !sim_config_dev(&c, "wce", 0), "params");
	c.size = size;
	c.ios = 3000;
	c.readahead = readahead;
	st_run(&c, &r);
	if (bytes)
		return (double)r.fg_bytes / 1e6 / st_secs(r.elapsed_ns);
	return (double)r.fg_ios / st_secs(r.elapsed_ns);
}

int main(void)
{
	/* one writer with many random writes in flight over the whole disk, FIFO order */
	double qd1 = run("randwrite", 1, 1, 1, 1000ULL * 1000000000ULL, 0, 0);
	double ncq = run("randwrite", 1, 32, 1, 1000ULL * 1000000000ULL, 0, 0);
	double nocache = run("seqread", 1, 1, 0, 4ULL << 20, 0, 1);
	double percache = 4096 / (60.0 / 7200) / 1e6;

	printf("random 4k writes over the disk, noop: %.1f IOPS at QD1, %.1f IOPS with NCQ 32\n", qd1, ncq);
	CHECK(ncq > 1.5 * qd1, "NCQ gained too little: %.1f vs %.1f", ncq, qd1);
	printf("4k sequential reads without cache or read-ahead: %.3f MB/s "
	       "(one 4k per rotation: %.3f MB/s)\n", nocache, percache);
	CHECK(nocache > 0.9 * percache && nocache < 1.1 * percache, "%.3f MB/s", nocache);
	return st_done();
}
