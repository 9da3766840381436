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
#include "elvkit/dlq.h"
#include "elvkit/limit.h"
#include "elvkit/policy_list.h"

/* Tunable indices: the order of dl_tunables[]. */
enum {
	DL_READ_EXPIRE,
	DL_WRITE_EXPIRE,
	DL_WRITES_STARVED,
	DL_FIFO_BATCH,
	DL_FRONT_MERGES,
	DL_ASYNC_DEPTH,
	DL_NR_TUNABLES,
};

/* Counter indices: the order of dl_counters[] and of dl_data.count[]. */
enum {
	DL_C_READS,
	DL_C_WRITES,
	DL_C_OTHER,
	DL_C_EXPIRED,
	DL_C_STARVED,
	DL_NR_COUNTERS,
};

struct dl_data {
	struct ek_host *host;

	/* by sector and deadline; special: flush, passthrough, at_head */
	struct ek_dlq q;

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
	ek_u64 async_depth;

	ek_u64 count[DL_NR_COUNTERS];
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
	[DL_ASYNC_DEPTH] = {
		.name = "async_depth", .unit = "requests",
		.help = EK_ASYNC_DEPTH_HELP,
		.def = 0, .min = 0, .max = EK_ASYNC_DEPTH_MAX,
	},
};

static const struct ek_counter dl_counters[DL_NR_COUNTERS] = {
	[DL_C_READS] = {
		.name = "dispatched_reads", .unit = "requests",
		.help = "normal reads dispatched",
	},
	[DL_C_WRITES] = {
		.name = "dispatched_writes", .unit = "requests",
		.help = "normal writes dispatched",
	},
	[DL_C_OTHER] = {
		.name = "dispatched_other", .unit = "requests",
		.help = "flush, passthrough and at_head requests dispatched",
	},
	[DL_C_EXPIRED] = {
		.name = "expired_batches", .unit = "batches",
		.help = "batches started at an expired FIFO head",
	},
	[DL_C_STARVED] = {
		.name = "starved_batches", .unit = "batches",
		.help = "write batches forced by writes_starved",
	},
};

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
	case DL_ASYNC_DEPTH:
		dd->async_depth = (ek_u64)value;
		break;
	default:
		break;
	}
}

static ek_u64 dl_read_counter(void *sd, ek_u32 idx)
{
	struct dl_data *dd = sd;

	return idx < DL_NR_COUNTERS ? dd->count[idx] : 0;
}

static int dl_init(void *sd, struct ek_host *host, const ek_s64 *values)
{
	struct dl_data *dd = sd;
	ek_u32 i;

	dd->host = host;
	ek_dlq_init(&dd->q);
	for (i = 0; i < DL_NR_TUNABLES; i++)
		dl_set_tunable(dd, i, values[i]);
	/* batching = 0: the first dispatch chooses a direction. */
	dd->last_dir = EK_READ;
	dd->batching = 0;
	return 0;
}

/*
 * insert and dispatch are inline where a host calls them directly, as
 * the kernel module's per-request operations do (shim_hot.h); through
 * the policy's table they are functions.
 */
static ek_always_inline void dl_insert(void *sd, struct ek_rq *rq, ek_u64 now)
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
		ek_dlq_add_special(&dd->q, rq, rq->at_head);
		return;
	}

	/*
	 * From arrival, not from now: a requeued request keeps the deadline
	 * it had, since it has been waiting all along.
	 */
	ek_dlq_add(&dd->q, rq,
		   ek_dlq_deadline(rq->arrival_ns, dd->expire_ns[dir]));
}

/* Next request of dir in ascending sector order from where it stopped. */
static struct ek_rq *dl_next_sorted(struct dl_data *dd, ek_u8 dir)
{
	return ek_dlq_from(&dd->q, dir, dd->next_pos[dir]);
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

