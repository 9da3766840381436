/* DESCRIPTION: mq-deadline: a batch is fifo_batch requests long, then an expired FIFO head goes first */
#include "testhost.h"

int main(void)
{
	struct th *th = th_new(&ek_mq_deadline_policy, 16);
	struct ek_rq *a, *b, *c, *low, *d;

	th_preset(th, "read_expire", 0);	/* every read expired at once */
	th_preset(th, "fifo_batch", 3);
	th_start(th);

	a = th_add(th, EK_READ, 1000, 8);
	b = th_add(th, EK_READ, 1008, 8);
	c = th_add(th, EK_READ, 1016, 8);
	low = th_add(th, EK_READ, 100, 8);
	d = th_add(th, EK_READ, 1024, 8);
	th_expect_done(th, a, "the FIFO head");
	th_expect_done(th, b, "the batch's second");
	th_expect_done(th, c, "the batch's third");
	th_expect_done(th, low, "the FIFO head after three");
	th_expect_done(th, d, "then d, in low's batch");
	TH_CHECK(th_stat(th, "expired_batches") == 2, "expired_batches %llu",
		 (unsigned long long)th_stat(th, "expired_batches"));
	TH_CHECK(th_stat(th, "dispatched_reads") == 5 &&
		 th_stat(th, "dispatched_writes") == 0,
		 "dispatched_reads %llu, dispatched_writes %llu",
		 (unsigned long long)th_stat(th, "dispatched_reads"),
		 (unsigned long long)th_stat(th, "dispatched_writes"));
	th_finish(th);
	printf("ok\n");
	return 0;
}
