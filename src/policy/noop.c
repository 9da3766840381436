// SPDX-License-Identifier: GPL-2.0
/*
 * noop: first in, first out. A baseline for the simulator: no sorting, no
 * deadlines, no front merges (back merges are the host's business). It
 * stands for the kernel's none, and the host sizes its request pool so.
 * Requests the host marks at_head, and non-normal kinds, keep their place
 * at the front in the order they came.
 */
#include <elvkit/policy.h>

struct noop_data {
	struct ek_list fifo;
	struct ek_list *head_pos;	/* last at_head request, or &fifo */
	ek_u64 queued;
};

static int noop_init(void *sd, struct ek_host *host, const ek_s64 *values)
{
	struct noop_data *nd = sd;

	(void)host;
	(void)values;
	ek_list_init(&nd->fifo);
	nd->head_pos = &nd->fifo;
	nd->queued = 0;
	return 0;
}

static void noop_insert(void *sd, struct ek_rq *rq, ek_u64 now)
{
	struct noop_data *nd = sd;

	(void)now;
	if (rq->at_head) {
		/* after earlier at_head requests, before everything else */
		ek_list_insert_between(&rq->fifo, nd->head_pos, nd->head_pos->next);
		nd->head_pos = &rq->fifo;
	} else {
		ek_list_add_tail(&rq->fifo, &nd->fifo);
	}
	nd->queued++;
}

static void noop_unlink(struct noop_data *nd, struct ek_rq *rq)
{
	if (nd->head_pos == &rq->fifo)
		nd->head_pos = rq->fifo.prev;
	ek_list_del(&rq->fifo);
	nd->queued--;
}

static struct ek_rq *noop_dispatch(void *sd, ek_u64 now)
{
	struct noop_data *nd = sd;
	struct ek_rq *rq = ek_list_first(&nd->fifo, struct ek_rq, fifo);

	(void)now;
	if (rq)
		noop_unlink(nd, rq);
	return rq;
}

static int noop_has_work(void *sd, ek_u64 now)
{
	struct noop_data *nd = sd;

	(void)now;
	return !ek_list_empty(&nd->fifo);
}

static void noop_merged_requests(void *sd, struct ek_rq *rq, struct ek_rq *next)
{
	(void)rq;
	noop_unlink(sd, next);
}

const struct ek_policy ek_noop_policy = {
	.name = "noop",
	.description = "FIFO, no sorting, no deadlines",
	.sched_size = sizeof(struct noop_data),
	.pctx_size = 0,
	.tunables = EK_NULL,
	.nr_tunables = 0,
	/* Arrival order only: sectors and completions do not matter. */
	.init = noop_init,
	.insert = noop_insert,
	.dispatch = noop_dispatch,
	.has_work = noop_has_work,
	.merged_requests = noop_merged_requests,
	.flags = EK_POLICY_NEVER_IDLES | EK_POLICY_AS_NONE,
};
