// SPDX-License-Identifier: GPL-2.0
/*
 * deadline-read: a deadline scheduler that prefers reads, modelled on the
 * kernel's mq-deadline.
 *
 * Each direction has a sector-sorted tree (rq->sort, to give the device
 * long ascending runs) and a FIFO in deadline order (rq->fifo, to bound
 * latency). Requests leave in batches of up to fifo_batch requests of one
 * direction in ascending sector order. Only at a batch boundary is the
 * direction chosen (reads, unless writes have waited writes_starved read
 * batches) and the FIFO head consulted: an expired head restarts the
 * batch there, otherwise the direction continues from where its last
 * batch stopped. Flushes, passthrough commands and at_head requests skip
 * all of this and go out first, in their own FIFO.
 *
 * The policy never idles, so it never arms a timer: has_work is simply
 * "something is queued".
 */
#include "elvkit/policy.h"
#include "elvkit/policy_list.h"

/* Tunable and statistic indices: the order of dl_tunables[]. */
enum {
	DL_READ_EXPIRE,
	DL_WRITE_EXPIRE,
	DL_WRITES_STARVED,
	DL_FIFO_BATCH,
	DL_FRONT_MERGES,
	DL_STAT_READS,
	DL_STAT_WRITES,
	DL_STAT_OTHER,
	DL_STAT_EXPIRED,
	DL_STAT_STARVED,
	DL_NR_TUNABLES,
};

/* Where a queued request is linked, kept in rq->policy_data[0]. */
enum {
	DL_Q_NONE = 0,
	DL_Q_SORTED,		/* in sort[dir] and fifo[dir] */
	DL_Q_SPECIAL,		/* in the pass-first FIFO only */
};

struct dl_data {
	struct ek_host *host;

	struct ek_rb_root sort[2];	/* by start sector */
	struct ek_list fifo[2];		/* by deadline, oldest first */
	struct ek_list special;		/* flush, passthrough, at_head */
	ek_u32 nr_queued[2];

	/*
	 * Where the last batch of each direction stopped (end sector of the
	 * last request it dispatched). A position rather than a pointer to
	 * the next request, so merges and erasures need no fix-up.
	 */
	ek_u64 next_pos[2];
	ek_u8 last_dir;
	ek_u32 batching;		/* requests in this batch, 0 = none */
	ek_u32 starved;			/* read batches while writes waited */

	/* tunables, in nanoseconds where times */
	ek_u64 expire_ns[2];
	ek_u32 writes_starved;
	ek_u32 fifo_batch;
	ek_u32 front_merges;

	ek_u64 stat[DL_NR_TUNABLES - DL_STAT_READS];
};

static const struct ek_tunable dl_tunables[DL_NR_TUNABLES] = {
	[DL_READ_EXPIRE] = {
		.name = "read_expire", .unit = "ms",
		.help = "deadline of a read after its arrival",
		.def = 125, .min = 0, .max = 3600000,
	},
	[DL_WRITE_EXPIRE] = {
		.name = "write_expire", .unit = "ms",
		.help = "deadline of a write after its arrival",
		.def = 5000, .min = 0, .max = 3600000,
	},
	[DL_WRITES_STARVED] = {
		.name = "writes_starved", .unit = "batches",
		.help = "read batches allowed while writes wait; 0 = writes first",
		.def = 2, .min = 0, .max = 1000000,
	},
	[DL_FIFO_BATCH] = {
		.name = "fifo_batch", .unit = "requests",
		.help = "most requests dispatched in one sector-sorted batch",
		.def = 16, .min = 1, .max = 1000000,
	},
	[DL_FRONT_MERGES] = {
		.name = "front_merges", .unit = "bool",
		.help = "1 = offer queued requests for front merging",
		.def = 1, .min = 0, .max = 1,
	},
	[DL_STAT_READS] = {
		.name = "dispatched_reads", .unit = "requests",
		.help = "normal reads dispatched",
		.flags = EK_TUN_RO,
	},
	[DL_STAT_WRITES] = {
		.name = "dispatched_writes", .unit = "requests",
		.help = "normal writes dispatched",
		.flags = EK_TUN_RO,
	},
	[DL_STAT_OTHER] = {
		.name = "dispatched_other", .unit = "requests",
		.help = "flush, passthrough and at_head requests dispatched",
		.flags = EK_TUN_RO,
	},
	[DL_STAT_EXPIRED] = {
		.name = "expired_batches", .unit = "batches",
		.help = "batches started at an expired FIFO head",
		.flags = EK_TUN_RO,
	},
	[DL_STAT_STARVED] = {
		.name = "starved_batches", .unit = "batches",
		.help = "write batches forced by writes_starved",
		.flags = EK_TUN_RO,
	},
};

