/* DESCRIPTION: fair-queue tells the host after an insert that has_work is "holds a request" (host.never_idles) where the dry slot in service is over (flash, equal queues), so that it need not ask; not where the policy waits (unequal weights on flash, a sequential reader on a rotational disk), and never after a dispatch */
#include "fq.h"

/*
 * A reads once and its read completes; then B reads. The slot of A, in
 * service with nothing queued, decides what the host may be told.
 */
static void run(int rotational, ek_u8 lvl_a, ek_u8 lvl_b, int want_claim)
{
	struct th *th = th_new(&ek_fair_queue_policy, 64);
	struct fqt_proc a, b;
	struct ek_rq *rq, *rb;
	int hw;

	th->host.dev.rotational = (ek_u8)rotational;
	th_preset(th, "low_latency", 0);
	th_start(th);
	fqt_proc_init(th, &a, 1);
	fqt_proc_init(th, &b, 2);
	a.lvl = lvl_a;
	b.lvl = lvl_b;

	rq = fqt_read_at(th, &a, 1000);
	th_expect(th, rq, "A's read");
	TH_CHECK(!th->host.never_idles,
		 "a dispatch left the claim standing (rotational %d)", rotational);
	th_advance(th, 100 * US);
	fqt_done(th, rq);
	th_advance(th, 10 * US);

	rb = fqt_read_at(th, &b, 1 << 20);
	TH_CHECK(th->host.never_idles == want_claim,
		 "rotational %d, levels %u/%u: claim %d after B's insert, expected %d",
		 rotational, lvl_a, lvl_b, th->host.never_idles, want_claim);
	hw = th->pol->has_work(th->sd, th->now);
	TH_CHECK(hw == want_claim,
		 "rotational %d, levels %u/%u: has_work %d after B's insert, expected %d (A's idle wait)",
		 rotational, lvl_a, lvl_b, hw, want_claim);
	if (!hw) {
		TH_CHECK(th->timer_armed, "an idle wait without a timer");
		th_advance_to(th, th->timer_when);
	}
	th_expect(th, rb, "B's read");
	printf("rotational %d, levels %u/%u: claim %d, idle wait %s\n",
	       rotational, lvl_a, lvl_b, want_claim, hw ? "no" : "yes");
	th_advance(th, 100 * US);
	fqt_done(th, rb);
	fqt_exit(th, &a);
	fqt_exit(th, &b);
	th_finish(th);
}

int main(void)
{
	/* flash, equal queues: nothing to wait for, A's slot is over */
	run(0, 4, 4, 1);
	/* flash, weights 80 and 10: the heavy one's next read is waited for */
	run(0, 0, 7, 0);
	/* rotational: a sequential reader is waited for; has_work decides */
	run(1, 4, 4, 0);
	return 0;
}
