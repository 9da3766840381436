/* DESCRIPTION: anticipatory on hdd: a sync reader against a streaming writer reads several times faster than under deadline-read or with antic_expire=0, writes still progress, read latency stays bounded */
#include "simtest.h"

struct lat {
	uint64_t max_wait[2];
};

static void on_dispatch(void *arg, const struct ek_rq *rq, uint64_t now)
{
	struct lat *l = arg;

	if (now - rq->arrival_ns > l->max_wait[rq->dir & 1])
		l->max_wait[rq->dir & 1] = now - rq->arrival_ns;
}

static void run(const char *sched, ek_s64 antic, struct sim_result *r,
		struct lat *l)
{
	struct sim_config c;

	st_config(&c, sched, "hdd", "read-vs-write", 1);
	/* no NCQ: the scheduler alone orders the I/O, as anticipation assumes */
	if (sim_config_dev(&c, "qd", 1)) {
		printf("FAIL: hdd has no qd\n");
		exit(1);
	}
	c.size = 256ULL << 20;	/* ~2 s: several read and write batches */
	c.time_limit_ns = 60ULL * 1000000000ULL;
	if (antic >= 0 && sim_config_tune(&c, "antic_expire", antic)) {
		printf("FAIL: antic_expire %lld refused\n", (long long)antic);
		exit(1);
	}
	memset(l, 0, sizeof(*l));
	c.hooks.arg = l;
	c.hooks.on_dispatch = on_dispatch;
	st_run(&c, r);
}

int main(void)
{
	struct sim_result as, off, dl;
	struct lat las, loff, ldl;
	double ras, roff, rdl, was;

	run("anticipatory", -1, &as, &las);
	run("anticipatory", 0, &off, &loff);
	run("deadline-read", -1, &dl, &ldl);
	ras = as.read_bytes / 1e6 / st_secs(as.elapsed_ns);
	was = as.write_bytes / 1e6 / st_secs(as.elapsed_ns);
	roff = off.read_bytes / 1e6 / st_secs(off.elapsed_ns);
	rdl = dl.read_bytes / 1e6 / st_secs(dl.elapsed_ns);
	printf("read MB/s: anticipatory %.2f (writes %.2f MB/s), antic_expire=0 %.2f, deadline-read %.2f\n",
	       ras, was, roff, rdl);
	printf("max wait read/write ms: anticipatory %.1f/%.1f, antic_expire=0 %.1f/%.1f\n",
	       las.max_wait[0] / 1e6, las.max_wait[1] / 1e6,
	       loff.max_wait[0] / 1e6, loff.max_wait[1] / 1e6);
	CHECK(!as.truncated, "anticipatory run hit the time limit");
	CHECK(ras >= 3 * rdl, "reads %.2f MB/s, not 3x deadline-read's %.2f", ras, rdl);
	CHECK(ras >= 3 * roff, "reads %.2f MB/s, not 3x antic_expire=0's %.2f", ras, roff);
	CHECK(was > 1.0, "writes starved: %.2f MB/s", was);
	/* read_expire + write_batch_expire + a request or two of service */
	CHECK(las.max_wait[0] <= 300 * 1000000ULL, "a read waited %.1f ms",
	      las.max_wait[0] / 1e6);
	return st_done();
}