static inline struct ek_rq *sort_rq(struct ek_rb_node *n)
{
	return n ? ek_rb_entry(n, struct ek_rq, sort) : EK_NULL;
}

static void dl_set_tunable(void *sd, ek_u32 idx, ek_s64 value)
{
	struct dl_data *dd = sd;

	/* The host has range-checked value; new times apply to new arrivals. */
	switch (idx) {
	case DL_READ_EXPIRE:
		dd->expire_ns[EK_READ] = (ek_u64)value * EK_NSEC_PER_MSEC;
		break;
	case DL_WRITE_EXPIRE:
		dd->expire_ns[EK_WRITE] = (ek_u64)value * EK_NSEC_PER_MSEC;
		break;
	case DL_WRITES_STARVED:
		dd->writes_starved = (ek_u32)value;
		break;
	case DL_FIFO_BATCH:
		dd->fifo_batch = (ek_u32)value;
		break;
	case DL_FRONT_MERGES:
		dd->front_merges = (ek_u32)value;
		break;
	default:
		break;
	}
}

static ek_u64 dl_get_stat(void *sd, ek_u32 idx)
{
	struct dl_data *dd = sd;

	if (idx < DL_STAT_READS || idx >= DL_NR_TUNABLES)
		return 0;
	return dd->stat[idx - DL_STAT_READS];
}

static int dl_init(void *sd, struct ek_host *host, const ek_s64 *values)
{
	struct dl_data *dd = sd;
	ek_u32 i;

	dd->host = host;
	for (i = 0; i < 2; i++) {
		ek_rb_init(&dd->sort[i]);
		ek_list_init(&dd->fifo[i]);
	}
	ek_list_init(&dd->special);
	for (i = 0; i < DL_STAT_READS; i++)
		dl_set_tunable(dd, i, values[i]);
	/* batching = 0: the first dispatch chooses a direction. */
	dd->last_dir = EK_READ;
	dd->batching = 0;
	return 0;
}

static void dl_exit(void *sd)
{
	/* Nothing allocated; the host only calls this with nothing queued. */
	(void)sd;
}

/* Insert into a FIFO kept in deadline order. */
static void fifo_add(struct ek_list *head, struct ek_rq *rq)
{
	struct ek_list *pos = head->prev;

	/*
	 * Arrivals normally have the latest deadline, so this stops at once;
	 * it walks only for a requeued request or after read_expire or
	 * write_expire was lowered. Equal deadlines keep arrival order.
	 */
	while (pos != head &&
	       ek_list_entry(pos, struct ek_rq, fifo)->deadline_ns >
	       rq->deadline_ns)
		pos = pos->prev;
	ek_list_insert_between(&rq->fifo, pos, pos->next);
}

