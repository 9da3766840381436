/* DESCRIPTION: mq-deadline: a merge hands the absorbed request's earlier deadline on, and counts it done for the priority levels */
#include "testhost.h"

#define MS EK_NSEC_PER_MSEC

int main(void)
{
	struct th *th = th_new(&ek_mq_deadline_policy, 16);
	struct ek_rq *p, *a, *b, *c, *idle;

	th_preset(th, "fifo_batch", 1);	/* every dispatch consults the FIFO */
	th_start(th);

	/* The sweep stands at 10000. */
	p = th_add(th, EK_READ, 10000, 8);
	th_expect_done(th, p, "the first read");

	a = th_add(th, EK_READ, 100, 8);	/* tick 0: due at 500 ms */
	th_advance_to(th, 10 * MS);
	c = th_add(th, EK_READ, 20000, 8);	/* tick 2: 508 ms */
	th_advance_to(th, 50 * MS);
	b = th_add(th, EK_READ, 92, 8);		/* tick 12: 548 ms */
	th_merge_requests(th, b, a);
	/* Without a's deadline the head would be c, due only at 508 ms. */
	th_advance_to(th, 504 * MS);
	th_expect_done(th, b, "b, expired with a's deadline");
	th_expect_done(th, c, "then c");

	/*
	 * An idle-class read waits while best effort has requests; one
	 * merged away is no longer one of them.
	 */
	a = th_add(th, EK_READ, 300, 8);
	b = th_add(th, EK_READ, 308, 8);
	idle = th_rq_new(th, EK_READ, 90000, 8);
	idle->prio_class = EK_PRIO_IDLE;
	th_insert(th, idle);
	th_merge_requests(th, a, b);
	th_expect_done(th, a, "the merged best-effort read");
	th_expect_done(th, idle, "the idle read, best effort all done");

	/* A request merged away by one the host cannot name just leaves. */
	a = th_add(th, EK_READ, 600, 8);
	b = th_add(th, EK_READ, 700, 8);
	th_merge_requests(th, a, a);
	th_expect_done(th, b, "b, a being gone");
	TH_CHECK(!th_dispatch(th), "something left after a went");
	th_finish(th);
	printf("ok\n");
	return 0;
}
