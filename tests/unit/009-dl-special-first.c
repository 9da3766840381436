/* DESCRIPTION: deadline-read: flush, passthrough and at_head requests go first, in order, unsorted */
#include "testhost.h"

static struct ek_rq *add_kind(struct th *th, ek_u8 dir, ek_u64 sector,
			      ek_u8 kind, ek_u8 at_head)
{
	struct ek_rq *rq = th_rq_new(th, dir, sector, 8);

	rq->kind = kind;
	rq->at_head = at_head;
	th_insert(th, rq);
	return rq;
}

int main(void)
{
	struct th *th = th_new(&ek_deadline_read_policy, 100);
	struct ek_rq *r1, *r2, *r3, *w1, *f1, *f2, *pt, *ah, *ah2;

	th_start(th);

	/* Only a flush queued: there is work. */
	f1 = add_kind(th, EK_WRITE, 0, EK_KIND_FLUSH, 0);
	TH_CHECK(th->pol->has_work(th->sd, th->now), "has_work false with a flush");
	th_expect_done(th, f1, "lone flush");

	r1 = th_add(th, EK_READ, 100, 8);
	w1 = th_add(th, EK_WRITE, 50, 8);
	f1 = add_kind(th, EK_WRITE, 9000, EK_KIND_FLUSH, 0);
	pt = add_kind(th, EK_READ, 10, EK_KIND_PASSTHROUGH, 0);
	ah = add_kind(th, EK_READ, 7000, EK_KIND_NORMAL, 1);
	f2 = add_kind(th, EK_WRITE, 1, EK_KIND_FLUSH, 0);
	ah2 = add_kind(th, EK_WRITE, 3000, EK_KIND_NORMAL, 1);

	/* at_head to the front (latest first), the rest in arrival order. */
	th_expect_done(th, ah2, "second at_head");
	th_expect_done(th, ah, "first at_head");
	th_expect_done(th, f1, "flush 1");
	th_expect_done(th, pt, "passthrough");
	th_expect_done(th, f2, "flush 2");
	th_expect_done(th, r1, "the read");
	th_expect_done(th, w1, "the write");
	TH_CHECK(th_stat(th, "dispatched_other") == 6 &&
		 th_stat(th, "dispatched_reads") == 1 &&
		 th_stat(th, "dispatched_writes") == 1, "statistics wrong");

	/* A flush arriving mid-batch goes next; the batch then resumes. */
	r1 = th_add(th, EK_READ, 1000, 8);
	r2 = th_add(th, EK_READ, 2000, 8);
	r3 = th_add(th, EK_READ, 3000, 8);
	th_expect_done(th, r1, "r1");
	f1 = add_kind(th, EK_WRITE, 0, EK_KIND_FLUSH, 0);
	th_expect_done(th, f1, "the mid-batch flush");
	th_expect_done(th, r2, "r2 (batch resumed)");
	th_expect_done(th, r3, "r3");
	th_finish(th);
	printf("ok\n");
	return 0;
}
