/* DESCRIPTION: anticipatory: the read that ends a wait as a hit is dispatched next, even a short step behind the process's last read with another process's read ahead of the head in elevator order */
#include "antic.h"

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 32);
	struct ek_pctx *p, *q;
	struct ek_rq *a, *far, *back;

	th_start(th);
	p = ah_pctx_new(th, 1);
	q = ah_pctx_new(th, 2);

	/* P's read is on the disk when Q's read arrives, far ahead: wait. */
	a = ah_read(th, p, 1000, 8);
	th_expect(th, a, "P's read");
	th_advance(th, 100 * US);
	far = ah_read(th, q, 1 << 20, 8);
	TH_CHECK(!th_dispatch(th) && th_stat(th, "antic_started") == 1,
		 "no wait for P behind its read on the disk");
	th_advance(th, 900 * US);
	th_complete(th, a);
	TH_CHECK(!th_dispatch(th), "no wait for P after its read completed");

	/*
	 * 1 ms later P reads 100 sectors behind where its last read ended:
	 * the elevator, going up from 1008, would take Q's read at 1 << 20
	 * first. P's read ended the wait; it goes next.
	 */
	th_advance(th, 1 * MS);
	back = ah_read(th, p, 900, 8);
	TH_CHECK(th_stat(th, "antic_hits") == 1, "antic_hits %llu, want 1",
		 (unsigned long long)th_stat(th, "antic_hits"));
	th_expect(th, back, "P's read that ended the wait (sector 900)");

	/* P's read on the disk: a wait for P again, then Q at its timeout. */
	TH_CHECK(!th_dispatch(th) && th_stat(th, "antic_started") == 2,
		 "no wait for P behind its second read");
	th_advance(th, 1 * MS);
	th_complete(th, back);
	ah_expect_timer(th, th->now + 6 * MS, "P's completion + 6 ms");
	ah_fire(th);
	th_expect(th, far, "Q's read at the timeout");
	th_complete(th, far);
	ah_expect_ends(th, 1, 0);
	ah_check_stats(th);
	ah_print_stats(th);
	ah_pctx_exit(th, q);
	ah_end(th, p);
	free(q);
	printf("ok\n");
	return 0;
}
