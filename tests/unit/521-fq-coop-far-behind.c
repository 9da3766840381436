/* DESCRIPTION: fair-queue: a reader up to 4 MiB behind where the queue in service stopped is still its close cooperator (one that thought long once and fell behind its pack rejoins it), one 5 MiB behind is not, and ahead the reach stays 1 MiB */
#include "fq.h"

#define BASE	(1ULL << 24)

/*
 * A reads 4 KiB at BASE and its read completes; B's read waits at
 * BASE + 8 + delta (negative: behind where A stopped). Returns whether B's
 * read goes next as a close cooperator (else the policy idles for A).
 */
static int coop_at(long long delta)
{
	struct th *th = th_new(&ek_fair_queue_policy, 64);
	struct fqt_proc pr[2];
	struct fqt_proc *a = &pr[0], *b = &pr[1];
	struct ek_rq *ra, *rb, *rq;
	int served;

	th_preset(th, "low_latency", 0);
	th_start(th);
	fqt_proc_init(th, a, 1);
	fqt_proc_init(th, b, 2);
	ra = fqt_read_at(th, a, BASE);
	TH_CHECK(th_dispatch(th) == ra, "A's read not first");
	rb = fqt_read_at(th, b, (ek_u64)((long long)BASE + 8 + delta));
	th_advance(th, MS);
	fqt_done(th, ra);
	rq = th_dispatch(th);
	served = rq == rb;
	TH_CHECK(served || !rq, "something other than B's read went");
	TH_CHECK(th_stat(th, "coop_switches") == (ek_u64)served,
		 "coop_switches %llu", (unsigned long long)th_stat(th, "coop_switches"));
	if (!served) {
		/* the idle wait for A runs out: B's read goes in a slot of its own */
		th_advance(th, 20 * MS);
		TH_CHECK(th_dispatch(th) == rb, "B's read not served after the wait");
	}
	fqt_done(th, rb);
	fqt_finish(th, pr, 2);
	return served;
}

int main(void)
{
	/* 2 and 4 MiB behind: 17 and 32 blocks of 128 KiB, a long think's worth */
	TH_CHECK(coop_at(-4096), "B 2 MiB behind A's end not a cooperator");
	TH_CHECK(coop_at(-8192), "B 4 MiB behind A's end not a cooperator");
	TH_CHECK(!coop_at(-10240), "B 5 MiB behind A's end taken as a cooperator");
	TH_CHECK(coop_at(2048), "B 1 MiB ahead not a cooperator");
	TH_CHECK(!coop_at(4096), "B 2 MiB ahead taken as a cooperator");
	printf("ok\n");
	return 0;
}
