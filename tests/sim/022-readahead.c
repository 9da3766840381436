/* DESCRIPTION: a sequential reader's read-ahead grows 16k, 32k, 64k, 128k and goes out a window ahead (async): a reader slower than the disk never waits after the first windows */
#include "simtest.h"

#define MAXW 8
static uint32_t sizes[MAXW];
static unsigned n;

static void on_insert(void *a, const struct ek_rq *rq, uint64_t now)
{
	(void)a, (void)now;
	if (n < MAXW)
		sizes[n++] = rq->nr_sectors;
}

int main(void)
{
	static const uint32_t expect[] = { 32, 64, 128, 256, 256, 256 };
	struct sim_config c;
	struct sim_result r;
	unsigned i;

	st_config(&c, "noop", "null", "seqread", 1);
	c.size = 16 << 20;
	c.readahead = 128 << 10;
	c.think_us = 20;	/* 640 us per 128k window; the device takes 100 us */
	c.hooks.on_insert = on_insert;
	st_run(&c, &r);
	printf("read-ahead requests (KiB):");
	for (i = 0; i < 8 && i < n; i++)
		printf(" %u", sizes[i] / 2);
	printf("; %llu reads of 4k, %llu requests, %llu reads waited\n",
	       (unsigned long long)r.fg_ios, (unsigned long long)r.inserted,
	       (unsigned long long)(r.lat_n - r.lat_hist[0]));
	for (i = 0; i < sizeof(expect) / sizeof(expect[0]); i++)
		CHECK(i < n && sizes[i] == expect[i], "window %u: %u sectors, expected %u", i,
		      i < n ? sizes[i] : 0, expect[i]);
	/* async: only the first windows' reads wait (the first read of each) */
	CHECK(r.lat_n - r.lat_hist[0] <= 3, "%llu reads waited for the disk",
	      (unsigned long long)(r.lat_n - r.lat_hist[0]));
	CHECK(r.fg_ios == (16 << 20) / 4096, "%llu reads", (unsigned long long)r.fg_ios);
	CHECK(r.inserted < r.fg_ios / 20, "%llu requests for %llu reads: read-ahead did not batch",
	      (unsigned long long)r.inserted, (unsigned long long)r.fg_ios);
	return st_failed;
}