static void dl_insert(void *sd, struct ek_rq *rq, ek_u64 now)
{
	struct dl_data *dd = sd;
	ek_u8 dir = rq->dir ? EK_WRITE : EK_READ;

	(void)now;
	if (rq->kind != EK_KIND_NORMAL || rq->at_head) {
		/*
		 * Order matters to whoever sent these (a flush after the
		 * writes it covers, a requeue that was already at the
		 * device): no sorting, no merging, no deadline games.
		 */
		if (rq->at_head)
			ek_list_add_head(&rq->fifo, &dd->special);
		else
			ek_list_add_tail(&rq->fifo, &dd->special);
		rq->policy_data[0] = DL_Q_SPECIAL;
		return;
	}

	/*
	 * From arrival, not from now: a requeued request keeps the deadline
	 * it had, since it has been waiting all along.
	 */
	rq->deadline_ns = rq->arrival_ns + dd->expire_ns[dir];
	if (rq->deadline_ns < rq->arrival_ns)
		rq->deadline_ns = EK_U64_MAX;
	ek_rb_insert(&dd->sort[dir], &rq->sort, rq->sector);
	fifo_add(&dd->fifo[dir], rq);
	dd->nr_queued[dir]++;
	rq->policy_data[0] = DL_Q_SORTED;
}

static void dl_unlink(struct dl_data *dd, struct ek_rq *rq)
{
	ek_u8 dir = rq->dir ? EK_WRITE : EK_READ;

	if (rq->policy_data[0] == DL_Q_SORTED) {
		ek_rb_erase(&dd->sort[dir], &rq->sort);
		dd->nr_queued[dir]--;
	}
	ek_list_del(&rq->fifo);
	rq->policy_data[0] = DL_Q_NONE;
}

/* Next request of dir in ascending sector order from where it stopped. */
static struct ek_rq *dl_next_sorted(struct dl_data *dd, ek_u8 dir)
{
	return sort_rq(ek_rb_lower_bound(&dd->sort[dir], dd->next_pos[dir]));
}

static struct ek_rq *dl_fifo_head(struct dl_data *dd, ek_u8 dir)
{
	return ek_list_first(&dd->fifo[dir], struct ek_rq, fifo);
}

/*
 * The choice dispatch makes, without side effects, so that has_work and
 * dispatch cannot disagree. *new_batch tells whether a batch starts;
 * *forced whether writes were chosen only because they were starved.
 */
static struct ek_rq *dl_choose(struct dl_data *dd, ek_u64 now,
			       int *new_batch, int *expired, int *forced)
{
	struct ek_rq *rq, *head;
	ek_u8 dir;

	*new_batch = 0;
	*expired = 0;
	*forced = 0;

	rq = ek_list_first(&dd->special, struct ek_rq, fifo);
	if (rq)
		return rq;

	/*
	 * Continue the current batch in sector order while entitled (no
	 * batch yet: batching is 0). fifo_batch may have been lowered
	 * under a running batch; it then ends at once.
	 */
	if (dd->batching && dd->batching < dd->fifo_batch) {
		rq = dl_next_sorted(dd, dd->last_dir);
		if (rq)
			return rq;
	}

	*new_batch = 1;
	if (dd->nr_queued[EK_READ]) {
		/*
		 * Reads win unless writes are waiting and have already let
		 * writes_starved read batches go first.
		 */
		if (dd->nr_queued[EK_WRITE] &&
		    dd->starved >= dd->writes_starved) {
			dir = EK_WRITE;
			*forced = 1;
		} else {
			dir = EK_READ;
		}
	} else if (dd->nr_queued[EK_WRITE]) {
		dir = EK_WRITE;
	} else {
		return EK_NULL;
	}

	/*
	 * An expired deadline restarts the batch at the oldest request, as
	 * does running off the top of the sector range: the FIFO head is then
	 * a better place to begin the next sweep than sector zero.
	 */
	head = dl_fifo_head(dd, dir);
	rq = dl_next_sorted(dd, dir);
	if (now >= head->deadline_ns) {
		*expired = 1;
		return head;
	}
	return rq ? rq : head;
}

static struct ek_rq *dl_dispatch(void *sd, ek_u64 now)
{
	struct dl_data *dd = sd;
	struct ek_rq *rq;
	int new_batch, expired, forced;
	ek_u8 dir;

	rq = dl_choose(dd, now, &new_batch, &expired, &forced);
	if (!rq)
		return EK_NULL;

	if (rq->policy_data[0] == DL_Q_SPECIAL) {
		dl_unlink(dd, rq);
		dd->stat[DL_STAT_OTHER - DL_STAT_READS]++;
		return rq;
	}

