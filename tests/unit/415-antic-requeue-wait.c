/* DESCRIPTION: anticipatory: while it waits for P, a requeue of another process's request goes out first and the wait for P goes on */
#include "antic.h"

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 32);
	struct ek_pctx *p, *q;
	struct ek_rq *q1, *a, *far, *a2;

	th_start(th);
	p = ah_pctx_new(th, 1);
	q = ah_pctx_new(th, 2);

	/*
	 * On the device: Q's far read, then P's read (Q exits in between, so
	 * nobody waits for Q). Another far read waits.
	 */
	q1 = ah_read(th, q, 40000000, 8);
	TH_CHECK(th_dispatch(th) == q1, "Q's read not first");
	ah_pctx_exit(th, q);
	a = ah_read(th, p, 1000, 8);
	TH_CHECK(th_dispatch(th) == a, "P's read not next");
	far = ah_read(th, NULL, 50000000, 8);
	th_advance(th, 1 * MS);
	th_complete(th, a);
	TH_CHECK(!th_dispatch(th) && th_stat(th, "antic_started") == 1,
		 "no wait for P");

	/* Q's far read comes back from the device: it goes out, the wait goes on. */
	th_advance(th, 1 * MS);
	th_requeue(th, q1);
	TH_CHECK(th_dispatch(th) == q1, "Q's requeued read not sent again");
	TH_CHECK(th_stat(th, "antic_aborted") == 0,
		 "another process's requeue ended the wait for P");
	TH_CHECK(!th_dispatch(th), "the other far read dispatched during the wait");
	th_complete(th, q1);
	a2 = ah_read(th, p, 1008, 8);
	TH_CHECK(th_dispatch(th) == a2 && th_stat(th, "antic_hits") == 1,
		 "P's next read not served as a hit");

	th_complete(th, a2);
	th_advance_to(th, th->timer_armed ? th->timer_when : th->now);
	TH_CHECK(th_dispatch(th) == far, "the other far read not served after the wait");
	th_complete(th, far);
	th_drain(th);
	ah_check_stats(th);
	ah_print_stats(th);
	th_finish(th);
	free(p);
	free(q);
	printf("ok\n");
	return 0;
}
