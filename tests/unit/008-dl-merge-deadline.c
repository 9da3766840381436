/* DESCRIPTION: deadline-read: merged requests keep the earlier deadline and its FIFO place */
#include "testhost.h"

#define MS EK_NSEC_PER_MSEC

int main(void)
{
	struct th *th = th_new(&ek_deadline_read_policy, 100);
	struct ek_rq *p, *a, *b, *c, *rq;

	/* Batches of one: every dispatch consults the FIFO. */
	th_preset(th, "fifo_batch", 1);
	th_start(th);

	/* Move the sweep past everything below sector 10000. */
	p = th_add(th, EK_READ, 10000, 8);
	TH_CHECK(th_dispatch(th) == p, "p not dispatched");
	th_complete(th, p);

	a = th_add(th, EK_READ, 100, 8);	/* t=0, deadline 125 ms */
	th_advance_to(th, 10 * MS);
	c = th_add(th, EK_READ, 20000, 8);	/* deadline 135 ms */
	th_advance_to(th, 50 * MS);
	b = th_add(th, EK_READ, 92, 8);	/* deadline 175 ms */

	/* a (older) is absorbed into b (younger): b must inherit 125 ms. */
	th_merge_requests(th, b, a);
	TH_CHECK(b->deadline_ns == 125 * MS, "b's deadline %llu, wanted 125 ms",
		 (unsigned long long)b->deadline_ns);
	TH_CHECK(b->nr_sectors == 16, "b not grown");

	/*
	 * At 130 ms b (inherited 125 ms) is the expired FIFO head; without
	 * inheritance the head would be c (135 ms, not expired) and the
	 * sweep would pick c (20000) too.
	 */
	th_advance_to(th, 130 * MS);
	rq = th_dispatch(th);
	TH_CHECK(rq == b, "b not dispatched first at 130 ms (got sector %llu)",
		 rq ? (unsigned long long)rq->sector : 0ULL);
	th_complete(th, rq);
	TH_CHECK(th_stat(th, "expired_batches") == 1, "expired batch not counted");
	TH_CHECK(th_dispatch(th) == c, "c not next");
	th_complete(th, c);

	/* The other way round: the older request keeps its own deadline. */
	a = th_add(th, EK_READ, 300, 8);
	th_advance(th, 40 * MS);
	b = th_add(th, EK_READ, 308, 8);
	th_merge_requests(th, a, b);
	TH_CHECK(a->deadline_ns == a->arrival_ns + 125 * MS,
		 "a's deadline changed to %llu",
		 (unsigned long long)a->deadline_ns);

	/*
	 * Inheritance moves the request to next's FIFO place: d1 (oldest)
	 * is absorbed into d3 (youngest); with every read expired the FIFO
	 * order must then be a, d3, d2.
	 */
	{
		struct ek_rq *d1, *d2, *d3;

		th_advance(th, 1 * MS);
		d1 = th_add(th, EK_READ, 50000, 8);
		th_advance(th, 1 * MS);
		d2 = th_add(th, EK_READ, 40000, 8);
		th_advance(th, 1 * MS);
		d3 = th_add(th, EK_READ, 49992, 8);
		th_merge_requests(th, d3, d1);
		th_advance(th, 1000 * MS);
		TH_CHECK(th_dispatch(th) == a, "a not first");
		TH_CHECK(th_dispatch(th) == d3, "d3 not in d1's FIFO place");
		TH_CHECK(th_dispatch(th) == d2, "d2 not last");
	}
	th_finish(th);
	printf("ok\n");
	return 0;
}
