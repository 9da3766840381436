/* DESCRIPTION: mq-deadline: a batch goes on at or after where its last request started, and deadlines fall on 4 ms ticks */
#include "testhost.h"

#define MS EK_NSEC_PER_MSEC

int main(void)
{
	struct th *th = th_new(&ek_mq_deadline_policy, 16);
	struct ek_rq *a, *b, *c, *low;

	th_start(th);
	/*
	 * latest_pos is where the last read started: one that arrives
	 * inside it comes next (deadline-read, going on from its end, would
	 * take b).
	 */
	a = th_add(th, EK_READ, 1000, 8);
	b = th_add(th, EK_READ, 2000, 8);
	th_expect_done(th, a, "the first read");
	c = th_add(th, EK_READ, 1004, 8);
	th_expect_done(th, c, "the read at 1004, past where the last one started");
	th_expect_done(th, b, "then the one at 2000");

	/*
	 * read_expire 10 ms is 3 ticks: a read that came at 1 ms (tick 0)
	 * expires at 12 ms, not 11.
	 */
	TH_CHECK(th_set(th, "read_expire", 10) == 0, "read_expire 10 refused");
	TH_CHECK(th_set(th, "fifo_batch", 1) == 0, "fifo_batch 1 refused");
	th_advance_to(th, 100 * MS);
	a = th_add(th, EK_READ, 10000, 8);
	th_expect_done(th, a, "the sweep's read");
	th_advance_to(th, 101 * MS);
	low = th_add(th, EK_READ, 100, 8);
	b = th_add(th, EK_READ, 10008, 8);
	th_advance_to(th, 112 * MS - 1);
	c = th_add(th, EK_READ, 10016, 8);
	th_expect_done(th, b, "the sweep goes on, the low read not expired at 11.99 ms");
	th_advance_to(th, 112 * MS);
	th_expect_done(th, low, "the low read, expired at the tick");
	th_expect_done(th, c, "the sweep's read after it");
	th_finish(th);
	printf("ok\n");
	return 0;
}
