/* DESCRIPTION: mq-deadline: at_head requests go before everything, the latest first (the kernel's list_add), and never into a batch */
#include "testhost.h"

static struct ek_rq *add_at_head(struct th *th, ek_u64 sector)
{
	struct ek_rq *rq = th_rq_new(th, EK_READ, sector, 8);

	rq->at_head = 1;
	th_insert(th, rq);
	return rq;
}

int main(void)
{
	struct th *th = th_new(&ek_mq_deadline_policy, 16);
	struct ek_rq *a, *b, *h1, *h2;

	th_start(th);
	a = th_add(th, EK_READ, 1000, 8);
	th_expect_done(th, a, "the first read");
	b = th_add(th, EK_READ, 1008, 8);
	h1 = add_at_head(th, 500);
	h2 = add_at_head(th, 700);
	th_expect_done(th, h2, "the later at_head request");
	th_expect_done(th, h1, "the earlier one");
	th_expect_done(th, b, "then the batch goes on at 1008");
	TH_CHECK(th_stat(th, "dispatched_other") == 2, "dispatched_other %llu",
		 (unsigned long long)th_stat(th, "dispatched_other"));
	th_finish(th);
	printf("ok\n");
	return 0;
}
