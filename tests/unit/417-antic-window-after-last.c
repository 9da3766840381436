/* DESCRIPTION: anticipatory: while a read of P is still on the device, P's window has not started: the wait for P does not time out antic_expire after P's earlier completion, only antic_expire after its last */
#include "antic.h"

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 32);
	struct ek_pctx *p;
	struct ek_rq *a1, *a2, *a3, *far;
	ek_u64 t0;

	th_start(th);
	p = ah_pctx_new(th, 1);

	/* P has two reads on the device; another far read waits. */
	a1 = ah_read(th, p, 1000, 8);
	a2 = ah_read(th, p, 1008, 8);
	th_expect(th, a1, "P's first read");
	th_expect(th, a2, "P's second read");
	far = ah_read(th, NULL, 50000000, 8);
	TH_CHECK(!th_dispatch(th) && th_stat(th, "antic_started") == 1,
		 "no wait for P behind its reads on the device");

	/* The first completes at 1 ms; the second is still on the device. */
	th_advance(th, 1 * MS);
	th_complete(th, a1);
	TH_CHECK(!th->timer_armed || th->timer_when > th->now + 6 * MS,
		 "timer at %.1f ms: the window runs from a completion while P's other read is on the device",
		 th->timer_when / 1e6);
	/* 7 ms after the first completion: still no window, still waiting. */
	th_advance(th, 7 * MS);
	TH_CHECK(!th_dispatch(th),
		 "far read dispatched at %.1f ms, antic_expire after P's first read completed, while its second read is still on the device",
		 th->now / 1e6);

	/* The second completes at 10 ms: the window runs to 16 ms. */
	th_advance(th, 2 * MS);
	th_complete(th, a2);
	ah_expect_timer(th, th->now + 6 * MS, "the last completion + 6 ms");
	th_advance(th, 4 * MS);
	TH_CHECK(!th_dispatch(th),
		 "not waiting 4 ms after P's last completion");
	a3 = ah_read(th, p, 1016, 8);
	th_expect(th, a3, "P's next read, a hit");
	TH_CHECK(th_stat(th, "antic_hits") == 1, "antic_hits %llu, want 1",
		 (unsigned long long)th_stat(th, "antic_hits"));

	/*
	 * P's read at 14 ms is slow (a seek): at 17 ms it has been antic_expire
	 * since P's last completion (10 ms), but the read is on the device.
	 */
	TH_CHECK(!th_dispatch(th) && th_stat(th, "antic_started") == 2,
		 "no wait for P behind its read on the device");
	th_advance(th, 3 * MS);
	TH_CHECK(!th_dispatch(th),
		 "far read dispatched at %.1f ms, antic_expire after P's previous completion, while P's read is on the device",
		 th->now / 1e6);
	th_advance(th, 5 * MS);
	t0 = th->now;
	th_complete(th, a3);
	ah_expect_timer(th, t0 + 6 * MS, "the completion + 6 ms");
	th_advance(th, 5 * MS);
	TH_CHECK(!th_dispatch(th), "not waiting 5 ms after P's completion");
	ah_fire(th);
	th_expect(th, far, "the far read at the timeout");
	ah_expect_ends(th, 1, 0);
	th_complete(th, far);
	ah_check_stats(th);
	ah_print_stats(th);
	ah_end(th, p);
	printf("ok\n");
	return 0;
}
