/* DESCRIPTION: --copy-mbs: a buffered writer dirties no faster than it copies, and under anticipatory its write batches end with the writes that waited (no refills while they drain) */
#include "simtest.h"

/* the writers' MB/s as they see them (into the page cache) */
static double app_write_mbs(const struct sim_result *r)
{
	return r->app_write_bytes / 1e6 / st_secs(r->elapsed_ns);
}

/* one buffered writer on the ssd, which writes faster than 50 MB/s */
static double lone_writer_mbs(uint64_t copy_mbs)
{
	struct sim_result r;
	struct sim_config c;

	st_config(&c, "noop", "ssd", "seqwrite", 1);
	c.block = 128 << 10;
	c.dirty_kb = 8192;
	c.copy_mbs = copy_mbs;
	c.size = 1ULL << 40;
	c.min_time_ns = c.time_limit_ns = 2000000000ULL;
	st_run(&c, &r);
	return app_write_mbs(&r);
}

/* the longest run of writes dispatched with no read between them */
static unsigned run_len, longest;

static void on_dispatch(void *arg, const struct ek_rq *rq, uint64_t now)
{
	(void)arg;
	(void)now;
	run_len = rq->dir == EK_WRITE ? run_len + 1 : 0;
	if (run_len > longest)
		longest = run_len;
}

/* anticipatory, one reader, the writer under 8 MiB of dirty limit */
static unsigned longest_write_run(uint64_t copy_mbs, struct sim_result *r)
{
	struct sim_config c;

	st_config_vs_kernel(&c, "anticipatory", 8192);
	c.copy_mbs = copy_mbs;
	c.hooks.on_dispatch = on_dispatch;
	run_len = longest = 0;
	st_run(&c, r);
	return longest;
}

int main(void)
{
	double free_mbs = lone_writer_mbs(0), slow_mbs = lone_writer_mbs(50);
	struct sim_result r0, r1;
	unsigned l0, l1;

	printf("lone writer, ssd: %.0f MB/s copying in no time, %.1f at --copy-mbs 50\n",
	       free_mbs, slow_mbs);
	CHECK(slow_mbs > 45 && slow_mbs <= 50.5, "--copy-mbs 50: the writer at %.1f MB/s",
	      slow_mbs);
	CHECK(free_mbs > 4 * slow_mbs, "copying in no time, the writer only %.0f MB/s", free_mbs);

	/*
	 * anticipatory holds the writes through a 500 ms read batch; wbt lets
	 * the writeback have 16 requests out. Copying in no time, the writer
	 * refills the queue while those drain into the disk's cache, and the
	 * write batch runs on; copying at fio's rate in the guest (140 MB/s),
	 * the next write comes after the batch has drained, as the kernel's
	 * traces show (13-17 writes per batch).
	 */
	l0 = longest_write_run(0, &r0);
	l1 = longest_write_run(140, &r1);
	printf("anticipatory, one reader: longest write batch %u requests copying in no time "
	       "(writer %.1f MB/s), %u at 140 MB/s (writer %.1f MB/s)\n", l0, app_write_mbs(&r0),
	       l1, app_write_mbs(&r1));
	CHECK(l1 <= 20, "at 140 MB/s a write batch of %u requests, more than wbt's 16 and a few",
	      l1);
	CHECK(l0 > 24, "copying in no time, no write batch longer than %u requests", l0);
	CHECK(r1.app_write_bytes < r0.app_write_bytes, "the copy's cost did not slow the writer");
	return st_done();
}
