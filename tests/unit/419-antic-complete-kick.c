/* DESCRIPTION: anticipatory: a completion kicks the host once when it makes work appear (a drained batch switch), and not when work was already there, nothing is queued or a wait goes on; with anticipation on and off (the quick path) */
#include "antic.h"

static unsigned long completions, completion_kicks;

/* Complete rq; the host must have been kicked `want` times by it. */
#define COMPLETE(th, rq, want, what)					\
	do {								\
		unsigned long k_ = (th)->kicks;				\
									\
		th_complete((th), (rq));				\
		completions++;						\
		completion_kicks += (th)->kicks - k_;			\
		TH_CHECK((th)->kicks - k_ == (want),			\
			 "%s: %lu kicks, want %d", (what),		\
			 (th)->kicks - k_, (want));			\
	} while (0)

/* Anticipation on: every completion takes the lock (as_completed). */
static void waiting(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 32);
	struct ek_pctx *p;
	struct ek_rq *r1, *r2, *w, *r3, *a, *far;

	th_start(th);
	p = ah_pctx_new(th, 1);

	/* Reads without a context: nobody to wait for. */
	r1 = ah_read(th, NULL, 1000, 8);
	r2 = ah_read(th, NULL, 900000, 8);
	th_expect(th, r1, "r1");
	th_advance(th, 1 * MS);
	COMPLETE(th, r1, 0, "a completion with r2 already dispatchable");
	th_expect(th, r2, "r2");
	th_advance(th, 1 * MS);
	COMPLETE(th, r2, 0, "a completion with nothing queued");

	/* A write on the device holds a read back until it completes. */
	w = ah_write(th, NULL, 5000, 8);
	th_expect(th, w, "the write");
	r3 = ah_read(th, NULL, 1000, 8);
	TH_CHECK(!th_dispatch(th), "the read passed the write on the device");
	th_advance(th, 1 * MS);
	COMPLETE(th, w, 1,
		 "the write's completion that ends the drain");
	th_expect(th, r3, "the read after the drain");
	th_advance(th, 1 * MS);
	COMPLETE(th, r3, 0, "a completion with nothing queued");

	/* A wait for P: its read's completion starts the window, no work. */
	a = ah_read(th, p, 2000, 8);
	th_expect(th, a, "P's read");
	far = ah_read(th, NULL, 50000000, 8);
	TH_CHECK(!th_dispatch(th) && th_stat(th, "antic_started") == 1,
		 "no wait for P");
	th_advance(th, 1 * MS);
	COMPLETE(th, a, 0, "P's completion during the wait for P");
	TH_CHECK(th->timer_armed, "no timer for the wait");
	ah_fire(th);
	th_expect(th, far, "the far read after the timeout");
	th_advance(th, 1 * MS);
	COMPLETE(th, far, 0, "a completion with nothing queued");
	ah_check_stats(th);
	printf("anticipation on: %lu kicks from %lu completions\n",
	       completion_kicks, completions);
	ah_end(th, p);
}

/*
 * Anticipation off (antic_expire 0): requests prepared while it was on
 * carry P's context and complete under the lock, the quick way.
 */
static void quick(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 32);
	struct ek_pctx *p;
	struct ek_rq *a1, *a2, *w;

	completions = completion_kicks = 0;
	th_start(th);
	p = ah_pctx_new(th, 1);
	a1 = ah_read(th, p, 1000, 8);
	th_expect(th, a1, "P's first read");
	a2 = ah_read(th, p, 1008, 8);
	w = ah_write(th, p, 900000, 8);
	TH_CHECK(a2->pctx == p && w->pctx == p, "no contexts");
	TH_CHECK(th_set(th, "antic_expire", 0) == 0, "set refused");
	TH_CHECK(th->completed_unlocked == 0, "unlocked completions");

	th_advance(th, 1 * MS);
	COMPLETE(th, a1, 0, "quick: a completion with a2 already dispatchable");
	th_expect(th, a2, "P's second read");
	TH_CHECK(!th_dispatch(th), "the write passed the read on the device");
	th_advance(th, 1 * MS);
	COMPLETE(th, a2, 1, "quick: the read's completion that ends the drain");
	th_expect(th, w, "the write after the drain");
	th_advance(th, 1 * MS);
	COMPLETE(th, w, 0, "quick: a completion with nothing queued");
	TH_CHECK(th->completed_unlocked == 0,
		 "completions of requests with a context took the unlocked path");
	TH_CHECK(th_stat(th, "antic_started") == 0, "waited");
	printf("anticipation off: %lu kicks from %lu completions\n",
	       completion_kicks, completions);
	ah_end(th, p);
}

int main(void)
{
	waiting();
	quick();
	printf("ok\n");
	return 0;
}
