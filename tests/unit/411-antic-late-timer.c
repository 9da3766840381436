/* DESCRIPTION: anticipatory: a wait that ends by time in a completion, before its (late) timer fired, still gets the host to run the queue: the kick the cancelled timer would have given */
#include "antic.h"

/*
 * P's read is on the disk and the policy waits for P; another process's
 * read is queued, so the wait's timer is armed at that read's FIFO
 * deadline. The timer is late (a busy host): P's read completes after
 * the deadline, the wait ends there (someone else's read is due), and the
 * timer is cancelled. Nothing else will run the queue: the completion
 * must ask for a run, or the queued read waits for the next insert.
 */
static void late_timer(ek_u64 late)
{
	struct th *th = th_new(&ek_anticipatory_policy, 64);
	struct ek_pctx *p;
	struct ek_rq *a, *b, *rq;
	unsigned long kicks;
	ek_u64 deadline;

	th_start(th);
	p = ah_pctx_new(th, 1);
	a = ah_read(th, p, 1000, 8);
	TH_CHECK(th_dispatch(th) == a, "P's read not dispatched");
	b = ah_read(th, NULL, 50000000, 8);
	TH_CHECK(!th_dispatch(th), "no wait while P's read is on the disk");
	TH_CHECK(th->timer_armed, "waiting without a timer");
	deadline = th->timer_when;
	TH_CHECK(deadline == b->deadline_ns, "timer at %llu, not at the FIFO deadline %llu",
		 (unsigned long long)deadline, (unsigned long long)b->deadline_ns);

	th_advance_to(th, deadline + late);	/* the timer has not fired */
	kicks = th->kicks;
	th_complete(th, a);
	printf("timer %llu us late: kicks %lu -> %lu, timer %s\n",
	       (unsigned long long)(late / US), kicks, th->kicks,
	       th->timer_armed ? "armed" : "cancelled");
	TH_CHECK(th->kicks > kicks || (th->timer_armed && th->timer_when <= th->now),
		 "the wait ended in a completion, its timer was cancelled, and no run was asked for");
	rq = th_dispatch(th);
	TH_CHECK(rq == b, "the due read was not dispatched");
	th_complete(th, rq);
	ah_check_stats(th);
	th_finish(th);
	free(p);
}

int main(void)
{
	late_timer(0);
	late_timer(100 * US);
	late_timer(5 * MS);
	printf("ok\n");
	return 0;
}
