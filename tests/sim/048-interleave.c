/* DESCRIPTION: --interleave: N sequential readers share one region, thread i reading blocks i, i + N, ... once each per pass; deadline-read joins one reader's read to another's queued one, fair-queue (its own queues only) never */
#include "simtest.h"

#define THREADS 3
#define BLOCK 8				/* sectors */
#define SIZE (3ULL << 20)		/* bytes: 768 blocks */

static unsigned bad, reads[THREADS];
static uint64_t seen[SIZE / 512 / BLOCK / 64];

/* At insert each request is one block of its thread's own (merges come later). */
static void on_insert(void *a, const struct ek_rq *rq, uint64_t now)
{
	uint64_t b = rq->sector / BLOCK;

	(void)a, (void)now;
	if (rq->owner < 1 || rq->owner > THREADS || rq->sector % BLOCK ||
	    rq->nr_sectors != BLOCK || rq->sector + BLOCK > SIZE / 512 ||
	    b % THREADS != rq->owner - 1 || (seen[b / 64] >> (b % 64) & 1))
		bad++;
	else
		reads[rq->owner - 1]++;
	if (b < SIZE / 512 / BLOCK)
		seen[b / 64] |= 1ULL << (b % 64);
}

static void run(const char *sched, struct sim_result *r)
{
	struct sim_config c;

	bad = 0;
	memset(reads, 0, sizeof(reads));
	memset(seen, 0, sizeof(seen));
	st_config(&c, sched, "hdd", "seqread", THREADS);
	/*
	 * One request at a time on the disk: the others' reads queue, and
	 * a reader's next block can meet the one before it, another's.
	 */
	if (sim_config_dev(&c, "qd", 1))
		exit(1);
	c.interleave = 1;
	c.readahead = 0;
	c.size = SIZE;
	c.think_us = 200;
	c.hooks.on_insert = on_insert;
	st_run(&c, r);
	printf("%s: %llu reads, %llu back merges, %.1f MB/s\n", sched,
	       (unsigned long long)r->fg_ios, (unsigned long long)r->back_merges,
	       (double)r->fg_ios * BLOCK * 512 / ((double)r->elapsed_ns / 1e3));
}

int main(void)
{
	struct sim_result r;

	run("fair-queue", &r);
	CHECK(!bad, "fair-queue: %u requests not a block of their thread's own, once", bad);
	CHECK(reads[0] == SIZE / 512 / BLOCK / THREADS && reads[1] == reads[0] &&
	      reads[2] == reads[0], "fair-queue: %u, %u and %u reads, not %llu each",
	      reads[0], reads[1], reads[2], SIZE / 512 / BLOCK / THREADS);
	CHECK(!r.back_merges && !r.front_merges, "fair-queue merged one reader's read into another's");

	run("deadline-read", &r);
	CHECK(r.fg_ios == SIZE / 512 / BLOCK, "deadline-read: %llu reads", (unsigned long long)r.fg_ios);
	CHECK(r.back_merges, "deadline-read merged no read into another reader's");

	if (!st_failed)
		printf("PASS\n");
	return st_failed;
}
