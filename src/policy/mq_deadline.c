// SPDX-License-Identifier: GPL-2.0
/*
 * mq-deadline: the kernel's own deadline scheduler (block/mq-deadline.c) as
 * Debian's 6.12 has it, for the simulator only. Every kernel A/B run has it
 * beside elvkit's schedulers; with this the simulator's A/B has it too, and
 * bench-sim-vs-kernel.sh can hold the simulator against the kernel on a
 * scheduler the project did not write. Not built as a module.
 *
 * Three priority levels (RT; BE, with requests of no class; IDLE), each a
 * read and a write queue sorted by sector, with FIFOs in deadline order.
 * Requests leave in batches of up to fifo_batch of one direction: each the
 * first queued at or after the sector where the level's previous request
 * of that direction started (latest_pos: a request that arrives there joins
 * the batch). A new batch takes reads unless writes are queued and have
 * already let writes_starved read batches pass (the count goes up at every
 * such choice, whichever direction wins); it starts at the FIFO head when
 * that has expired or nothing lies at or beyond latest_pos, else there.
 * A level is served only while no higher one has requests queued or on
 * the device, except that a request of a lower level queued for
 * prio_aging_expire goes first (tried at every dispatch while two levels
 * are busy, with the batch state it leaves behind even when it finds none
 * old enough, as the kernel's code does). at_head requests go to the front
 * of one dispatch list, served before everything. Times in jiffies at
 * HZ=250, Debian's CONFIG_HZ: a deadline comes at the first tick at or
 * after arrival's tick plus the expire time in ticks.
 *
 * Where it differs from the kernel: the kernel never hands its scheduler
 * flushes or passthrough commands (they bypass it); the simulator does, and
 * they go to the back of the dispatch list. A lower level that waits for a
 * higher one's requests to leave the device is served at the completion
 * that frees it (the simulator runs the queue after every completion); the
 * kernel's dispatch then returned nothing, and blk-mq ran the queue again
 * 3 ms later or at the next insert (the same after an expire time was
 * lowered under queued requests). async_depth 0 stands for nr_requests,
 * 6.12's default (no limit). Zoned write ordering is not modelled.
 */
#include "elvkit/dlq.h"
#include "elvkit/limit.h"
#include "elvkit/policy_list.h"

#define MD_TICK_NS	(4 * EK_NSEC_PER_MSEC)	/* HZ=250 */
#define MD_LEVELS	3			/* RT, BE, IDLE */
#define MD_BE		1
#define MD_ANY_TICK	((ek_s64)(EK_U64_MAX >> 1))	/* md_pick: no age limit */

enum {
	MD_READ_EXPIRE,
	MD_WRITE_EXPIRE,
	MD_WRITES_STARVED,
	MD_FRONT_MERGES,
	MD_ASYNC_DEPTH,
	MD_FIFO_BATCH,
	MD_PRIO_AGING_EXPIRE,
	MD_NR_TUNABLES,
};

enum {
	MD_C_READS,
	MD_C_WRITES,
	MD_C_OTHER,
	MD_C_EXPIRED,
	MD_C_STARVED,
	MD_C_AGED,
	MD_NR_COUNTERS,
};

/* What a dispatch changes besides the queues: tried on a copy by has_work. */
struct md_batch {
	ek_u8 last_dir;
	ek_u32 batching;
	ek_u32 starved;
};

struct md_data {
	struct ek_host *host;
	/* per level; the dispatch list is q[0]'s special FIFO */
	struct ek_dlq q[MD_LEVELS];
	ek_u64 latest_pos[MD_LEVELS][2];
	/* per level: inserted and not completed (queued or on the device) */
	ek_u64 busy[MD_LEVELS];
	struct md_batch b;

	ek_u64 expire_ticks[2];
	ek_u32 writes_starved;
	ek_u32 front_merges;
	ek_u64 async_depth;
	ek_u32 fifo_batch;
	ek_u64 aging_ticks;

	ek_u64 count[MD_NR_COUNTERS];
};

