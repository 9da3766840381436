/* DESCRIPTION: --write-end-us: a write request keeps its tag and wbt's slot until its bios end; --wbt-wake-us: how late a task wbt wakes asks again, apart from --tag-wake-us */
#include "simtest.h"

/* read-vs-write on hdd: READERS readers and one buffered writer, as bench-sim-vs-kernel runs it */
static void rvw(struct sim_config *c, unsigned readers)
{
	st_config(c, "noop", "hdd", "read-vs-write", readers);
	c->nr_requests = 0;
	c->block = c->bg_block = 128 << 10;
	c->readahead = 0;
	c->max_kb = 512;
	c->dirty_kb = 8192;
	c->dirty_bg_kb = 2048;
	c->size = 500000000000ULL;
	c->min_time_ns = c->time_limit_ns = 5000000000ULL;
}

/* requests held beyond those on the device, and the writes' share of that expected */
static void held_after_end(uint64_t end_us, double *extra, double *expect)
{
	struct sim_result r;
	struct sim_config c;

	rvw(&c, 1);
	c.write_end_us = end_us;
	st_run(&c, &r);
	*extra = r.avg_tags_used - r.avg_dev_inflight;
	*expect = r.elapsed_ns ? (double)r.dev_rqs[EK_WRITE] * end_us * 1000 / r.elapsed_ns : 0;
}

static double writer_mbs(int64_t wbt_wake_us)
{
	struct sim_result r;
	struct sim_config c;

	rvw(&c, 64);
	c.think_us = 900;
	c.tag_wake_us = 900;
	c.wbt_wake_us = wbt_wake_us;
	st_run(&c, &r);
	return r.elapsed_ns ? (double)r.write_bytes * 1e3 / r.elapsed_ns : 0;
}

int main(void)
{
	double none, none_exp, ended, ended_exp, as_tags, at_once;

	/*
	 * One reader and the writer: without --write-end-us every request
	 * held is on the device; with 2 ms each write holds its tag 2 ms
	 * more, its writes per second x 2 ms on average.
	 */
	held_after_end(0, &none, &none_exp);
	held_after_end(2000, &ended, &ended_exp);
	printf("requests held but not on the device: %.3f without, %.3f with 2 ms per write "
	       "(%.3f expected)\n", none, ended, ended_exp);
	CHECK(none > -0.001 && none < 0.001, "without --write-end-us, %.3f held off the device", none);
	CHECK(ended_exp > 0.05, "too few writes to tell (%.3f)", ended_exp);
	CHECK(ended > 0.8 * ended_exp && ended < 1.2 * ended_exp,
	      "with 2 ms per write, %.3f held off the device, not %.3f", ended, ended_exp);

	/*
	 * 64 readers short of requests: the writer, woken by wbt when its
	 * write ends, asks again at once or as late as the tag sleepers
	 * (900 us on average); asking at once it takes back the request its
	 * write freed.
	 */
	as_tags = writer_mbs(-1);
	at_once = writer_mbs(0);
	printf("the writer at 64 readers: %.2f MB/s woken as the tag sleepers, %.2f asking at once\n",
	       as_tags, at_once);
	CHECK(at_once > 4 * as_tags, "--wbt-wake-us 0: the writer %.2f MB/s, not well above %.2f",
	      at_once, as_tags);
	return st_done();
}
