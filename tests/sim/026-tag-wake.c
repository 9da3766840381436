/* DESCRIPTION: --tag-wake-us: freed requests wake sleepers in sbitmap's batches (or --tag-wake-batch's) to ask again later, and a submitter asking in between takes them; by default each goes straight to the first sleeper */
#include "simtest.h"

#define NTHR 8

/*
 * 8 random readers that ask again at once (think 0) share 4 requests on a
 * fast device: handed to the first sleeper, the requests go round all 8
 * readers; woken to ask 1 ms later, a sleeper finds each freed request
 * taken by the reader whose read just completed.
 */
static double share_of_top4(int64_t wake_us, struct sim_result *r)
{
	uint64_t bytes[NTHR] = { 0 }, top = 0, all = 0;
	struct sim_config c;
	unsigned i, j;

	st_config(&c, "noop", "ssd", "randread", NTHR);
	c.nr_requests = 4;
	c.think_us = 0;
	c.ios = 1000;
	c.tag_wake_us = wake_us;
	c.min_time_ns = c.time_limit_ns = 2000000000ULL;
	c.thread_bytes = bytes;
	st_run(&c, r);
	for (i = 0; i < NTHR; i++) {
		for (j = i + 1; j < NTHR; j++)
			if (bytes[j] > bytes[i]) {
				uint64_t x = bytes[i];

				bytes[i] = bytes[j];
				bytes[j] = x;
			}
		all += bytes[i];
		if (i < 4)
			top += bytes[i];
	}
	CHECK(all > 0, "no bytes read (wake %lld us)", (long long)wake_us);
	return all ? (double)top / (double)all : 0;
}

/*
 * sbitmap's wake_batch for the pool a policy gets on a device, or
 * --tag-wake-batch's (0: sbitmap's)
 */
static unsigned wake_batch(const char *sched, const char *dev, unsigned nr_requests,
			   unsigned given)
{
	struct sim_result r;
	struct sim_config c;

	st_config(&c, sched, dev, "randread", 1);
	c.nr_requests = nr_requests;
	c.tag_wake_batch = given;
	c.ios = 10;
	c.tag_wake_us = 0;
	st_run(&c, &r);
	return r.tag_wake_batch;
}

/*
 * Requests held on average by 48 random readers on hdd, each thinking 1 ms
 * after its read, woken sleepers asking again at once: a request freed
 * before its batch is complete lies free until its reader comes back.
 */
static double held(unsigned nr_requests, int64_t wake_us, unsigned batch)
{
	struct sim_result r;
	struct sim_config c;

	st_config(&c, "noop", "hdd", "randread", 48);
	c.nr_requests = nr_requests;
	c.tag_wake_batch = batch;
	c.think_us = 1000;
	c.ios = 1000000;
	c.min_time_ns = c.time_limit_ns = 5000000000ULL;
	c.tag_wake_us = wake_us;
	st_run(&c, &r);
	return r.avg_tags_used;
}

int main(void)
{
	/* 4 as the 6.12 guest's debugfs shows for none on ekdisk-hdd (32 driver tags);
	 * min_shallow_depth 1 (a policy with limit_depth): one bit of each word */
	/* given: --tag-wake-batch (7.2's mq-deadline: 8, its async_depth's) */
	static const struct { const char *sched; unsigned nr_requests, given, batch; } batches[] = {
		{ "noop", 0, 0, 4 }, { "noop", 128, 0, 8 }, { "noop", 16, 0, 2 },
		{ "deadline-read", 0, 0, 1 }, { "fair-queue", 0, 0, 1 },
		{ "mq-deadline", 0, 0, 1 }, { "mq-deadline", 0, 8, 8 }, { "noop", 0, 1, 1 },
	};
	struct sim_result handed, woken;
	double h, w, b4, b1, b1of8, off;
	unsigned i;

	for (i = 0; i < sizeof(batches) / sizeof(batches[0]); i++) {
		unsigned got = wake_batch(batches[i].sched, "hdd", batches[i].nr_requests,
					  batches[i].given);

		CHECK(got == batches[i].batch, "%s, nr_requests %u, given %u: wake_batch %u, not %u",
		      batches[i].sched, batches[i].nr_requests, batches[i].given, got,
		      batches[i].batch);
	}

	b4 = held(32, 0, 0);
	off = held(32, -1, 0);
	b1 = held(8, 0, 0);
	b1of8 = held(32, 0, 1);
	printf("requests held of 32, 48 readers: %.2f woken in batches of 4, %.2f handed on, "
	       "%.2f in batches of 1 (--tag-wake-batch 1); of 8 (batches of 1): %.2f\n",
	       b4, off, b1of8, b1);
	CHECK(b4 < 31.8, "batches of 4: %.2f of 32 requests held, none left free", b4);
	CHECK(off > 31.99, "handed on: only %.2f of 32 requests held", off);
	CHECK(b1 > 7.99, "batches of 1: only %.2f of 8 requests held", b1);
	CHECK(b1of8 > 31.99, "--tag-wake-batch 1: only %.2f of 32 requests held", b1of8);

	h = share_of_top4(-1, &handed);
	w = share_of_top4(1000, &woken);
	printf("the 4 busiest of 8 readers over 4 requests: %.1f%% of the bytes handed to "
	       "the first sleeper, %.1f%% woken to ask again 1 ms later (%llu / %llu sleeps)\n",
	       100 * h, 100 * w, (unsigned long long)handed.tag_waits,
	       (unsigned long long)woken.tag_waits);
	CHECK(h < 0.55, "handed to the first sleeper, 4 readers still got %.1f%%", 100 * h);
	CHECK(w > 0.90, "woken to ask again, the 4 holders got only %.1f%%", 100 * w);
	CHECK(woken.tags_max <= 4 && handed.tags_max <= 4, "more than 4 requests at once");
	return st_done();
}
