/* DESCRIPTION: anticipatory: a read merged into its process's other read leaves that process's count of queued reads: the process, blocked on its read again, is still anticipated */
#include "antic.h"

#define NSHOT 200

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 4096);
	struct ah_oneshot shots[NSHOT];
	struct ah_reader r = { 0 };
	struct ah_loop l;
	struct ek_rq *a, *b, *rq;
	ek_u64 started, hits;
	unsigned int i;

	th_start(th);
	r.p = ah_pctx_new(th, 1);

	/* P's two adjacent reads become one request, served and completed. */
	a = ah_read(th, r.p, 1000, 8);
	b = ah_read(th, r.p, 1008, 8);
	th_merge_requests(th, a, b);
	rq = th_dispatch(th);
	TH_CHECK(rq == a, "the merged read not dispatched");
	th_advance(th, 1 * MS);
	th_complete(th, a);

	/*
	 * Then P reads on, thinking 1 ms after each read, with far reads
	 * arriving every 3 ms: as in unit/403, a wait after nearly every
	 * read, and they hit. A merged read still counted as queued says P
	 * is not blocked on a read, and a wait for it never starts.
	 */
	r.next = 1016;
	r.nr = 8;
	r.think = 1 * MS;
	r.issue_at = th->now + r.think;
	for (i = 0; i < NSHOT; i++)
		shots[i] = (struct ah_oneshot){ EK_READ, 100000000 + 8 * i,
						th->now + i * 3 * MS, NULL };
	ah_loop_init(&l, th, &r, 1, shots, NSHOT);
	ah_run(&l, th->now + 600 * MS);
	printf("%lu reads by P after the merge, ", r.reads);
	ah_print_stats(th);
	ah_check_stats(th);
	started = th_stat(th, "antic_started");
	hits = th_stat(th, "antic_hits");
	TH_CHECK(started >= 50, "only %llu waits for a 1 ms thinker after a merge",
		 (unsigned long long)started);
	TH_CHECK(hits * 10 >= started * 9, "%llu hits of %llu waits",
		 (unsigned long long)hits, (unsigned long long)started);
	ah_loop_end(&l);
	printf("ok\n");
	return 0;
}
