/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The deadline queue shared by the deadline-style policies (deadline-read,
 * anticipatory, and fair-queue to come): per direction a sector-sorted
 * tree (rq->sort) and a FIFO in deadline order (rq->fifo, earliest first),
 * plus one "special" FIFO for requests that must not be sorted or merged
 * (flushes, passthrough, at_head, requeued). Which of them a policy puts a
 * request on, how it computes deadlines and how it picks from the queue is
 * its own business; keeping the structures consistent is this library's.
 *
 * A queued request's rq->policy_data[0] belongs to the queue (EK_DLQ_*);
 * rq->sort, rq->fifo and rq->deadline_ns too. policy_data[1] stays the
 * policy's.
 */
#ifndef ELVKIT_DLQ_H
#define ELVKIT_DLQ_H

#include "policy.h"

/* rq->policy_data[0]: where a request is linked. */
#define EK_DLQ_NONE	0u	/* not queued (dispatched, merged away) */
#define EK_DLQ_SORTED	1u	/* in sort[dir] and fifo[dir] */
#define EK_DLQ_SPECIAL	2u	/* in special only */

struct ek_dlq {
	struct ek_rb_root sort[2];	/* by start sector */
	struct ek_list fifo[2];		/* by deadline, earliest first */
	struct ek_list special;		/* first come, first served */
};

void ek_dlq_init(struct ek_dlq *q);
/*
 * Queue rq sorted, due at deadline_ns. Among equal deadlines arrival
 * order is kept; an earlier deadline (a requeued request, a lowered
 * expire time) goes ahead of later ones, so the FIFO head is always the
 * earliest deadline of its direction.
 */
void ek_dlq_add(struct ek_dlq *q, struct ek_rq *rq, ek_u64 deadline_ns);
/* Queue rq on the special FIFO, at its front or its back. */
void ek_dlq_add_special(struct ek_dlq *q, struct ek_rq *rq, int front);
/* Take rq off whatever it is on (dispatch, or merged away). */
void ek_dlq_del(struct ek_dlq *q, struct ek_rq *rq);
/* rq's start sector changed (a front merge): move it in its tree. */
void ek_dlq_resort(struct ek_dlq *q, struct ek_rq *rq);
/*
 * next was absorbed into rq: rq carries next's data too, so it keeps the
 * earlier of both deadlines (with next's FIFO place); next leaves the
 * queue and rq is resorted.
 */
void ek_dlq_merge(struct ek_dlq *q, struct ek_rq *rq, struct ek_rq *next);

static inline ek_u8 ek_dlq_dir(ek_u8 dir)
{
	return dir ? EK_WRITE : EK_READ;
}

/*
 * Lookups are inline: policies call them several times per request (the
 * cost harness counts each extra call).
 */
static inline struct ek_rq *ek_dlq_sort_rq(struct ek_rb_node *n)
{
	return n ? ek_rb_entry(n, struct ek_rq, sort) : EK_NULL;
}

/* The first sorted request of dir at or after sector pos, or NULL. */
static inline struct ek_rq *ek_dlq_from(struct ek_dlq *q, ek_u8 dir,
					ek_u64 pos)
{
	return ek_dlq_sort_rq(ek_rb_lower_bound(&q->sort[ek_dlq_dir(dir)],
						pos));
}

/* The lowest-sector request of dir, or NULL. */
static inline struct ek_rq *ek_dlq_lowest(struct ek_dlq *q, ek_u8 dir)
{
	return ek_dlq_sort_rq(ek_rb_first(&q->sort[ek_dlq_dir(dir)]));
}

/*
 * A sorted request of dir starting exactly at end, or NULL (front
 * merges). Only sorted requests are in the trees: specials never merge.
 */
static inline struct ek_rq *ek_dlq_front_merge_candidate(struct ek_dlq *q,
							 ek_u8 dir, ek_u64 end)
{
	return ek_dlq_sort_rq(ek_rb_find(&q->sort[ek_dlq_dir(dir)], end));
}

/* Sorted requests of dir. */
static inline ek_u64 ek_dlq_nr(const struct ek_dlq *q, ek_u8 dir)
{
	return q->sort[ek_dlq_dir(dir)].count;
}

/* Nothing queued at all, special or sorted. */
static inline int ek_dlq_empty(const struct ek_dlq *q)
{
	return ek_list_empty(&q->special) && !q->sort[EK_READ].count &&
	       !q->sort[EK_WRITE].count;
}

/* The earliest deadline of dir, or NULL. */
static inline struct ek_rq *ek_dlq_fifo_head(struct ek_dlq *q, ek_u8 dir)
{
	return ek_list_first(&q->fifo[ek_dlq_dir(dir)], struct ek_rq, fifo);
}

static inline struct ek_rq *ek_dlq_special_head(struct ek_dlq *q)
{
	return ek_list_first(&q->special, struct ek_rq, fifo);
}

static inline int ek_dlq_is_special(const struct ek_rq *rq)
{
	return rq->policy_data[0] == EK_DLQ_SPECIAL;
}

static inline int ek_dlq_is_sorted(const struct ek_rq *rq)
{
	return rq->policy_data[0] == EK_DLQ_SORTED;
}

/* start + span, saturated: a deadline that never comes rather than a wrap. */
static inline ek_u64 ek_dlq_deadline(ek_u64 start, ek_u64 span)
{
	return start + span < start ? EK_U64_MAX : start + span;
}

#endif
