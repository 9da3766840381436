/* DESCRIPTION: anticipatory: during a wait for P, another process's read next to where P's last read ended ends the wait as a hit and is served; one far away does not; reads and writes are counted apart */
#include "antic.h"

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 64);
	struct ek_pctx *p, *q, *r;
	struct ek_rq *a, *far, *near, *w;

	th_start(th);
	p = ah_pctx_new(th, 1);
	q = ah_pctx_new(th, 2);
	r = ah_pctx_new(th, 3);

	/* P's read is served; Q's far read makes a reason to wait. */
	a = ah_read(th, p, 1000, 8);
	TH_CHECK(th_dispatch(th) == a, "P's read not dispatched");
	far = ah_wait_after(th, q, a);

	/* 1 ms into the wait R reads right behind P's last read. */
	th_advance(th, 1 * MS);
	near = ah_read(th, r, 1008, 8);
	TH_CHECK(th_stat(th, "antic_hits") == 1,
		 "a read next to P's end did not end the wait as a hit");
	TH_CHECK(th_dispatch(th) == near, "the close read not served next");
	th_complete(th, near);
	/* Now the wait is for R, whose read it was; Q's far read comes after. */

	/* A write goes as its batch allows; the counters keep them apart. */
	w = ah_write(th, NULL, 3000000, 8);
	th_advance_to(th, th->timer_armed ? th->timer_when : th->now);
	TH_CHECK(th_dispatch(th) == far, "Q's far read not next");
	th_complete(th, far);
	th_advance_to(th, th->timer_armed ? th->timer_when : th->now);	/* a wait for Q */
	TH_CHECK(th_dispatch(th) == w, "the write not last");
	th_complete(th, w);
	TH_CHECK(th_stat(th, "dispatched_reads") == 3 &&
		 th_stat(th, "dispatched_writes") == 1,
		 "dispatched_reads %llu, dispatched_writes %llu, want 3 and 1",
		 (unsigned long long)th_stat(th, "dispatched_reads"),
		 (unsigned long long)th_stat(th, "dispatched_writes"));
	return ah_pass(th, (struct ek_pctx *[]){ p, q, r }, 3);
}
