/* DESCRIPTION: --dirty-kb: buffered writers are paused to keep dirty data between freerun and the limit, and one flusher submits every writer's writeback, --flusher-us after it is woken; without it nothing changes */
#include "simtest.h"

static unsigned owners[8], nowners;
static uint64_t first_write_ns;

/* The distinct submitters of write requests, as the scheduler sees them. */
static void on_insert(void *a, const struct ek_rq *rq, uint64_t now)
{
	unsigned i;

	(void)a;
	if (rq->dir != EK_WRITE)
		return;
	if (first_write_ns == UINT64_MAX)
		first_write_ns = now;
	for (i = 0; i < nowners; i++)
		if (owners[i] == rq->owner)
			return;
	if (nowners < 8)
		owners[nowners++] = rq->owner;
}

static void run(uint64_t dirty_kb, uint64_t flusher_us, struct sim_result *r)
{
	struct sim_config c;

	/* four buffered 128 KiB writers against the hdd, 5 simulated seconds */
	st_config(&c, "deadline-read", "hdd", "seqwrite", 4);
	c.block = 128 << 10;
	c.size = 500000000000ULL;
	c.max_kb = 512;
	c.dirty_kb = dirty_kb;
	c.flusher_us = flusher_us;
	c.min_time_ns = c.time_limit_ns = 5ULL * 1000000000ULL;
	c.hooks.on_insert = on_insert;
	nowners = 0;
	first_write_ns = UINT64_MAX;
	st_run(&c, r);
}

int main(void)
{
	struct sim_result on, off, late;
	unsigned on_owners;
	uint64_t on_first;

	run(8192, 0, &on);
	on_owners = nowners;
	on_first = first_write_ns;
	run(8192, 20000, &late);
	printf("first write request at %.1f ms, %.1f ms with --flusher-us 20000\n",
	       (double)on_first / 1e6, (double)first_write_ns / 1e6);
	/* the writers wake the flusher at once: at 0 it runs then, else 20 ms later */
	CHECK(on_first == 0 && first_write_ns == 20000000,
	      "first write requests at %llu and %llu ns", (unsigned long long)on_first,
	      (unsigned long long)first_write_ns);
	run(0, 0, &off);
	printf("--dirty-kb 8192: dirty %.0f KiB on average, %llu pauses, %u submitter(s) of writes, "
	       "%.1f MB/s; without: dirty %.0f KiB, %u submitter(s), %.1f MB/s\n",
	       on.avg_dirty_kb, (unsigned long long)on.dirty_pauses, on_owners,
	       (double)on.write_bytes / 1e3 / ((double)on.elapsed_ns / 1e6),
	       off.avg_dirty_kb, nowners,
	       (double)off.write_bytes / 1e3 / ((double)off.elapsed_ns / 1e6));
	/* freerun is (8192 + 2048) / 2: above it the writers are paused, at 8192 held */
	CHECK(on.avg_dirty_kb > 5120 && on.avg_dirty_kb <= 8192 + 4 * 128,
	      "dirty %.0f KiB on average, not between freerun and the limit", on.avg_dirty_kb);
	CHECK(on.dirty_pauses > 0, "no writer was ever paused");
	CHECK(on_owners == 1, "%u submitters of writes, not the one flusher", on_owners);
	CHECK(on.violations == 0 && off.violations == 0, "contract violations");
	CHECK(off.avg_dirty_kb == 0 && off.dirty_pauses == 0, "dirty accounting without --dirty-kb");
	CHECK(nowners == 4, "%u submitters of writes without --dirty-kb, not the 4 writers", nowners);
	return st_failed;
}
