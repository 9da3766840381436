/* DESCRIPTION: mq-deadline: a lower priority level waits while a higher one has requests queued or on the device, unless queued prio_aging_expire */
#include "testhost.h"

#define MS EK_NSEC_PER_MSEC

static struct ek_rq *add_idle(struct th *th, ek_u64 sector)
{
	struct ek_rq *rq = th_rq_new(th, EK_READ, sector, 8);

	rq->prio_class = EK_PRIO_IDLE;
	th_insert(th, rq);
	return rq;
}

int main(void)
{
	struct th *th = th_new(&ek_mq_deadline_policy, 16);
	struct ek_rq *be, *idle, *be2, *be3;

	th_preset(th, "prio_aging_expire", 100);
	th_start(th);

	/* Best effort first; the idle read waits while it is on the device. */
	be = th_add(th, EK_READ, 1000, 8);
	idle = add_idle(th, 5000);
	th_expect(th, be, "the best-effort read");
	TH_CHECK(!th_dispatch(th), "the idle read went while best effort was on the device");
	th_complete(th, be);
	th_expect_done(th, idle, "the idle read, best effort done");

	/* A busy best-effort level holds it back for 100 ms, not longer. */
	th_advance_to(th, 1000 * MS);
	idle = add_idle(th, 5000);
	be = th_add(th, EK_READ, 1000, 8);
	th_expect(th, be, "best effort before the idle read");
	th_advance_to(th, 1099 * MS);
	be2 = th_add(th, EK_READ, 1008, 8);
	th_expect(th, be2, "best effort, the idle read 99 ms old");
	th_advance_to(th, 1100 * MS);
	be3 = th_add(th, EK_READ, 1016, 8);
	th_expect(th, idle, "the idle read, queued 100 ms");
	th_expect(th, be3, "then best effort again");
	TH_CHECK(th_stat(th, "aged_dispatches") == 1, "aged_dispatches %llu",
		 (unsigned long long)th_stat(th, "aged_dispatches"));
	th_complete(th, be);
	th_complete(th, be2);
	th_complete(th, be3);
	th_complete(th, idle);
	th_finish(th);
	printf("ok\n");
	return 0;
}
