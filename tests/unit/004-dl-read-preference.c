/* DESCRIPTION: deadline-read: reads go first, writes get one batch per writes_starved read batches */
#include <string.h>

#include "testhost.h"

/* Directions of the whole drain as a string of 'R' and 'W'. */
static void drain_dirs(struct th *th, char *buf, unsigned int size)
{
	struct ek_rq *rq;
	unsigned int n = 0;

	while ((rq = th_dispatch(th))) {
		TH_CHECK(n + 1 < size, "too many requests");
		buf[n++] = rq->dir == EK_READ ? 'R' : 'W';
		th_complete(th, rq);
	}
	buf[n] = 0;
}

static void run(ek_s64 ws, ek_s64 fb, unsigned int nr_r, unsigned int nr_w,
		const char *expect)
{
	struct th *th = th_new(&ek_deadline_read_policy, 1000);
	char got[1000];
	unsigned int i;

	th_preset(th, "writes_starved", ws);
	th_preset(th, "fifo_batch", fb);
	th_start(th);
	/* Writes arrive first: arrival order must not beat read preference. */
	for (i = 0; i < nr_w; i++)
		th_add(th, EK_WRITE, 1000000 + i * 8ULL, 8);
	for (i = 0; i < nr_r; i++)
		th_add(th, EK_READ, i * 8ULL, 8);
	drain_dirs(th, got, sizeof(got));
	TH_CHECK(!strcmp(got, expect),
		 "writes_starved=%lld fifo_batch=%lld:\n  got    %s\n  wanted %s",
		 (long long)ws, (long long)fb, got, expect);
	TH_CHECK(th_stat(th, "dispatched_reads") == nr_r &&
		 th_stat(th, "dispatched_writes") == nr_w,
		 "dispatch statistics wrong");
	th_finish(th);
}

int main(void)
{
	/* Two read batches of 4, then one write batch, until reads run out. */
	run(2, 4, 16, 12, "RRRRRRRRWWWWRRRRRRRRWWWWWWWW");
	/* One read batch per write batch. */
	run(1, 2, 6, 6, "RRWWRRWWRRWW");
	/* writes_starved 0 (as in mq-deadline): pending writes always win. */
	run(0, 3, 6, 6, "WWWWWWRRRRRR");
	/* Only writes pending: they go. */
	run(2, 4, 0, 5, "WWWWW");
	/* Only reads. */
	run(2, 4, 5, 0, "RRRRR");
	/* A large writes_starved holds writes until reads are gone. */
	run(100, 2, 8, 3, "RRRRRRRRWWW");
	printf("ok\n");
	return 0;
}
