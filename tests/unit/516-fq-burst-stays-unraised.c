/* DESCRIPTION: fair-queue: processes begun in a large burst are not raised when they come back after 2 s without I/O, until 10 s without I/O (as bfq's in_large_burst); a process begun later is */
#include "fq.h"

#define S (1000 * MS)
#define NB 10

/*
 * One read of p, dispatched now (any other queue in service has nothing
 * queued, and slice_idle_us 0 ends its slot), completed 1 ms later; p's
 * slot ends at the next process's read.
 */
static void one_read(struct th *th, struct fqt_proc *p)
{
	struct ek_rq *rq = fqt_read_at(th, p, p->next);

	p->next += 1 << 20;
	TH_CHECK(th_dispatch(th) == rq, "process %u's read not dispatched",
		 p->owner);
	th_advance(th, MS);
	fqt_done(th, rq);
}

static ek_u64 raises(struct th *th)
{
	return th_stat(th, "raises");
}

/*
 * Every member of the burst reads once at t, in turn; then pr[NB + 1]
 * (class IDLE: never raised) does, to end the last member's slot.
 */
static void round_at(struct th *th, struct fqt_proc *pr, ek_u64 t)
{
	int i;

	th_advance_to(th, t);
	for (i = 0; i < NB; i++)
		one_read(th, &pr[i]);
	one_read(th, &pr[NB + 1]);
}

int main(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, 64);
	struct fqt_proc pr[NB + 2];
	struct fqt_proc *late = &pr[NB];
	int i;

	th_preset(th, "slice_idle_us", 0);
	th_start(th);
	for (i = 0; i < NB + 2; i++) {
		fqt_proc_init(th, &pr[i], (ek_u32)i + 1);
		pr[i].next = (ek_u64)i << 30;
	}
	pr[NB + 1].cls = EK_PRIO_IDLE;

	/* 10 new processes 1 ms apart: the first 8 raised, then it is large. */
	round_at(th, pr, 0);
	TH_CHECK(raises(th) == 8, "the burst's start: raises %llu, expected 8",
		 (unsigned long long)raises(th));

	/* Every raise is over by 9 s; none comes back after 3 s without I/O. */
	round_at(th, pr, 9 * S);
	round_at(th, pr, 12 * S);
	printf("the burst back after 9 s and after 3 s: raises %llu\n",
	       (unsigned long long)raises(th));
	TH_CHECK(raises(th) == 8, "a burst member raised on its return");

	/* A process begun long after the burst is raised. */
	one_read(th, late);
	TH_CHECK(raises(th) == 9, "a new process after the burst not raised");

	/*
	 * After 11 s without I/O the burst is forgotten: not raised on that
	 * return, but on the next one 2.1 s later.
	 */
	round_at(th, pr, 23 * S);
	TH_CHECK(raises(th) == 9, "raised on the return that forgot the burst");
	round_at(th, pr, 25 * S + 200 * MS);
	printf("after 11 s without I/O, then 2.1 s: raises %llu\n",
	       (unsigned long long)raises(th));
	TH_CHECK(raises(th) == 9 + NB, "raises %llu after the burst was forgotten, expected %d",
		 (unsigned long long)raises(th), 9 + NB);

	fqt_finish(th, pr, NB + 2);
	printf("ok\n");
	return 0;
}
