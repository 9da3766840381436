/* DESCRIPTION: deadline-read under streams of reads: an expired oldest write goes within writes_starved+2 batches; writes keep moving */
#include "fifo_observer.h"

static struct observer obs;

static void one(const char *workload, unsigned threads, ek_s64 write_expire, ek_s64 starved)
{
	struct sim_config c;
	struct sim_result r;
	ek_s64 batch;
	uint64_t bound;

	st_config(&c, "deadline-read", "hdd", workload, threads);
	c.bg = BG_WRITE;
	c.ios = 4000;
	c.time_limit_ns = 60ULL * 1000000000ULL;
	CHECK(!sim_config_tune(&c, "write_expire", write_expire), "write_expire");
	CHECK(!sim_config_tune(&c, "writes_starved", starved), "writes_starved");
	batch = st_param(&c, "fifo_batch");
	bound = (uint64_t)(starved + 2) * (uint64_t)batch;
	obs_attach(&obs, &c, EK_WRITE, (uint64_t)write_expire * 1000000);
	st_run(&c, &r);
	printf("%s, %u readers + writer, write_expire %lld ms, writes_starved %lld: %llu oldest "
	       "writes checked, at most %llu dispatches after expiry (bound %llu), %.1f ms late, "
	       "max write wait %.1f ms; reads %.2f MB/s, writes %.2f MB/s\n", workload, threads,
	       (long long)write_expire, (long long)starved, (unsigned long long)obs.checked,
	       (unsigned long long)obs.max_after_expiry, (unsigned long long)bound,
	       obs.max_late_ns / 1e6, obs.max_wait_ns / 1e6,
	       r.read_bytes / 1e6 / st_secs(r.elapsed_ns), r.write_bytes / 1e6 / st_secs(r.elapsed_ns));
	CHECK(obs.checked > 10, "too few writes checked");
	CHECK(obs.max_after_expiry <= bound, "an expired oldest write waited %llu dispatches",
	      (unsigned long long)obs.max_after_expiry);
	CHECK(obs.max_wait_ns <= (uint64_t)write_expire * 1000000 + bound * r.max_service_ns,
	      "a write waited %.1f ms", obs.max_wait_ns / 1e6);
	CHECK(r.write_bytes > 0, "writes starved completely");
	CHECK(!obs.overflow, "observer overflow");
	obs_free(&obs);
}

int main(void)
{
	one("randread", 256, 5000, 2);
	one("read-vs-write", 256, 500, 2);
	one("randread", 128, 200, 4);
	one("seqread", 256, 100, 1);
	return st_done();
}
