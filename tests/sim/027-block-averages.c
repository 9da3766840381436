/* DESCRIPTION: the block layer's time averages (what bench-kernel --probe samples): with more readers than requests every request is held and the rest sleep; writes merge to --max-kb; wbt's count stays within its limit */
#include "simtest.h"

int main(void)
{
	struct sim_config c;
	struct sim_result r;
	double sleepers;

	/*
	 * noop (none: the device's 32 requests) with 64 synchronous readers
	 * and a streaming writer: all 32 held and on the device nearly all
	 * the time, the other readers (and at times the writer) asleep.
	 */
	st_config(&c, "noop", "hdd", "read-vs-write", 64);
	c.nr_requests = 0;
	c.block = 128 << 10;
	c.bg_block = 128 << 10;
	c.readahead = 0;
	c.max_kb = 512;
	c.size = 500000000000ULL;
	c.min_time_ns = c.time_limit_ns = 10ULL * 1000000000ULL;
	st_run(&c, &r);
	sleepers = 64 + 1 - r.avg_tags_used;
	printf("noop, 64 readers + writer: held %.2f, asleep %.2f, on the device %.2f, "
	       "wbt %.2f (wb_normal %.2f), KiB per read %.0f, per write %.0f\n",
	       r.avg_tags_used, r.avg_tag_sleepers, r.avg_dev_inflight, r.avg_wbt_inflight,
	       r.avg_wb_normal, (double)r.dev_rq_sectors[EK_READ] / 2 / r.dev_rqs[EK_READ],
	       (double)r.dev_rq_sectors[EK_WRITE] / 2 / r.dev_rqs[EK_WRITE]);
	CHECK(r.avg_tags_used > 31.5 && r.avg_tags_used <= 32, "held %.2f of 32", r.avg_tags_used);
	CHECK(r.avg_dev_inflight > 31 && r.avg_dev_inflight <= r.avg_tags_used,
	      "on the device %.2f", r.avg_dev_inflight);
	CHECK(r.avg_tag_sleepers > 31 && r.avg_tag_sleepers <= sleepers + 0.01,
	      "asleep %.2f, at most %.2f", r.avg_tag_sleepers, sleepers);
	CHECK(r.avg_wb_normal > 0 && r.avg_wbt_inflight > 0, "wbt averages %.2f %.2f",
	      r.avg_wb_normal, r.avg_wbt_inflight);
	CHECK(r.dev_rqs[EK_READ] && r.dev_rq_sectors[EK_READ] == r.dev_rqs[EK_READ] * 256,
	      "reads not all 128 KiB");
	CHECK(r.dev_rqs[EK_WRITE] && r.dev_rq_sectors[EK_WRITE] == r.dev_rqs[EK_WRITE] * 1024,
	      "writes not all merged to 512 KiB");
	return st_failed;
}
