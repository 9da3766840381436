/* DESCRIPTION: deadline-read: dispatch is an ascending sector sweep that wraps to the FIFO head */
#include "testhost.h"

#define MS EK_NSEC_PER_MSEC

static ek_u64 next_sector(struct th *th)
{
	struct ek_rq *rq = th_dispatch(th);
	ek_u64 s;

	TH_CHECK(rq, "nothing dispatched");
	s = rq->sector;
	th_complete(th, rq);
	return s;
}

int main(void)
{
	struct th *th = th_new(&ek_deadline_read_policy, 1000);
	ek_u64 rng = 3;
	ek_u64 last, s;
	unsigned int i;

	th_start(th);

	/* Random sectors, all fresh: one ascending sweep across batches. */
	for (i = 0; i < 200; i++)
		th_add(th, EK_READ, ek_rand_below(&rng, 1u << 30), 8);
	last = 0;
	for (i = 0; i < 200; i++) {
		s = next_sector(th);
		TH_CHECK(s >= last, "request %u at %llu after %llu", i,
			 (unsigned long long)s, (unsigned long long)last);
		last = s;
	}
	TH_CHECK(!th_dispatch(th), "more than was inserted");

	/*
	 * Requests arriving ahead of the sweep join it; those behind it wait
	 * for the wrap, which restarts at the oldest (FIFO head).
	 */
	th_advance(th, 1 * MS);
	th_add(th, EK_READ, 1000, 8);
	th_add(th, EK_READ, 2000, 8);
	th_add(th, EK_READ, 3000, 8);
	TH_CHECK(next_sector(th) == 1000, "sweep did not start at 1000");
	th_add(th, EK_READ, 500, 8);	/* behind the sweep */
	th_add(th, EK_READ, 2500, 8);	/* ahead of it */
	TH_CHECK(next_sector(th) == 2000, "expected 2000");
	TH_CHECK(next_sector(th) == 2500, "2500 did not join the sweep");
	TH_CHECK(next_sector(th) == 3000, "expected 3000");
	TH_CHECK(next_sector(th) == 500, "wrap did not pick 500");

	/* Wrap goes to the FIFO head, not to the lowest sector. */
	th_add(th, EK_READ, 900, 8);
	th_add(th, EK_READ, 100, 8);
	th_add(th, EK_READ, 400, 8);
	TH_CHECK(next_sector(th) == 900, "wrap did not pick the FIFO head");
	TH_CHECK(next_sector(th) == 100, "expected 100 (FIFO head again)");
	TH_CHECK(next_sector(th) == 400, "expected 400");

	/* Batches stay sorted when fifo_batch is small, too. */
	TH_CHECK(th_set(th, "fifo_batch", 3) == 0, "fifo_batch refused");
	for (i = 0; i < 100; i++)
		th_add(th, EK_WRITE, 1000000 + ek_rand_below(&rng, 1u << 20), 8);
	last = 0;
	for (i = 0; i < 100; i++) {
		s = next_sector(th);
		TH_CHECK(s >= last, "write %u at %llu after %llu", i,
			 (unsigned long long)s, (unsigned long long)last);
		last = s;
	}
	th_finish(th);
	printf("ok\n");
	return 0;
}
