/* DESCRIPTION: fair-queue: the awaited process's next request ends an idle wait at once (idle_hits, timer cancelled, its request next); a request arriving while none is awaited is no hit */
#include "fq.h"

int main(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, 64);
	struct fqt_proc pr[2];
	struct fqt_proc *a = &pr[0], *b = &pr[1];
	struct ek_rq *r1, *r2, *r3, *rq;
	unsigned long cancels;

	th_preset(th, "low_latency", 0);
	th_start(th);
	fqt_proc_init(th, a, 1);
	fqt_proc_init(th, b, 2);

	/* A's read is served; B's waits. A's queue runs dry: the policy idles. */
	r1 = fqt_read_at(th, a, 1000);
	fqt_read_at(th, b, 1 << 24);
	TH_CHECK(th_dispatch(th) == r1, "A's read not first");
	th_advance(th, MS);
	fqt_done(th, r1);
	TH_CHECK(!th_dispatch(th), "no idle wait for sequential A");
	TH_CHECK(th->timer_armed, "idle wait without a timer");
	TH_CHECK(th_stat(th, "idle_hits") == 0, "a hit before A read again");

	/* 1 ms later A's next read: the wait ends, the timer goes, A is served. */
	th_advance(th, MS);
	cancels = th->timer_cancels;
	r2 = fqt_read_at(th, a, 1008);
	TH_CHECK(th_stat(th, "idle_hits") == 1, "idle_hits %llu after A's read",
		 (unsigned long long)th_stat(th, "idle_hits"));
	TH_CHECK(th->timer_cancels > cancels, "the idle timer was left armed");
	rq = th_dispatch(th);
	TH_CHECK(rq == r2, "A's read not served on the hit");

	/* A's read on the device, another queued: nothing was awaited. */
	r3 = fqt_read_at(th, a, 1016);
	TH_CHECK(th_stat(th, "idle_hits") == 1,
		 "a read arriving with A's read on the device counted as a hit");
	th_advance(th, MS);
	fqt_done(th, r2);
	TH_CHECK(th_dispatch(th) == r3, "A's queued read not next");
	fqt_done(th, r3);
	fqt_finish(th, pr, 2);
	printf("ok\n");
	return 0;
}
