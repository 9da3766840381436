/* DESCRIPTION: deadline-read: a requeued request keeps its original deadline and FIFO place */
#include "testhost.h"

#define MS EK_NSEC_PER_MSEC

int main(void)
{
	struct th *th = th_new(&ek_deadline_read_policy, 100);
	struct ek_rq *a, *b, *rq;

	th_preset(th, "fifo_batch", 1);
	th_start(th);
	a = th_add(th, EK_READ, 50, 8);		/* deadline 125 ms */
	th_advance_to(th, 10 * MS);
	b = th_add(th, EK_READ, 100, 8);	/* deadline 135 ms */
	TH_CHECK(th_dispatch(th) == a, "a not first");

	/* The device hands a back (not at_head): it re-enters the queues. */
	th_advance_to(th, 20 * MS);
	th_requeue(th, a);
	TH_CHECK(a->deadline_ns == 125 * MS, "requeued deadline %llu",
		 (unsigned long long)a->deadline_ns);

	/*
	 * At 126 ms a is expired and must head the FIFO even though it was
	 * inserted after b; the sweep (past 58) alone would pick b.
	 */
	th_advance_to(th, 126 * MS);
	rq = th_dispatch(th);
	TH_CHECK(rq == a, "requeued a not dispatched first");
	th_complete(th, rq);
	TH_CHECK(th_dispatch(th) == b, "b not next");
	th_complete(th, b);

	/*
	 * An at_head requeue goes before everything else: without it the
	 * sweep (now past 18) would take b at 20 before a at 10.
	 */
	a = th_add(th, EK_READ, 10, 8);
	b = th_add(th, EK_READ, 20, 8);
	TH_CHECK(th_dispatch(th) == a, "a not first");
	a->at_head = 1;
	th_requeue(th, a);
	TH_CHECK(th_dispatch(th) == a, "at_head requeue not first");
	th_complete(th, a);
	TH_CHECK(th_dispatch(th) == b, "b not last");
	th_complete(th, b);
	TH_CHECK(th_stat(th, "dispatched_other") == 1,
		 "at_head requeue not counted as other");
	th_drain(th);
	th_finish(th);
	printf("ok\n");
	return 0;
}
