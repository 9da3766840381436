/* DESCRIPTION: anticipatory: flushes, passthrough and at_head requests go first in FIFO order, also during a wait, which they neither end nor are anticipated against */
#include "antic.h"

static struct ek_rq *special(struct th *th, ek_u8 kind, ek_u8 at_head,
			     ek_u64 sector)
{
	struct ek_rq *rq = th_rq_new(th, at_head ? EK_READ : EK_WRITE, sector,
				     kind == EK_KIND_FLUSH ? 0 : 8);

	rq->kind = kind;
	rq->at_head = at_head;
	th_insert(th, rq);
	return rq;
}

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 32);
	struct ek_pctx *p = NULL;
	struct ek_rq *a, *far, *s1, *s2, *s3, *rq;

	th_start(th);
	p = ah_pctx_new(th, 1);

	/* Specials overtake queued normal requests, first come first served. */
	far = ah_read(th, NULL, 60000000, 8);
	s1 = special(th, EK_KIND_FLUSH, 0, 0);
	s2 = special(th, EK_KIND_PASSTHROUGH, 0, 0);
	s3 = special(th, EK_KIND_NORMAL, 1, 500);
	TH_CHECK(th_dispatch(th) == s1 && th_dispatch(th) == s2 &&
		 th_dispatch(th) == s3, "specials not first, in order");
	TH_CHECK(th_dispatch(th) == far, "normal read not next");
	th_complete(th, s1);
	th_complete(th, s2);
	th_complete(th, s3);
	th_complete(th, far);

	/* During a wait a flush is dispatched; the wait goes on. */
	a = ah_read(th, p, 1000, 8);
	TH_CHECK(th_dispatch(th) == a, "P's read not dispatched");
	far = ah_read(th, NULL, 60000000, 8);
	th_advance(th, 1 * MS);
	th_complete(th, a);
	TH_CHECK(!th_dispatch(th), "not anticipating");
	th_advance(th, 1 * MS);
	s1 = special(th, EK_KIND_FLUSH, 0, 0);
	TH_CHECK(th_dispatch(th) == s1, "flush held back by the wait");
	TH_CHECK(!th_dispatch(th), "the flush ended the wait");
	th_complete(th, s1);
	TH_CHECK(!th_dispatch(th), "the flush's completion ended the wait");
	th_advance(th, 1 * MS);
	a = ah_read(th, p, 1008, 8);
	TH_CHECK(th_dispatch(th) == a, "P's read not served on the hit");
	TH_CHECK(th_stat(th, "antic_hits") == 1, "hit not counted");

	/* A special read of another process is not waited against either. */
	s2 = special(th, EK_KIND_NORMAL, 1, 777777);
	TH_CHECK(th_dispatch(th) == s2, "at_head read held back");
	th_complete(th, a);
	th_complete(th, s2);
	th_advance(th, 10 * MS);
	rq = th_dispatch(th);
	TH_CHECK(rq == far, "far read not served after the timeout");
	th_complete(th, far);
	ah_check_stats(th);
	ah_print_stats(th);
	th_finish(th);
	free(p);
	printf("ok\n");
	return 0;
}
