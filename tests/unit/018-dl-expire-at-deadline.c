/* DESCRIPTION: deadline-read: a request is expired from the instant its deadline is reached (mq-deadline's time_after_eq), not a moment later */
#include "testhost.h"

#define MS EK_NSEC_PER_MSEC

int main(void)
{
	struct th *th = th_new(&ek_deadline_read_policy, 16);
	struct ek_rq *a, *b, *c, *low;

	th_preset(th, "read_expire", 10);
	th_preset(th, "fifo_batch", 1);	/* every dispatch chooses anew */
	th_start(th);

	/* The sweep is at 10008 when a read at sector 100 arrives at 1 ms. */
	a = th_add(th, EK_READ, 10000, 8);
	th_expect_done(th, a, "the first read");
	th_advance_to(th, 1 * MS);
	low = th_add(th, EK_READ, 100, 8);
	b = th_add(th, EK_READ, 10008, 8);

	/* 1 ns before its deadline (11 ms) the sweep goes on past it... */
	th_advance_to(th, 11 * MS - 1);
	c = th_add(th, EK_READ, 10016, 8);
	th_expect_done(th, b, "the sweep's next read, the low one not yet expired");
	/* ...and at 11 ms the low read is expired: it goes first. */
	th_advance_to(th, 11 * MS);
	th_expect_done(th, low, "the low read, expired at its deadline");
	th_expect_done(th, c, "the sweep's read after it");
	th_finish(th);
	printf("ok\n");
	return 0;
}
