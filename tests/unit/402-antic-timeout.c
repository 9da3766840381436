/* DESCRIPTION: anticipatory: a process that does not read again within antic_expire loses the wait at the timer (timeout path) */
#include "antic.h"

/* P reads once; Q's far read waits exactly antic_expire after P's completion. */
static void run(ek_s64 antic_ms, int set_after_start)
{
	struct th *th = th_new(&ek_anticipatory_policy, 16);
	struct ek_pctx *p;
	struct ek_rq *a, *far;
	ek_u64 done;

	if (!set_after_start)
		th_preset(th, "antic_expire", antic_ms);
	th_start(th);
	if (set_after_start)
		TH_CHECK(th_set(th, "antic_expire", antic_ms) == 0, "set refused");
	p = ah_pctx_new(th, 1);

	th_advance(th, 5 * MS);
	a = ah_read(th, p, 2048, 256);
	TH_CHECK(th_dispatch(th) == a, "P's read not dispatched");
	/* no process context: nobody to anticipate once it is served */
	far = ah_read(th, NULL, 90000000, 8);
	/* P's read is still on the disk: wait, timer at Q's deadline for now. */
	TH_CHECK(!th_dispatch(th), "no wait for P");
	ah_expect_timer(th, far->arrival_ns + 125 * MS,
			"Q's read deadline while P's read is in flight");

	th_advance(th, 3 * MS);
	th_complete(th, a);
	done = th->now;
	ah_expect_timer(th, done + (ek_u64)antic_ms * MS,
			"the completion + antic_expire");

	/* Nothing until the window closes: not even 1 ns early. */
	th_advance_to(th, done + (ek_u64)antic_ms * MS - 1);
	TH_CHECK(!th_dispatch(th), "wait ended before antic_expire");
	TH_CHECK(th_stat(th, "antic_timeouts") == 0, "early timeout");

	ah_fire(th);
	TH_CHECK(th_dispatch(th) == far, "Q's read not dispatched at the timeout");
	TH_CHECK(th_stat(th, "antic_timeouts") == 1, "timeout not counted");
	TH_CHECK(th_stat(th, "antic_started") == 1 &&
		 th_stat(th, "antic_hits") == 0 &&
		 th_stat(th, "antic_aborted") == 0, "unexpected counters");
	/* P's late read after the timeout is no hit: it is just served. */
	th_advance(th, 1 * MS);
	a = ah_read(th, p, 2048 + 256, 8);
	th_complete(th, far);
	TH_CHECK(th_dispatch(th) == a, "P's late read not served");
	th_complete(th, a);
	TH_CHECK(th_stat(th, "antic_hits") == 0, "late read counted as hit");
	ah_check_stats(th);
	th_finish(th);
	free(p);
	printf("antic_expire %lld ms%s: timeout at completion + %lld ms\n",
	       (long long)antic_ms, set_after_start ? " (set at run time)" : "",
	       (long long)antic_ms);
}

int main(void)
{
	run(6, 0);
	run(2, 1);
	run(20, 0);
	printf("ok\n");
	return 0;
}
