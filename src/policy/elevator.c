// SPDX-License-Identifier: GPL-2.0
/*
 * elevator: the old one-way elevator (C-LOOK). Requests are kept sorted by
 * sector; dispatch takes the first request at or beyond the head's last
 * position and wraps to the lowest sector when nothing is left ahead. There
 * are no deadlines and no read preference, so a stream of requests landing
 * just ahead of the head (a streaming writer) starves everybody else, as
 * the 2.4 elevator did. A baseline for the simulator.
 *
 * Requests marked at_head and non-normal kinds bypass the sort on a FIFO
 * that is always served first.
 */
#include <elvkit/policy.h>

struct elv_data {
	struct ek_rb_root sorted;
	struct ek_list head_fifo;	/* at_head and non-normal requests */
	ek_u64 head_sector;		/* end of the last dispatched request */
	ek_u64 queued;
};

#define ELV_IN_FIFO 1u	/* policy_data[0]: which queue the request is on */

static int elv_init(void *sd, struct ek_host *host, const ek_s64 *values)
{
	struct elv_data *ed = sd;

	(void)host;
	(void)values;
	ek_rb_init(&ed->sorted);
	ek_list_init(&ed->head_fifo);
	ed->head_sector = 0;
	ed->queued = 0;
	return 0;
}

static void elv_insert(void *sd, struct ek_rq *rq, ek_u64 now)
{
	struct elv_data *ed = sd;

	(void)now;
	if (rq->at_head || rq->kind != EK_KIND_NORMAL) {
		rq->policy_data[0] = ELV_IN_FIFO;
		ek_list_add_tail(&rq->fifo, &ed->head_fifo);
	} else {
		rq->policy_data[0] = 0;
		ek_rb_insert(&ed->sorted, &rq->sort, rq->sector);
	}
	ed->queued++;
}

static void elv_unlink(struct elv_data *ed, struct ek_rq *rq)
{
	if (rq->policy_data[0] == ELV_IN_FIFO)
		ek_list_del(&rq->fifo);
	else
		ek_rb_erase(&ed->sorted, &rq->sort);
	ed->queued--;
}

static struct ek_rq *elv_dispatch(void *sd, ek_u64 now)
{
	struct elv_data *ed = sd;
	struct ek_rq *rq = ek_list_first(&ed->head_fifo, struct ek_rq, fifo);
	struct ek_rb_node *n;

	(void)now;
	if (!rq) {
		n = ek_rb_lower_bound(&ed->sorted, ed->head_sector);
		if (!n)
			n = ek_rb_first(&ed->sorted);	/* wrap: one-way sweep */
		if (!n)
			return EK_NULL;
		rq = ek_rb_entry(n, struct ek_rq, sort);
	}
	elv_unlink(ed, rq);
	if (rq->kind == EK_KIND_NORMAL)
		ed->head_sector = ek_rq_end(rq);
	return rq;
}

static int elv_has_work(void *sd, ek_u64 now)
{
	struct elv_data *ed = sd;

	(void)now;
	return ed->queued != 0;
}

static struct ek_rq *elv_front_merge_candidate(void *sd, ek_u8 dir, ek_u64 end)
{
	struct elv_data *ed = sd;
	struct ek_rb_node *n = ek_rb_find(&ed->sorted, end);

	for (; n && n->key == end; n = ek_rb_next(n)) {
		struct ek_rq *rq = ek_rb_entry(n, struct ek_rq, sort);

		if (rq->dir == dir)
			return rq;
	}
	return EK_NULL;
}

static void elv_merged(void *sd, struct ek_rq *rq, ek_u64 old_sector)
{
	struct elv_data *ed = sd;

	if (rq->policy_data[0] == ELV_IN_FIFO || rq->sector == old_sector)
		return;
	ek_rb_erase(&ed->sorted, &rq->sort);
	ek_rb_insert(&ed->sorted, &rq->sort, rq->sector);
}

static void elv_merged_requests(void *sd, struct ek_rq *rq, struct ek_rq *next)
{
	(void)rq;
	elv_unlink(sd, next);
}

const struct ek_policy ek_elevator_policy = {
	.name = "elevator",
	.description = "one-way sector sort (C-LOOK), no deadlines: starves",
	.sched_size = sizeof(struct elv_data),
	.pctx_size = 0,
	.tunables = EK_NULL,
	.nr_tunables = 0,
	.init = elv_init,
	.insert = elv_insert,
	.dispatch = elv_dispatch,
	.has_work = elv_has_work,
	.front_merge_candidate = elv_front_merge_candidate,
	.merged = elv_merged,
	.merged_requests = elv_merged_requests,
};
