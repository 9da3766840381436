/* DESCRIPTION: fair-queue: flush, passthrough and at_head requests go before every queue's requests, at_head ones first, the rest in arrival order, counted as dispatched_other */
#include "fq.h"

static struct ek_rq *special(struct th *th, struct fqt_proc *pr, ek_u8 kind,
			     ek_u8 at_head, ek_u64 sector)
{
	struct ek_rq *rq = fqt_rq(th, pr, sector,
				  kind == EK_KIND_FLUSH ? 0 : 8);

	rq->kind = kind;
	rq->at_head = at_head;
	if (kind == EK_KIND_FLUSH)
		rq->dir = EK_WRITE;
	th_insert(th, rq);
	return rq;
}

/* The next dispatch is want; it completes at once. */
#define expect(th, want, what) \
	fqt_complete((th), th_expect((th), (want), (what)))

int main(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, 64);
	struct fqt_proc pr[2];
	struct ek_rq *a1, *a2, *b1, *f1, *f2, *pt, *ah, *ah2;

	th_start(th);
	fqt_proc_init(th, &pr[0], 1);
	fqt_proc_init(th, &pr[1], 2);

	/* A in service with a read left; B waiting with one. */
	a1 = fqt_rq(th, &pr[0], 100, 8);
	a2 = fqt_rq(th, &pr[0], 108, 8);
	th_insert(th, a1);
	th_insert(th, a2);
	expect(th, a1, "A's first read");
	b1 = fqt_rq(th, &pr[1], 1 << 20, 8);
	th_insert(th, b1);

	f1 = special(th, &pr[1], EK_KIND_FLUSH, 0, 0);
	pt = special(th, &pr[0], EK_KIND_PASSTHROUGH, 0, 10);
	ah = special(th, &pr[1], EK_KIND_NORMAL, 1, 7000);
	f2 = special(th, &pr[0], EK_KIND_FLUSH, 0, 0);
	ah2 = special(th, &pr[0], EK_KIND_NORMAL, 1, 3000);

	expect(th, ah2, "the second at_head");
	expect(th, ah, "the first at_head");
	expect(th, f1, "flush 1");
	expect(th, pt, "passthrough");
	expect(th, f2, "flush 2");
	TH_CHECK(th_stat(th, "dispatched_other") == 5, "dispatched_other %llu",
		 (unsigned long long)th_stat(th, "dispatched_other"));
	expect(th, a2, "A's second read");
	/* A is sequential: the policy waits slice_idle for its next read */
	th_advance(th, 10 * MS);
	expect(th, b1, "B's read");
	TH_CHECK(th_stat(th, "dispatched_reads") == 3, "dispatched_reads %llu",
		 (unsigned long long)th_stat(th, "dispatched_reads"));
	fqt_finish(th, pr, 2);
	printf("ok\n");
	return 0;
}
