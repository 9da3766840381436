/* DESCRIPTION: app_write_bytes: a buffered writer's bytes as it sees them (into the page cache under --dirty-kb, as fio counts them), apart from what the device wrote */
#include "simtest.h"

/* read-vs-write on hdd, one reader and the writer, as bench-sim-vs-kernel runs it */
static void run(uint64_t dirty_kb, struct sim_result *r)
{
	struct sim_config c;

	st_config_vs_kernel(&c, "noop", dirty_kb);
	st_run(&c, r);
}

int main(void)
{
	struct sim_result direct, dirty;
	double ahead;

	/* without a page cache the writer's bytes are those its bios got done */
	run(0, &direct);
	printf("no --dirty-kb: the writer %.2f MB, the device %.2f MB\n",
	       direct.app_write_bytes / 1e6, direct.write_bytes / 1e6);
	CHECK(direct.write_bytes > 0, "no writes");
	CHECK(direct.app_write_bytes == direct.write_bytes,
	      "without a page cache, the writer's %llu bytes are not the device's %llu",
	      (unsigned long long)direct.app_write_bytes, (unsigned long long)direct.write_bytes);

	/*
	 * Under 8 MiB of dirty limit the writer is ahead of the device by what
	 * is dirty or under writeback when the run is cut: more than the
	 * background threshold (2 MiB), at most the limit.
	 */
	run(8192, &dirty);
	ahead = (double)dirty.app_write_bytes - (double)dirty.write_bytes;
	printf("--dirty-kb 8192: the writer %.2f MB, the device %.2f MB, %.2f MiB ahead\n",
	       dirty.app_write_bytes / 1e6, dirty.write_bytes / 1e6, ahead / 1048576);
	CHECK(ahead > 2.0 * 1048576 && ahead <= 8.0 * 1048576,
	      "the writer %.2f MiB ahead of the device, not 2..8", ahead / 1048576);
	return st_done();
}
