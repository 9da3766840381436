/* DESCRIPTION: deadline-read: front merge candidates, merged() re-sorting, back merges */
#include "testhost.h"

static struct ek_rq *take(struct th *th)
{
	struct ek_rq *rq = th_dispatch(th);

	TH_CHECK(rq, "nothing dispatched");
	th_complete(th, rq);
	return rq;
}

int main(void)
{
	struct th *th = th_new(&ek_deadline_read_policy, 100);
	struct ek_rq *a, *b, *c, *w, *fl, *ah, *rq;
	unsigned int i;

	th_start(th);
	a = th_add(th, EK_READ, 600, 8);
	b = th_add(th, EK_READ, 500, 8);
	w = th_add(th, EK_WRITE, 600, 8);

	/* A candidate starts exactly at the bio's end, in its direction. */
	TH_CHECK(th->pol->front_merge_candidate(th->sd, EK_READ, 600) == a,
		 "read at 600 not offered");
	TH_CHECK(th->pol->front_merge_candidate(th->sd, EK_WRITE, 600) == w,
		 "write at 600 not offered");
	TH_CHECK(!th->pol->front_merge_candidate(th->sd, EK_READ, 601) &&
		 !th->pol->front_merge_candidate(th->sd, EK_READ, 599) &&
		 !th->pol->front_merge_candidate(th->sd, EK_READ, 608),
		 "candidate not starting exactly at end");

	/* Grow a downwards past b: it must now sort before b. */
	for (i = 0; i < 25; i++)
		TH_CHECK(th_front_merge(th, EK_READ, a->sector - 8, 8) == a,
			 "front merge %u refused", i);
	TH_CHECK(a->sector == 400 && a->nr_sectors == 208, "a is %llu+%u",
		 (unsigned long long)a->sector, a->nr_sectors);
	TH_CHECK(th->pol->front_merge_candidate(th->sd, EK_READ, 400) == a,
		 "a not found at its new sector");
	TH_CHECK(!th->pol->front_merge_candidate(th->sd, EK_READ, 600),
		 "a still found at its old sector");

	/* Back merge: same start, longer; order unchanged. */
	th_back_merge(th, b, 16);
	c = th_add(th, EK_READ, 450, 8);
	/* front_merges 0: nothing is offered. */
	TH_CHECK(th_set(th, "front_merges", 0) == 0, "front_merges 0 refused");
	TH_CHECK(!th_front_merge(th, EK_WRITE, 592, 8), "merge while disabled");
	TH_CHECK(th_set(th, "front_merges", 1) == 0, "front_merges 1 refused");
	TH_CHECK(th_front_merge(th, EK_WRITE, 592, 8) == w, "write not merged");
	TH_CHECK(th_set(th, "front_merges", 2) == -1, "front_merges 2 accepted");

	TH_CHECK(take(th) == a, "a (400) not first");
	/* a ended at 608, past b and c: the sweep wraps to the FIFO head. */
	rq = take(th);
	TH_CHECK(rq == b && b->nr_sectors == 24, "b not second or lost its growth");
	/* Two read batches (a; b) ran while w waited: w's turn. */
	TH_CHECK(take(th) == w, "w not third");
	TH_CHECK(take(th) == c, "c not last");

	/* Flushes and at_head requests are never merge candidates. */
	fl = th_rq_new(th, EK_WRITE, 5000, 8);
	fl->kind = EK_KIND_FLUSH;
	th_insert(th, fl);
	ah = th_rq_new(th, EK_READ, 7000, 8);
	ah->at_head = 1;
	th_insert(th, ah);
	TH_CHECK(!th_front_merge(th, EK_WRITE, 4992, 8), "flush offered");
	TH_CHECK(!th_front_merge(th, EK_READ, 6992, 8), "at_head offered");

	/* Dispatched requests are no longer offered. */
	th_drain(th);
	TH_CHECK(!th_front_merge(th, EK_WRITE, 592, 8), "dispatched write offered");

	/* Two requests at one sector: either may be offered, both go out. */
	a = th_add(th, EK_READ, 1000, 8);
	b = th_add(th, EK_READ, 1000, 16);
	rq = th_front_merge(th, EK_READ, 992, 8);
	TH_CHECK(rq == a || rq == b, "duplicate sector not offered");
	TH_CHECK(th_drain(th) == 2, "duplicates not both dispatched");
	th_finish(th);
	printf("ok\n");
	return 0;
}
