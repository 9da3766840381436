/* DESCRIPTION: deadline queue: FIFO in deadline order, specials apart (also when they grow by a merge), a merge keeps the earlier deadline and resorts, front-merge candidates are sorted requests only */
#include "testhost.h"
#include "elvkit/dlq.h"

static struct ek_rq rqs[8];

static struct ek_rq *rq(unsigned int i, ek_u8 dir, ek_u64 sector)
{
	struct ek_rq *r = &rqs[i];

	r->dir = dir;
	r->sector = sector;
	r->nr_sectors = 8;
	return r;
}

int main(void)
{
	struct ek_dlq q;
	struct ek_rq *a, *b, *c, *s;

	ek_dlq_init(&q);
	TH_CHECK(ek_dlq_empty(&q), "new queue not empty");

	a = rq(0, EK_READ, 100);
	b = rq(1, EK_READ, 108);
	c = rq(2, EK_READ, 50);
	ek_dlq_add(&q, a, 30);
	ek_dlq_add(&q, b, 30);
	ek_dlq_add(&q, c, 10);	/* earlier deadline: goes ahead */
	TH_CHECK(ek_dlq_nr(&q, EK_READ) == 3 && ek_dlq_nr(&q, EK_WRITE) == 0,
		 "counts");
	TH_CHECK(ek_dlq_fifo_head(&q, EK_READ) == c, "FIFO not by deadline");
	TH_CHECK(ek_dlq_lowest(&q, EK_READ) == c &&
		 ek_dlq_from(&q, EK_READ, 51) == a &&
		 ek_dlq_from(&q, EK_READ, 109) == NULL, "sector order");

	s = rq(3, EK_WRITE, 108);
	ek_dlq_add_special(&q, s, 0);
	TH_CHECK(ek_dlq_is_special(s) && ek_dlq_special_head(&q) == s &&
		 ek_dlq_nr(&q, EK_WRITE) == 0, "special");
	TH_CHECK(ek_dlq_front_merge_candidate(&q, EK_READ, 108) == b &&
		 !ek_dlq_front_merge_candidate(&q, EK_WRITE, 108),
		 "front-merge candidates");

	/* b (deadline 30) absorbs c (deadline 10) and moves to sector 50. */
	b->sector = 50;
	b->nr_sectors += c->nr_sectors;
	ek_dlq_merge(&q, b, c);
	TH_CHECK(b->deadline_ns == 10 && ek_dlq_fifo_head(&q, EK_READ) == b,
		 "merge lost the earlier deadline or its FIFO place");
	TH_CHECK(ek_dlq_lowest(&q, EK_READ) == b && b->sort.key == 50,
		 "merge did not resort");
	TH_CHECK(c->policy_data[0] == EK_DLQ_NONE && ek_dlq_nr(&q, EK_READ) == 2,
		 "merged-away request still queued");

	/* A special request that grew at its front is in no tree to resort. */
	s->sector = 100;
	s->nr_sectors += 8;
	ek_dlq_resort(&q, s);
	TH_CHECK(ek_dlq_special_head(&q) == s && !ek_dlq_lowest(&q, EK_WRITE) &&
		 ek_dlq_lowest(&q, EK_READ) == b, "a special request was resorted");

	ek_dlq_del(&q, s);
	ek_dlq_del(&q, a);
	ek_dlq_del(&q, b);
	TH_CHECK(ek_dlq_empty(&q), "not empty after deleting everything");
	TH_CHECK(ek_dlq_deadline(EK_U64_MAX - 1, 5) == EK_U64_MAX &&
		 ek_dlq_deadline(1, 5) == 6, "deadline saturation");
	return 0;
}