	rq = ek_dlq_special_head(&dd->q);
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
	if (ek_dlq_nr(&dd->q, EK_READ)) {
		/*
		 * Reads win unless writes are waiting and have already let
		 * writes_starved read batches go first.
		 */
		if (ek_dlq_nr(&dd->q, EK_WRITE) &&
		    dd->starved >= dd->writes_starved) {
			dir = EK_WRITE;
			*forced = 1;
		} else {
			dir = EK_READ;
		}
	} else if (ek_dlq_nr(&dd->q, EK_WRITE)) {
		dir = EK_WRITE;
	} else {
		return EK_NULL;
	}

	/*
	 * An expired deadline restarts the batch at the oldest request, as
	 * does running off the top of the sector range: the FIFO head is then
	 * a better place to begin the next sweep than sector zero.
	 */
	head = ek_dlq_fifo_head(&dd->q, dir);
	rq = dl_next_sorted(dd, dir);
	if (now >= head->deadline_ns) {
		*expired = 1;
		return head;
	}
	return rq ? rq : head;
}

static ek_always_inline struct ek_rq *dl_dispatch(void *sd, ek_u64 now)
{
	struct dl_data *dd = sd;
	struct ek_rq *rq;
	int new_batch, expired, forced;
	ek_u8 dir;

	rq = dl_choose(dd, now, &new_batch, &expired, &forced);
	if (!rq)
		return EK_NULL;

	if (ek_dlq_is_special(rq)) {
		ek_dlq_del(&dd->q, rq);
		dd->count[DL_C_OTHER]++;
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
		else if (ek_dlq_nr(&dd->q, EK_WRITE))
			dd->starved++;
		if (expired)
			dd->count[DL_C_EXPIRED]++;
		if (forced)
			dd->count[DL_C_STARVED]++;
		dd->batching = 0;
	}
	dd->batching++;
	dd->last_dir = dir;
	dd->next_pos[dir] = ek_rq_end(rq);
	ek_dlq_del(&dd->q, rq);
	dd->count[dir == EK_WRITE ? DL_C_WRITES : DL_C_READS]++;
	return rq;
}

static int dl_has_work(void *sd, ek_u64 now)
{
	struct dl_data *dd = sd;

	/* Never idles: anything queued is dispatchable now. */
	(void)now;
	return !ek_dlq_empty(&dd->q);
}

static struct ek_rq *dl_front_merge_candidate(void *sd, ek_u8 dir, ek_u64 end)
{
	struct dl_data *dd = sd;

	if (!dd->front_merges)
		return EK_NULL;
	return ek_dlq_front_merge_candidate(&dd->q, dir, end);
}

static void dl_merged(void *sd, struct ek_rq *rq, ek_u64 old_sector)
{
	struct dl_data *dd = sd;

	/* The tree key already records the old sector. */
	(void)old_sector;
	ek_dlq_resort(&dd->q, rq);
}

static ek_u32 dl_limit_depth(void *sd, ek_u8 dir, ek_u8 sync)
{
	struct dl_data *dd = sd;

	return ek_async_limit(dd->async_depth, dd->host->dev.nr_requests, dir,
			      sync);
}

static void dl_merged_requests(void *sd, struct ek_rq *rq, struct ek_rq *next)
{
	struct dl_data *dd = sd;

	ek_dlq_merge(&dd->q, rq, next);
}

const struct ek_policy ek_deadline_read_policy = {
	.name = "deadline-read",
	.description = "deadline scheduler with sorted batches, reads first",
	.sched_size = sizeof(struct dl_data),
	.pctx_size = 0,
	.tunables = dl_tunables,
	.nr_tunables = DL_NR_TUNABLES,
	.counters = dl_counters,
	.nr_counters = DL_NR_COUNTERS,
	/* Nothing allocated: no exit. Deadlines are about queues: no completed. */
	.init = dl_init,
	.set_tunable = dl_set_tunable,
	.read_counter = dl_read_counter,
	.insert = dl_insert,
	.dispatch = dl_dispatch,
	.has_work = dl_has_work,
	.front_merge_candidate = dl_front_merge_candidate,
	.merged = dl_merged,
	.merged_requests = dl_merged_requests,
	.limit_depth = dl_limit_depth,
	.flags = EK_POLICY_NEVER_IDLES | EK_POLICY_TICK_TIME,
};