static const struct ek_tunable md_tunables[MD_NR_TUNABLES] = {
	[MD_READ_EXPIRE] = {
		.name = "read_expire", .unit = "ms",
		.help = "deadline of a read after its arrival",
		.def = 500, .min = 0, .max = 3600000,
	},
	[MD_WRITE_EXPIRE] = {
		.name = "write_expire", .unit = "ms",
		.help = "deadline of a write after its arrival",
		.def = 5000, .min = 0, .max = 3600000,
	},
	[MD_WRITES_STARVED] = {
		.name = "writes_starved", .unit = "batches",
		.help = "read batches allowed while writes wait; 0 = writes first",
		.def = 2, .min = 0, .max = 1000000,
	},
	[MD_FRONT_MERGES] = {
		.name = "front_merges", .unit = "bool",
		.help = "1 = offer queued requests for front merging",
		.def = 1, .min = 0, .max = 1,
	},
	[MD_ASYNC_DEPTH] = {
		.name = "async_depth", .unit = "requests",
		.help = EK_ASYNC_DEPTH_HELP,
		.def = 0, .min = 0, .max = EK_ASYNC_DEPTH_MAX,
	},
	[MD_FIFO_BATCH] = {
		.name = "fifo_batch", .unit = "requests",
		.help = "most requests dispatched in one sector-sorted batch; 0 = one",
		.def = 16, .min = 0, .max = 1000000,
	},
	[MD_PRIO_AGING_EXPIRE] = {
		.name = "prio_aging_expire", .unit = "ms",
		.help = "a lower priority level's request queued this long goes first",
		.def = 10000, .min = 0, .max = 3600000,
	},
};

static const struct ek_counter md_counters[MD_NR_COUNTERS] = {
	[MD_C_READS] = {
		.name = "dispatched_reads", .unit = "requests",
		.help = "normal reads dispatched",
	},
	[MD_C_WRITES] = {
		.name = "dispatched_writes", .unit = "requests",
		.help = "normal writes dispatched",
	},
	[MD_C_OTHER] = {
		.name = "dispatched_other", .unit = "requests",
		.help = "flush, passthrough and at_head requests dispatched",
	},
	[MD_C_EXPIRED] = {
		.name = "expired_batches", .unit = "batches",
		.help = "batches started at an expired FIFO head",
	},
	[MD_C_STARVED] = {
		.name = "starved_batches", .unit = "batches",
		.help = "write batches forced by writes_starved",
	},
	[MD_C_AGED] = {
		.name = "aged_dispatches", .unit = "requests",
		.help = "requests of a lower level dispatched first by prio_aging_expire",
	},
};

static ek_u64 md_ticks(ek_u64 ns)
{
	return ns / MD_TICK_NS;
}

/* msecs_to_jiffies(): rounded up. */
static ek_u64 md_ms_to_ticks(ek_s64 ms)
{
	return ((ek_u64)ms * EK_NSEC_PER_MSEC + MD_TICK_NS - 1) / MD_TICK_NS;
}

static void md_set_tunable(void *sd, ek_u32 idx, ek_s64 value)
{
	struct md_data *md = sd;

	switch (idx) {
	case MD_READ_EXPIRE:
		md->expire_ticks[EK_READ] = md_ms_to_ticks(value);
		break;
	case MD_WRITE_EXPIRE:
		md->expire_ticks[EK_WRITE] = md_ms_to_ticks(value);
		break;
	case MD_WRITES_STARVED:
		md->writes_starved = (ek_u32)value;
		break;
	case MD_FRONT_MERGES:
		md->front_merges = (ek_u32)value;
		break;
	case MD_ASYNC_DEPTH:
		md->async_depth = (ek_u64)value;
		break;
	case MD_FIFO_BATCH:
		md->fifo_batch = (ek_u32)value;
		break;
	case MD_PRIO_AGING_EXPIRE:
		md->aging_ticks = md_ms_to_ticks(value);
		break;
	default:
		break;
	}
}

static ek_u64 md_read_counter(void *sd, ek_u32 idx)
{
	struct md_data *md = sd;

	return idx < MD_NR_COUNTERS ? md->count[idx] : 0;
}

static int md_init(void *sd, struct ek_host *host, const ek_s64 *values)
{
	struct md_data *md = sd;
	ek_u32 i;

	md->host = host;
	for (i = 0; i < MD_LEVELS; i++)
		ek_dlq_init(&md->q[i]);
	for (i = 0; i < MD_NR_TUNABLES; i++)
		md_set_tunable(md, i, values[i]);
	md->b.last_dir = EK_WRITE;
	return 0;
}

/* ioprio_class_to_prio[]: no class is best effort. */
static ek_u32 md_level(const struct ek_rq *rq)
{
	switch (rq->prio_class) {
	case EK_PRIO_RT:
		return 0;
	case EK_PRIO_IDLE:
		return 2;
	default:
		return MD_BE;
	}
}

