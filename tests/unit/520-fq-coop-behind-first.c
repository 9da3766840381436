/* DESCRIPTION: fair-queue: of two close cooperators, the one behind where the queue in service stopped goes before the one at its end, so a reader that fell a few blocks behind its pack catches up instead of falling out of it */
#include "fq.h"

int main(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, 64);
	struct fqt_proc pr[3];
	struct fqt_proc *a = &pr[0], *b = &pr[1], *c = &pr[2];
	struct ek_rq *ra, *rb, *rc;

	th_preset(th, "low_latency", 0);
	th_start(th);
	fqt_proc_init(th, a, 1);
	fqt_proc_init(th, b, 2);
	fqt_proc_init(th, c, 3);

	/* A reads block 10; B's read of block 11 and C's of block 8 wait. */
	ra = fqt_read_at(th, a, 80);
	rb = fqt_read_at(th, b, 88);
	rc = fqt_read_at(th, c, 64);
	TH_CHECK(th_dispatch(th) == ra, "A's read not first");
	th_advance(th, MS);
	fqt_done(th, ra);
	TH_CHECK(th_dispatch(th) == rc,
		 "C's read 2 blocks behind A's end did not go before B's at it");
	TH_CHECK(th_stat(th, "coop_switches") == 1, "coop_switches %llu",
		 (unsigned long long)th_stat(th, "coop_switches"));
	th_advance(th, MS);
	fqt_done(th, rc);
	TH_CHECK(th_dispatch(th) == rb, "B's read not next");
	fqt_done(th, rb);
	fqt_finish(th, pr, 3);
	printf("ok\n");
	return 0;
}
