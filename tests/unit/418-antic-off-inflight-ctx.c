/* DESCRIPTION: anticipatory: a read prepared with anticipation on that completes after antic_expire went to 0 still takes the locked completion, so its process is off the device and its think time starts: once anticipation is back on, the wait for it lasts antic_expire from its next completion */
#include "antic.h"

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 32);
	struct ek_pctx *p;
	struct ek_rq *a, *b, *far;
	unsigned long unlocked;
	ek_u64 t0;

	th_start(th);
	p = ah_pctx_new(th, 1);

	/* P's read, with P's context, goes to the device. */
	a = ah_read(th, p, 1000, 8);
	TH_CHECK(a->pctx == p, "no context with anticipation on");
	th_expect(th, a, "P's read");

	/* Anticipation goes off while it is there, and it completes. */
	th_advance(th, 1 * MS);
	TH_CHECK(th_set(th, "antic_expire", 0) == 0, "set refused");
	th_advance(th, 1 * MS);
	unlocked = th->completed_unlocked;
	th_complete(th, a);
	unlocked = th->completed_unlocked - unlocked;	/* checked below */

	/* Back on: P reads 1 ms later; a far read makes P worth a wait. */
	th_advance(th, 1 * MS);
	TH_CHECK(th_set(th, "antic_expire", 6) == 0, "set refused");
	b = ah_read(th, p, 1008, 8);
	th_expect(th, b, "P's next read");
	far = ah_read(th, NULL, 50000000, 8);
	TH_CHECK(!th_dispatch(th) && th_stat(th, "antic_started") == 1,
		 "no wait for P behind its read on the device");

	/* b completes: P's window is 6 ms from now, not until far is due. */
	th_advance(th, 1 * MS);
	t0 = th->now;
	th_complete(th, b);
	ah_expect_timer(th, t0 + 6 * MS,
			"P's completion + 6 ms (P still counted on the device?)");
	ah_fire(th);
	th_expect(th, far, "the far read when P's window closes");
	ah_expect_ends(th, 1, 0);

	TH_CHECK(!unlocked,
		 "the completion of a read carrying P's context took the unlocked path");

	/* A read without a context takes the lock too (anticipation on). */
	unlocked = th->completed_unlocked;
	th_complete(th, far);
	TH_CHECK(th->completed_unlocked == unlocked,
		 "a completion with anticipation on took the unlocked path");
	ah_check_stats(th);
	ah_print_stats(th);
	ah_end(th, p);
	printf("ok\n");
	return 0;
}
