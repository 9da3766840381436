// SPDX-License-Identifier: GPL-2.0
/*
 * The deadline queue (see include/elvkit/dlq.h): the sorted trees, deadline
 * FIFOs and special FIFO that deadline-read and anticipatory used to keep
 * each in its own copy.
 */
#include "elvkit/dlq.h"

void ek_dlq_init(struct ek_dlq *q)
{
	int dir;

	for (dir = EK_READ; dir <= EK_WRITE; dir++) {
		ek_rb_init(&q->sort[dir]);
		ek_list_init(&q->fifo[dir]);
	}
	ek_list_init(&q->special);
}

void ek_dlq_add(struct ek_dlq *q, struct ek_rq *rq, ek_u64 deadline_ns)
{
	ek_u8 dir = ek_dlq_dir(rq->dir);
	struct ek_list *head = &q->fifo[dir], *pos = head->prev;

	rq->deadline_ns = deadline_ns;
	/*
	 * Arrivals normally have the latest deadline, so this stops at once;
	 * it walks only for a requeued request or after an expire time was
	 * lowered.
	 */
	while (pos != head &&
	       ek_list_entry(pos, struct ek_rq, fifo)->deadline_ns >
	       deadline_ns)
		pos = pos->prev;
	ek_list_insert_between(&rq->fifo, pos, pos->next);
	ek_rb_insert(&q->sort[dir], &rq->sort, rq->sector);
	rq->policy_data[0] = EK_DLQ_SORTED;
}

void ek_dlq_add_special(struct ek_dlq *q, struct ek_rq *rq, int front)
{
	if (front)
		ek_list_add_head(&rq->fifo, &q->special);
	else
		ek_list_add_tail(&rq->fifo, &q->special);
	rq->policy_data[0] = EK_DLQ_SPECIAL;
}

void ek_dlq_del(struct ek_dlq *q, struct ek_rq *rq)
{
	if (ek_dlq_is_sorted(rq))
		ek_rb_erase(&q->sort[ek_dlq_dir(rq->dir)], &rq->sort);
	ek_list_del(&rq->fifo);
	rq->policy_data[0] = EK_DLQ_NONE;
}

void ek_dlq_resort(struct ek_dlq *q, struct ek_rq *rq)
{
	struct ek_rb_root *t = &q->sort[ek_dlq_dir(rq->dir)];

	if (!ek_dlq_is_sorted(rq) || rq->sort.key == rq->sector)
		return;
	ek_rb_erase(t, &rq->sort);
	ek_rb_insert(t, &rq->sort, rq->sector);
}

void ek_dlq_merge(struct ek_dlq *q, struct ek_rq *rq, struct ek_rq *next)
{
	/* Taking next's FIFO place keeps the FIFO in deadline order. */
	if (ek_dlq_is_sorted(rq) && ek_dlq_is_sorted(next) &&
	    next->deadline_ns < rq->deadline_ns) {
		ek_list_del(&rq->fifo);
		ek_list_add_tail(&rq->fifo, &next->fifo);
		rq->deadline_ns = next->deadline_ns;
	}
	ek_dlq_del(q, next);
	ek_dlq_resort(q, rq);
}