/*
 * The tick the request arrived in, as started_after() reckons it: its
 * deadline less the expire time in force now.
 */
static ek_u64 md_arrival_tick(const struct md_data *md, const struct ek_rq *rq)
{
	ek_u64 deadline = md_ticks(rq->deadline_ns);
	ek_u64 expire = md->expire_ticks[ek_dlq_dir(rq->dir)];

	return deadline > expire ? deadline - expire : 0;
}

static void md_insert(void *sd, struct ek_rq *rq, ek_u64 now)
{
	struct md_data *md = sd;
	ek_u32 lvl = md_level(rq);
	ek_u8 dir = ek_dlq_dir(rq->dir);

	/* A requeued request was counted when it first came. */
	if (!rq->requeued)
		md->busy[lvl]++;
	if (rq->kind != EK_KIND_NORMAL || rq->at_head) {
		ek_dlq_add_special(&md->q[0], rq, rq->at_head);
		return;
	}
	/* jiffies + fifo_expire, from now: a requeue starts afresh. */
	ek_dlq_add(&md->q[lvl], rq,
		   (md_ticks(now) + md->expire_ticks[dir]) * MD_TICK_NS);
}

/*
 * __dd_dispatch_request() for one level, on batch state b: the request it
 * would dispatch, or NULL, with b changed as the kernel changes it (even
 * when the request turns out to have arrived after latest_tick). *expired,
 * *forced: a new batch began at an expired head, or on writes_starved.
 */
static struct ek_rq *md_pick(struct md_data *md, struct md_batch *b,
			     ek_u32 lvl, ek_u64 now, ek_s64 latest_tick,
			     int *expired, int *forced)
{
	struct ek_dlq *q = &md->q[lvl];
	struct ek_rq *rq, *head;
	ek_u8 dir;

	*expired = 0;
	*forced = 0;
	rq = ek_dlq_from(q, b->last_dir, md->latest_pos[lvl][b->last_dir]);
	if (rq && b->batching < md->fifo_batch)
		goto found;

	if (ek_dlq_nr(q, EK_READ)) {
		if (ek_dlq_nr(q, EK_WRITE) && b->starved++ >= md->writes_starved) {
			dir = EK_WRITE;
			*forced = 1;
			b->starved = 0;
		} else {
			dir = EK_READ;
		}
	} else if (ek_dlq_nr(q, EK_WRITE)) {
		dir = EK_WRITE;
		b->starved = 0;
	} else {
		return EK_NULL;
	}

	head = ek_dlq_fifo_head(q, dir);
	rq = ek_dlq_from(q, dir, md->latest_pos[lvl][dir]);
	*expired = now >= head->deadline_ns;
	if (*expired || !rq)
		rq = head;
	b->last_dir = dir;
	b->batching = 0;
found:
	/* started_after(): arrived after the latest tick allowed */
	if ((ek_s64)md_arrival_tick(md, rq) > latest_tick)
		return EK_NULL;
	return rq;
}

static int md_levels_busy(const struct md_data *md)
{
	return !!md->busy[0] + !!md->busy[1] + !!md->busy[2];
}

/*
 * dd_dispatch_request() without the dispatch list: aged requests of the
 * lower levels first, then the levels in order, a level with requests on
 * the device holding back those below it. *lvl_out, *aged: where it came
 * from.
 */
static struct ek_rq *md_choose(struct md_data *md, struct md_batch *b,
			       ek_u64 now, ek_u32 *lvl_out, int *aged,
			       int *expired, int *forced)
{
	/* before the first aging_expire nothing is old enough: negative */
	ek_s64 aged_before = (ek_s64)md_ticks(now) - (ek_s64)md->aging_ticks;
	struct ek_rq *rq;
	ek_u32 lvl;

	*aged = 0;
	if (md_levels_busy(md) >= 2) {
		for (lvl = MD_BE; lvl < MD_LEVELS; lvl++) {
			rq = md_pick(md, b, lvl, now, aged_before, expired,
				     forced);
			if (rq) {
				*aged = 1;
				*lvl_out = lvl;
				return rq;
			}
		}
	}
	/*
	 * The kernel passes jiffies here, which no request arrived after
	 * unless an expire time was lowered under it: then its dispatch
	 * returns nothing for a while, and blk-mq polls. Not modelled.
	 */
	for (lvl = 0; lvl < MD_LEVELS; lvl++) {
		rq = md_pick(md, b, lvl, now, MD_ANY_TICK, expired, forced);
		if (rq) {
			*lvl_out = lvl;
			return rq;
		}
		if (md->busy[lvl])
			break;
	}
	return EK_NULL;
}

