/* DESCRIPTION: deadline-read, hundreds of threads and mixed loads: an expired oldest read waits at most one batch (plus one starved write batch); light load keeps every read within read_expire plus that */
#include "fifo_observer.h"

static struct observer obs;

static void heavy(const char *workload, unsigned threads, ek_s64 read_expire)
{
	struct sim_config c;
	struct sim_result r;
	ek_s64 batch;

	st_config(&c, "deadline-read", "hdd", workload, threads);
	c.bg = BG_WRITE;
	c.ios = 4000;
	c.time_limit_ns = 60ULL * 1000000000ULL;
	CHECK(!sim_config_tune(&c, "read_expire", read_expire), "read_expire");
	batch = st_param(&c, "fifo_batch");
	obs_attach(&obs, &c, EK_READ, (uint64_t)read_expire * 1000000);
	st_run(&c, &r);
	printf("%s, %u threads + writer, read_expire %lld ms: %llu oldest-read dispatches checked; "
	       "at most %llu dispatches after expiry (bound %lld = 2 x fifo_batch), "
	       "%.1f ms late at most, max read wait %.1f ms, longest service %.1f ms, "
	       "writes %.1f MB/s\n", workload, threads, (long long)read_expire,
	       (unsigned long long)obs.checked, (unsigned long long)obs.max_after_expiry,
	       (long long)(2 * batch), obs.max_late_ns / 1e6, obs.max_wait_ns / 1e6,
	       r.max_service_ns / 1e6, r.write_bytes / 1e6 / st_secs(r.elapsed_ns));
	CHECK(obs.checked > 100, "too few reads checked");
	CHECK(obs.max_after_expiry <= (uint64_t)(2 * batch),
	      "an expired oldest read waited %llu dispatches", (unsigned long long)obs.max_after_expiry);
	/* in time: one batch's service (plus the request already on the device) */
	CHECK(obs.max_late_ns <= (uint64_t)(batch + 1) * r.max_service_ns,
	      "an expired oldest read waited %.1f ms past expiry, more than %lld services of "
	      "%.1f ms", obs.max_late_ns / 1e6, (long long)(batch + 1), r.max_service_ns / 1e6);
	CHECK(!obs.overflow, "observer overflow");
	obs_free(&obs);
}

static void light(unsigned threads)
{
	struct sim_config c;
	struct sim_result r;
	ek_s64 batch, expire;
	double bound;

	st_config(&c, "deadline-read", "hdd", "think-read", threads);
	c.bg = BG_WRITE;
	c.size = 32ULL << 20;
	expire = st_param(&c, "read_expire");
	batch = st_param(&c, "fifo_batch");
	obs_attach(&obs, &c, EK_READ, (uint64_t)expire * 1000000);
	st_run(&c, &r);
	bound = expire + 2.0 * batch * r.max_service_ns / 1e6;
	printf("think-read, %u readers + writer: every read dispatched within %.1f ms "
	       "(bound read_expire + 2 batches = %.1f ms)\n", threads, obs.max_wait_ns / 1e6, bound);
	CHECK(obs.max_wait_ns / 1e6 <= bound, "a read waited %.1f ms > %.1f ms",
	      obs.max_wait_ns / 1e6, bound);
	obs_free(&obs);
}

int main(void)
{
	heavy("randread", 256, 125);
	heavy("read-vs-write", 256, 125);
	heavy("seqread", 128, 50);
	light(4);
	light(8);
	return st_done();
}
