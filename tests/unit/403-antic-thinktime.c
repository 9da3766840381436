/* DESCRIPTION: anticipatory: no anticipation for a process whose measured think time exceeds antic_expire; it resumes when the process speeds up */
#include "antic.h"

#define NSHOT 400

/*
 * Reader P (sequential, one read outstanding) thinks `think` between
 * reads; far reads without a process context arrive every 3 ms, so after
 * each of P's reads there is a reason to seek away. Returns waits started.
 */
static ek_u64 run(ek_u64 think, ek_u64 think2, ek_u64 *hits)
{
	struct th *th = th_new(&ek_anticipatory_policy, 4096);
	struct ah_oneshot shots[NSHOT];
	struct ah_reader r = { 0 };
	struct ah_loop l;
	ek_u64 started1;
	unsigned int i;

	th_start(th);
	r.p = ah_pctx_new(th, 1);
	r.next = 1000;
	r.nr = 8;
	r.think = think;
	r.issue_at = 0;
	for (i = 0; i < NSHOT; i++)
		shots[i] = (struct ah_oneshot){ EK_READ, 100000000 + 8 * i,
						i * 3 * MS, NULL };
	ah_loop_init(&l, th, &r, 1, shots, NSHOT);

	ah_run(&l, 600 * MS);
	started1 = th_stat(th, "antic_started");
	printf("think %2llu ms: %lu reads by P, ", (unsigned long long)(think / MS),
	       r.reads);
	ah_print_stats(th);
	if (think2) {
		unsigned long reads = r.reads;

		r.think = think2;
		ah_run(&l, 1200 * MS);
		printf("then think %2llu ms: %lu reads by P, ",
		       (unsigned long long)(think2 / MS), r.reads - reads);
		ah_print_stats(th);
		TH_CHECK(th_stat(th, "antic_started") - started1 >= 20,
			 "anticipation did not resume for a fast process");
	}
	ah_check_stats(th);
	*hits = th_stat(th, "antic_hits");
	ah_loop_end(&l);
	return started1;
}

int main(void)
{
	ek_u64 started, hits;

	/* Fast thinker: a wait after nearly every read, and they hit. */
	started = run(1 * MS, 0, &hits);
	TH_CHECK(started >= 100, "only %llu waits for a 1 ms thinker",
		 (unsigned long long)started);
	TH_CHECK(hits * 10 >= started * 9, "%llu hits of %llu waits",
		 (unsigned long long)hits, (unsigned long long)started);

	started = run(4 * MS, 0, &hits);
	TH_CHECK(started >= 50 && hits * 10 >= started * 9,
		 "4 ms thinker: %llu waits, %llu hits",
		 (unsigned long long)started, (unsigned long long)hits);

	/*
	 * Slow thinkers (8 ms, 20 ms > antic_expire 6 ms): at most the waits
	 * before the first think-time samples, then none.
	 */
	started = run(8 * MS, 0, &hits);
	TH_CHECK(started <= 2, "%llu waits for an 8 ms thinker",
		 (unsigned long long)started);
	started = run(20 * MS, 1 * MS, &hits);
	TH_CHECK(started <= 2, "%llu waits for a 20 ms thinker",
		 (unsigned long long)started);
	printf("ok\n");
	return 0;
}