	dir = rq->dir ? EK_WRITE : EK_READ;
	if (new_batch) {
		/*
		 * starved counts read batches begun while writes waited;
		 * any write batch pays the debt.
		 */
		if (dir == EK_WRITE)
			dd->starved = 0;
		else if (dd->nr_queued[EK_WRITE])
			dd->starved++;
		if (expired)
			dd->stat[DL_STAT_EXPIRED - DL_STAT_READS]++;
		if (forced)
			dd->stat[DL_STAT_STARVED - DL_STAT_READS]++;
		dd->batching = 0;
	}
	dd->batching++;
	dd->last_dir = dir;
	dd->next_pos[dir] = ek_rq_end(rq);
	dl_unlink(dd, rq);
	dd->stat[(dir == EK_WRITE ? DL_STAT_WRITES : DL_STAT_READS) -
		 DL_STAT_READS]++;
	return rq;
}

static int dl_has_work(void *sd, ek_u64 now)
{
	struct dl_data *dd = sd;

	/* Never idles: anything queued is dispatchable now. */
	(void)now;
	return !ek_list_empty(&dd->special) || dd->nr_queued[EK_READ] ||
	       dd->nr_queued[EK_WRITE];
}

static void dl_completed(void *sd, struct ek_rq *rq, ek_u64 now)
{
	/* Deadlines are about queueing; completion changes nothing here. */
	(void)sd;
	(void)rq;
	(void)now;
}

static struct ek_rq *dl_front_merge_candidate(void *sd, ek_u8 dir, ek_u64 end)
{
	struct dl_data *dd = sd;

	if (!dd->front_merges)
		return EK_NULL;
	/* Only sorted requests are in the tree: specials never merge. */
	return sort_rq(ek_rb_find(&dd->sort[dir ? EK_WRITE : EK_READ], end));
}

/* Move rq in its sort tree if its start sector has changed. */
static void dl_resort(struct dl_data *dd, struct ek_rq *rq)
{
	ek_u8 dir = rq->dir ? EK_WRITE : EK_READ;

	if (rq->policy_data[0] != DL_Q_SORTED || rq->sort.key == rq->sector)
		return;
	ek_rb_erase(&dd->sort[dir], &rq->sort);
	ek_rb_insert(&dd->sort[dir], &rq->sort, rq->sector);
}

static void dl_merged(void *sd, struct ek_rq *rq, ek_u64 old_sector)
{
	/* The tree key already records the old sector. */
	(void)old_sector;
	dl_resort(sd, rq);
}

static void dl_merged_requests(void *sd, struct ek_rq *rq, struct ek_rq *next)
{
	struct dl_data *dd = sd;

	/*
	 * The merged request carries next's data too, so it must meet the
	 * earlier of both deadlines: take next's deadline and FIFO place
	 * (which keeps the FIFO in deadline order).
	 */
	if (rq->policy_data[0] == DL_Q_SORTED &&
	    next->policy_data[0] == DL_Q_SORTED &&
	    next->deadline_ns < rq->deadline_ns) {
		ek_list_del(&rq->fifo);
		ek_list_add_tail(&rq->fifo, &next->fifo);
		rq->deadline_ns = next->deadline_ns;
	}
	dl_unlink(dd, next);
	dl_resort(dd, rq);
}

const struct ek_policy ek_deadline_read_policy = {
	.name = "deadline-read",
	.description = "deadline scheduler with sorted batches, reads first",
	.sched_size = sizeof(struct dl_data),
	.pctx_size = 0,
	.tunables = dl_tunables,
	.nr_tunables = DL_NR_TUNABLES,
	.init = dl_init,
	.exit = dl_exit,
	.set_tunable = dl_set_tunable,
	.get_stat = dl_get_stat,
	.insert = dl_insert,
	.dispatch = dl_dispatch,
	.has_work = dl_has_work,
	.completed = dl_completed,
	.front_merge_candidate = dl_front_merge_candidate,
	.merged = dl_merged,
	.merged_requests = dl_merged_requests,
};
