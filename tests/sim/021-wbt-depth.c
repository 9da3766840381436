/* DESCRIPTION: wbt: while reads are slow, buffered writes' depth shrinks (below the default 16) and reads speed up against --wbt off; a policy asking for no wbt gets none */
#include "simtest.h"

/* Writes on the device at once, as seen at each dispatch. */
static unsigned wdev, wmax;
static double wsum;
static uint64_t nd;

static void on_dispatch(void *a, const struct ek_rq *rq, uint64_t now)
{
	(void)a, (void)now;
	if (rq->dir == EK_WRITE && ++wdev > wmax)
		wmax = wdev;
	wsum += wdev;
	nd++;
}

static void on_complete(void *a, const struct ek_rq *rq, uint64_t now)
{
	(void)a, (void)now;
	if (rq->dir == EK_WRITE)
		wdev--;
}

static double run(const struct ek_policy *p, int wbt, struct sim_result *r)
{
	struct sim_config c;

	st_config(&c, "noop", "hdd", "read-vs-write", 4);
	c.policy = p;
	/*
	 * A scheduler's pool (blk-mq's 64 at depth 32), not none's 32: with
	 * 64, writes that wbt lets through queue in the FIFO ahead of the
	 * reads, which is what its gain is measured against; with none's 32
	 * every request is on the disk, whose own ordering leaves wbt less to
	 * gain (1.1x here).
	 */
	c.nr_requests = 64;
	c.wbt = wbt;
	c.wdepth = 2048;		/* 128 MiB of dirty data in flight at most */
	c.size = 16 << 20;
	c.time_limit_ns = 600ULL * 1000000000ULL;
	CHECK(!sim_config_dev(&c, "qd", 32), "hdd has no qd");
	c.hooks.on_dispatch = on_dispatch;
	c.hooks.on_complete = on_complete;
	wdev = wmax = 0;
	wsum = 0;
	nd = 0;
	st_run(&c, r);
	return (double)r->fg_bytes / 1e6 / ((double)r->elapsed_ns / 1e9);
}

int main(void)
{
	struct ek_policy no_wbt = *sim_find_policy("noop");
	struct sim_result on, off, none;
	double rate_on, rate_off, depth_on, depth_off;

	rate_off = run(sim_find_policy("noop"), 0, &off);
	depth_off = wsum / (double)nd;
	rate_on = run(sim_find_policy("noop"), 1, &on);
	depth_on = wsum / (double)nd;
	printf("wbt off: reads %.2f MB/s, writes on the device %.1f on average; "
	       "wbt on: reads %.2f MB/s, %.1f on average, %llu scale-downs to depth %u\n",
	       rate_off, depth_off, rate_on, depth_on, (unsigned long long)on.wbt_scale_downs,
	       on.wbt_min_depth);
	CHECK(on.wbt_scale_downs > 0 && on.wbt_min_depth < 16, "wbt did not scale down (%llu, %u)",
	      (unsigned long long)on.wbt_scale_downs, on.wbt_min_depth);
	CHECK(depth_on < 0.75 * depth_off, "write depth %.1f with wbt, %.1f without", depth_on,
	      depth_off);
	CHECK(rate_on > 2 * rate_off, "reads %.2f MB/s with wbt, %.2f without", rate_on, rate_off);
	CHECK(!off.wbt_min_depth && !off.wbt_waits, "--wbt off still throttled");

	no_wbt.flags |= EK_POLICY_NO_WBT;
	run(&no_wbt, -1, &none);
	CHECK(!none.wbt_min_depth && !none.wbt_waits, "EK_POLICY_NO_WBT still throttled");
	return st_failed;
}
