/* DESCRIPTION: anticipatory: the same process reading next within antic_expire is served before a far request (a hit) */
#include "antic.h"

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 64);
	struct ek_pctx *p, *q;
	struct ek_rq *a, *far, *rq;
	ek_u64 sector = 1000;
	int i;

	th_start(th);
	p = ah_pctx_new(th, 1);
	q = ah_pctx_new(th, 2);

	a = ah_read(th, p, sector, 8);
	TH_CHECK(th_dispatch(th) == a, "first read not dispatched");
	/* Q's read arrives far away while P's read is on the disk. */
	th_advance(th, 100 * US);
	far = ah_read(th, q, 50000000, 8);
	TH_CHECK(!th_dispatch(th), "dispatched Q's far read instead of waiting for P");
	TH_CHECK(th_stat(th, "antic_started") == 1, "no anticipation started");

	for (i = 0; i < 3; i++) {
		unsigned long kicks;

		th_advance(th, 900 * US);
		th_complete(th, a);
		/* The wait's window opens at the completion. */
		ah_expect_timer(th, th->now + 6 * MS, "the completion + 6 ms");
		TH_CHECK(!th->pol->has_work(th->sd, th->now),
			 "has_work true while anticipating");
		TH_CHECK(!th_dispatch(th), "dispatched while anticipating");

		/* P thinks 2 ms and reads on. */
		th_advance(th, 2 * MS);
		TH_CHECK(!th_dispatch(th), "dispatched while anticipating");
		kicks = th->kicks;
		sector += 8;
		a = ah_read(th, p, sector, 8);
		TH_CHECK(th->kicks > kicks, "no kick when the awaited read came");
		TH_CHECK(!th->timer_armed, "timer left armed after the hit");
		rq = th_dispatch(th);
		TH_CHECK(rq == a, "P's read not dispatched after the hit");
		TH_CHECK(th_stat(th, "antic_hits") == (ek_u64)i + 1,
			 "antic_hits %llu, want %d",
			 (unsigned long long)th_stat(th, "antic_hits"), i + 1);
		/* P's new read is on the disk: anticipate again. */
		TH_CHECK(!th_dispatch(th), "Q dispatched behind P's read");
		TH_CHECK(th_stat(th, "antic_started") == (ek_u64)i + 2,
			 "antic_started %llu, want %d",
			 (unsigned long long)th_stat(th, "antic_started"), i + 2);
	}
	TH_CHECK(th_stat(th, "antic_timeouts") == 0 &&
		 th_stat(th, "antic_aborted") == 0, "unexpected ended waits");
	ah_check_stats(th);

	/* Let the last wait time out; then Q goes. */
	th_complete(th, a);
	th_advance_to(th, th->timer_when);
	TH_CHECK(th_dispatch(th) == far, "Q's read not dispatched after timeout");
	TH_CHECK(th_stat(th, "antic_timeouts") == 1, "timeout not counted");
	th_complete(th, far);
	ah_check_stats(th);
	ah_print_stats(th);
	th_finish(th);
	free(p);
	free(q);
	printf("ok\n");
	return 0;
}
