/* DESCRIPTION: one request pool for reads and writes, 2 x min(queue depth, 128) by default (noop, as none: the queue depth) or --nr-requests; a policy's limit_depth caps limited requests while sync reads still get requests */
#include "simtest.h"

/* Requests holding a tag as the policy sees them: inserted, not yet completed or merged away. */
static unsigned held, held_max;

static void on_insert(void *a, const struct ek_rq *rq, uint64_t now)
{
	(void)a, (void)rq, (void)now;
	if (++held > held_max)
		held_max = held;
}

static void on_gone(void *a, const struct ek_rq *rq, uint64_t now)
{
	(void)a, (void)rq, (void)now;
	held--;
}

static void on_merged_away(void *a, const struct ek_rq *gone, const struct ek_rq *into,
			   uint64_t now)
{
	(void)into;
	on_gone(a, gone, now);
}

/* noop, but async requests get at most 6 of the pool (as mq-deadline's async_depth) */
static ek_u32 limit_async(void *sd, ek_u8 dir, ek_u8 sync)
{
	(void)sd, (void)dir;
	return sync ? 0 : 6;
}

static void run(struct sim_config *c, struct sim_result *r)
{
	held = held_max = 0;
	c->hooks.on_insert = on_insert;
	c->hooks.on_complete = on_gone;
	c->hooks.on_merged_away = on_merged_away;
	c->time_limit_ns = 60ULL * 1000000000ULL;
	st_run(c, r);
}

int main(void)
{
	static const char *const devs[] = { "hdd", "ssd", "null" };
	struct ek_policy limited = *sim_find_policy("noop");
	struct sim_config c;
	struct sim_result r, base;
	size_t i;

	/*
	 * The default size follows the device's queue depth: a scheduler's
	 * is 2 x min(qd, 128), noop's (the kernel's none) the queue depth.
	 */
	for (i = 0; i < 6; i++) {
		const char *pol = i < 3 ? "deadline-read" : "noop";
		const char *dev = devs[i % 3];
		ek_s64 qd, want;

		st_config(&c, pol, dev, "read-vs-write", 8);
		c.nr_requests = 0;
		c.size = 8 << 20;
		qd = st_param(&c, "qd");
		want = i < 3 ? 2 * (qd < 128 ? qd : 128) : qd;
		run(&c, &r);
		CHECK(r.nr_requests == want, "%s on %s: pool of %u for queue depth %lld, want %lld",
		      pol, dev, r.nr_requests, (long long)qd, (long long)want);
		CHECK(r.tags_max <= r.nr_requests && held_max <= r.nr_requests,
		      "%s on %s: %u tags, %u requests held at once, pool %u", pol, dev,
		      r.tags_max, held_max, r.nr_requests);
		printf("%-13s %-5s qd %3lld: pool %3u, most held %3u\n", pol, dev, (long long)qd,
		       r.nr_requests, r.tags_max);
	}

	/* an explicit size is shared by reads and writes */
	st_config(&c, "noop", "ssd", "read-vs-write", 16);
	c.nr_requests = 10;
	c.size = 8 << 20;
	run(&c, &r);
	CHECK(r.nr_requests == 10 && r.tags_max == 10 && held_max <= 10 && r.tag_waits > 0,
	      "--nr-requests 10: pool %u, most %u tags, %u held, %llu waits", r.nr_requests,
	      r.tags_max, held_max, (unsigned long long)r.tag_waits);

	/* limit_depth: async writes stay within 6 while readers keep reading */
	st_config(&c, "noop", "ssd", "read-vs-write", 4);
	c.nr_requests = 32;
	c.size = 16 << 20;
	c.wbt = 0;
	run(&c, &base);
	limited.limit_depth = limit_async;
	c.policy = &limited;
	run(&c, &r);
	printf("async limit 6 of 32: most limited %u (without %u), reads %.1f MB/s (without %.1f)\n",
	       r.tags_limited_max, base.tags_max, r.fg_bytes / 1e6 / (r.elapsed_ns / 1e9),
	       base.fg_bytes / 1e6 / (base.elapsed_ns / 1e9));
	CHECK(r.tags_limited_max > 0 && r.tags_limited_max <= 6, "limited requests at once: %u",
	      r.tags_limited_max);
	CHECK(base.tags_max > 6, "without a limit the writer used only %u", base.tags_max);
	CHECK(r.fg_bytes == base.fg_bytes && !r.truncated, "the readers did not finish");
	return st_failed;
}
