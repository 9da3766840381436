/* DESCRIPTION: fair-queue: a new process, weight-raised, preempts the unraised queue in service of its class (low_latency), and waits its turn without low_latency */
#include "fq.h"

#define S (1000 * MS)

/* Dispatch, check it is want's owner's, complete it 1 ms later. */
static struct ek_rq *serve(struct th *th, struct fqt_proc *want)
{
	struct ek_rq *rq = th_dispatch(th);

	TH_CHECK(rq, "nothing dispatched");
	TH_CHECK(fqt_proc_of(rq) == want, "dispatched process %u's request, expected %u's",
		 fqt_proc_of(rq)->owner, want->owner);
	th_advance(th, MS);
	fqt_done(th, rq);
	return rq;
}

/*
 * A starts (raised as new) and reads once a second, never idle long
 * enough to be raised again; at 10 s, its raise long over, it queues 8
 * sequential reads and is served one. Then B starts. Returns the owner
 * of the request that comes next.
 */
static ek_u32 after_newcomer(int low_latency, ek_u64 *preempts)
{
	struct th *th = th_new(&ek_fair_queue_policy, 64);
	struct fqt_proc pr[2];
	struct fqt_proc *a = &pr[0], *b = &pr[1];
	struct ek_rq *rq;
	ek_u32 next;
	int i;

	th_preset(th, "low_latency", low_latency);
	th_start(th);
	fqt_proc_init(th, a, 1);
	fqt_proc_init(th, b, 2);

	for (i = 0; i < 10; i++) {
		th_advance_to(th, (ek_u64)i * S);
		fqt_read_at(th, a, 8 * (ek_u64)i);
		serve(th, a);
	}
	th_advance_to(th, 10 * S);
	TH_CHECK(th_stat(th, "raises") == (ek_u64)low_latency,
		 "A raised %llu times, expected %d",
		 (unsigned long long)th_stat(th, "raises"), low_latency);
	for (i = 0; i < 8; i++)
		fqt_read_at(th, a, 80 + 8 * (ek_u64)i);
	serve(th, a);		/* A's new slot: 7 reads and most of its budget left */
	TH_CHECK(th_stat(th, "preemptions") == 0, "preempted before B came");

	fqt_read_at(th, b, 1 << 20);
	*preempts = th_stat(th, "preemptions");
	rq = th_dispatch(th);
	TH_CHECK(rq, "nothing dispatched");
	next = fqt_proc_of(rq)->owner;
	fqt_done(th, rq);
	fqt_finish(th, pr, 2);
	return next;
}

int main(void)
{
	ek_u64 preempts;
	ek_u32 next;

	next = after_newcomer(1, &preempts);
	printf("low_latency 1: next request is process %u's, preemptions %llu\n",
	       next, (unsigned long long)preempts);
	TH_CHECK(next == 2, "the raised newcomer waited for A's slot");
	TH_CHECK(preempts == 1, "preemptions %llu, expected 1",
		 (unsigned long long)preempts);

	next = after_newcomer(0, &preempts);
	printf("low_latency 0: next request is process %u's, preemptions %llu\n",
	       next, (unsigned long long)preempts);
	TH_CHECK(next == 1, "an unraised newcomer cut A's slot short");
	TH_CHECK(preempts == 0, "preemptions %llu, expected 0",
		 (unsigned long long)preempts);
	printf("ok\n");
	return 0;
}
