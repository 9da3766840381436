/* DESCRIPTION: fair-queue: a queue emptied by a merge is idle from then on: back 2.7 s after its last read but 1.2 s after the merge, it is not weight-raised as long idle */
#include "fq.h"

#define S (1000 * MS)

/* Dispatch want and complete it 1 ms later. */
static void serve(struct th *th, struct ek_rq *want)
{
	struct ek_rq *rq = th_dispatch(th);

	TH_CHECK(rq == want, "dispatched %p, expected %p", (void *)rq,
		 (void *)want);
	th_advance(th, MS);
	fqt_done(th, rq);
}

int main(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, 64);
	struct fqt_proc pr[2];
	struct fqt_proc *a = &pr[0], *b = &pr[1];
	struct ek_rq *a1, *b2;
	int i;

	th_start(th);
	fqt_proc_init(th, a, 1);
	fqt_proc_init(th, b, 2);

	/*
	 * B starts (raised as new) and reads once a second, never idle long
	 * enough to be raised again; its raise runs out at 8 s.
	 */
	for (i = 0; i <= 10; i++) {
		th_advance_to(th, (ek_u64)i * S);
		serve(th, fqt_read_at(th, b, 1 << 20));
	}
	TH_CHECK(th_stat(th, "raises") == 1, "raises %llu after B's start",
		 (unsigned long long)th_stat(th, "raises"));

	/* At 10.5 s A starts (raised as new): B's slot ends, unraised. */
	th_advance_to(th, 10 * S + 500 * MS);
	serve(th, fqt_read_at(th, a, 0));
	/* At 11.5 s B's next read merges into A's: B's queue is empty again. */
	th_advance_to(th, 11 * S + 500 * MS);
	b2 = fqt_read_at(th, b, 108);
	a1 = fqt_read_at(th, a, 100);
	th_merge_requests(th, a1, b2);
	b->outstanding--;
	fqt_release(b2);
	TH_CHECK(th_stat(th, "raises") == 2, "raises %llu after A's start",
		 (unsigned long long)th_stat(th, "raises"));

	/* 2.7 s after B's last read, 1.2 s after the merge emptied its queue. */
	th_advance_to(th, 12 * S + 700 * MS);
	fqt_read_at(th, b, 2 << 20);
	printf("raises: %llu (B idle 1.2 s since its queue emptied: not raised)\n",
	       (unsigned long long)th_stat(th, "raises"));
	TH_CHECK(th_stat(th, "raises") == 2,
		 "B was raised: its idle time counted from before the merge");
	fqt_finish(th, pr, 2);
	printf("ok\n");
	return 0;
}