static struct ek_rq *md_dispatch(void *sd, ek_u64 now)
{
	struct md_data *md = sd;
	struct ek_rq *rq;
	int aged, expired, forced;
	ek_u32 lvl;
	ek_u8 dir;

	rq = ek_dlq_special_head(&md->q[0]);
	if (rq) {
		ek_dlq_del(&md->q[0], rq);
		md->count[MD_C_OTHER]++;
		return rq;
	}
	rq = md_choose(md, &md->b, now, &lvl, &aged, &expired, &forced);
	if (!rq)
		return EK_NULL;
	dir = ek_dlq_dir(rq->dir);
	md->b.batching++;
	md->latest_pos[lvl][dir] = rq->sector;
	ek_dlq_del(&md->q[lvl], rq);
	md->count[dir == EK_WRITE ? MD_C_WRITES : MD_C_READS]++;
	md->count[MD_C_EXPIRED] += (ek_u64)expired;
	md->count[MD_C_STARVED] += (ek_u64)forced;
	md->count[MD_C_AGED] += (ek_u64)aged;
	return rq;
}

static int md_has_work(void *sd, ek_u64 now)
{
	struct md_data *md = sd;
	struct md_batch b = md->b;
	int aged, expired, forced;
	ek_u32 lvl;

	if (ek_dlq_special_head(&md->q[0]))
		return 1;
	/* The same walk on a copy of the batch state: the same answer. */
	return md_choose(md, &b, now, &lvl, &aged, &expired, &forced) != EK_NULL;
}

static void md_completed(void *sd, struct ek_rq *rq, ek_u64 now)
{
	struct md_data *md = sd;

	(void)now;
	md->busy[md_level(rq)]--;
}

static struct ek_rq *md_front_merge_candidate(void *sd, ek_u8 dir, ek_u64 end)
{
	struct md_data *md = sd;
	struct ek_rq *rq;
	ek_u32 lvl;

	if (!md->front_merges)
		return EK_NULL;
	/* elv_rb_find() in the sort tree of the bio's level: try each */
	for (lvl = 0; lvl < MD_LEVELS; lvl++) {
		rq = ek_dlq_front_merge_candidate(&md->q[lvl], dir, end);
		if (rq)
			return rq;
	}
	return EK_NULL;
}

static void md_merged(void *sd, struct ek_rq *rq, ek_u64 old_sector)
{
	struct md_data *md = sd;

	(void)old_sector;
	ek_dlq_resort(&md->q[md_level(rq)], rq);
}

static void md_merged_requests(void *sd, struct ek_rq *rq, struct ek_rq *next)
{
	struct md_data *md = sd;
	ek_u32 lvl = md_level(next);

	/* next is freed: dd_finish_request() counts it completed */
	md->busy[lvl]--;
	if (rq != next && md_level(rq) == lvl)
		ek_dlq_merge(&md->q[lvl], rq, next);
	else
		ek_dlq_del(ek_dlq_is_special(next) ? &md->q[0] : &md->q[lvl], next);
}

static ek_u32 md_limit_depth(void *sd, ek_u8 dir, ek_u8 sync)
{
	struct md_data *md = sd;

	return ek_async_limit(md->async_depth, md->host->dev.nr_requests, dir,
			      sync);
}

const struct ek_policy ek_mq_deadline_policy = {
	.name = "mq-deadline",
	.description = "the kernel's mq-deadline (6.12), a baseline; simulator only",
	.sched_size = sizeof(struct md_data),
	.pctx_size = 0,
	.tunables = md_tunables,
	.nr_tunables = MD_NR_TUNABLES,
	.counters = md_counters,
	.nr_counters = MD_NR_COUNTERS,
	.init = md_init,
	.set_tunable = md_set_tunable,
	.read_counter = md_read_counter,
	.insert = md_insert,
	.dispatch = md_dispatch,
	.has_work = md_has_work,
	.completed = md_completed,
	.front_merge_candidate = md_front_merge_candidate,
	.merged = md_merged,
	.merged_requests = md_merged_requests,
	.limit_depth = md_limit_depth,
};
