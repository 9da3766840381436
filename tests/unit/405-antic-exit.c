/* DESCRIPTION: anticipatory: the exit of the awaited process ends the wait at once (aborted), cancels the timer and kicks the host */
#include "antic.h"

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 16);
	struct ek_pctx *p, *p2;
	struct ek_rq *a, *far, *b;
	unsigned long kicks, cancels;

	th_start(th);
	p = ah_pctx_new(th, 1);
	p2 = ah_pctx_new(th, 3);

	/* Exit after the completion: waiting on the timer. */
	a = ah_read(th, p, 4096, 8);
	TH_CHECK(th_dispatch(th) == a, "P's read not dispatched");
	far = ah_read(th, NULL, 70000000, 8);
	th_advance(th, 1 * MS);
	th_complete(th, a);
	TH_CHECK(!th_dispatch(th) && th->timer_armed, "not anticipating");
	th_advance(th, 1 * MS);
	kicks = th->kicks;
	cancels = th->timer_cancels;
	ah_pctx_exit(th, p);
	TH_CHECK(th->kicks > kicks, "no kick on the exit");
	TH_CHECK(th->timer_cancels > cancels && !th->timer_armed,
		 "timer not cancelled on the exit");
	TH_CHECK(th_stat(th, "antic_aborted") == 1, "abort not counted");
	TH_CHECK(th_dispatch(th) == far, "far read not dispatched after the exit");
	th_complete(th, far);

	/*
	 * Exit while its read is still on the disk: the wait ends, and the
	 * context (freed by the host once the read completes) is forgotten.
	 */
	b = ah_read(th, p2, 8192, 8);
	TH_CHECK(th_dispatch(th) == b, "P2's read not dispatched");
	far = ah_read(th, NULL, 80000000, 8);
	TH_CHECK(!th_dispatch(th), "not anticipating for P2");
	ah_pctx_exit(th, p2);
	TH_CHECK(th_stat(th, "antic_aborted") == 2, "second abort not counted");
	th_advance(th, 1 * MS);
	th_complete(th, b);
	free(p2);		/* as the host would: its last request is done */
	TH_CHECK(th_dispatch(th) == far, "far read not dispatched");
	th_complete(th, far);

	/* An exited process's requests are served but never waited for. */
	b = ah_read(th, p, 100, 8);
	TH_CHECK(th_dispatch(th) == b, "exited P's read not served");
	far = ah_read(th, NULL, 90000000, 8);
	TH_CHECK(th_dispatch(th) == far, "waited for an exited process");
	th_complete(th, b);
	th_complete(th, far);

	TH_CHECK(th_stat(th, "antic_started") == 2, "started %llu",
		 (unsigned long long)th_stat(th, "antic_started"));
	ah_check_stats(th);
	ah_print_stats(th);
	th_finish(th);
	free(p);
	printf("ok\n");
	return 0;
}
