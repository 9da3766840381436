// SPDX-License-Identifier: GPL-2.0
/*
 * elevator: Linux 2.4's elevator (elevator_linus_merge() in
 * drivers/block/elevator.c and its caller __make_request() in
 * drivers/block/ll_rw_blk.c, 2.4.20), and read-latency2: the same with
 * Andrew Morton's read-latency2 patch for 2.4.20 applied. Baselines for the
 * simulator.
 *
 * One queue, dispatched from the front. A new request gets a sequence
 * number, its latency: read_latency or write_latency (elvtune -r / -w;
 * 8192 and 16384 by default). It is inserted by scanning the queue
 * backwards from the tail for the first place where its sector lies
 * between two neighbours in one-way (ascending, wrapping) elevator order
 * (bh_rq_in_between()); failing that it goes to the tail. Every request it
 * lands in front of is passed over and pays E24_LINUS_SEEK_COST (16) from
 * its sequence; a front merge costs the requests behind the grown one 1.
 * The scan stops at a request whose sequence has reached 0: nothing is
 * ever inserted in front of it again. So a read is passed over at most
 * 8192/16 = 512 times, a write 1024 times, and the queue otherwise keeps
 * the elevator's order: most requests flow, and a thin tail of requests
 * that keep being passed over waits long (tiobench's maximum latency
 * explodes at 32+ threads while few requests are slow).
 *
 * read-latency2 adds one rule for a read that merged nowhere: instead of
 * the place above, it walks the queue from the front and goes in after the
 * first read it meets (never ahead of other reads), or after the writes in
 * front of it weigh max_bomb_segments (each write request weighs 1 + its
 * sectors / 64), whichever comes first, and never further back than the
 * plain elevator would put it. It may pass a write whose sequence is spent:
 * that is the point of the patch, and the few weighted writes at the front
 * always keep their place, so writes still progress.
 *
 * Differences from 2.4: back merges are found by the host and cost
 * nothing here (2.4 charged the requests behind 1); requests marked
 * at_head and non-normal kinds bypass the queue on a FIFO served first.
 * Inserting scans the queue, O(n), as 2.4 did.
 */
#include <elvkit/policy.h>

#define E24_LINUS_SEEK_COST 16

/* The plain elevator has the first E24_BOMB of these; read-latency2 all. */
enum { E24_READ_LATENCY, E24_WRITE_LATENCY, E24_BOMB, E24_NR_TUNABLES };
enum { E24_C_BLOCKED, E24_NR_COUNTERS };

struct e24_data {
	struct ek_list queue;		/* dispatch order, front first */
	struct ek_list head_fifo;	/* at_head and non-normal requests */
	ek_u64 queued;
	ek_s64 latency[2];		/* read, write */
	ek_s64 bomb;			/* read-latency2's max_bomb_segments; 0 = off */
	ek_u64 blocked;			/* inserts stopped by a spent sequence */
};

/* policy_data[0]: which queue; policy_data[1]: the sequence, as ek_s64 */
#define E24_IN_FIFO 1u

static ek_s64 e24_seq(const struct ek_rq *rq)
{
	return (ek_s64)rq->policy_data[1];
}

static void e24_pay(struct ek_rq *rq, ek_s64 cost)
{
	rq->policy_data[1] = (ek_u64)(e24_seq(rq) - cost);
}

static const struct ek_tunable e24_tunables[E24_NR_TUNABLES] = {
	[E24_READ_LATENCY] = {
		.name = "read_latency", .unit = "passes",
		.help = "a read's sequence: it may be passed over this / 16 times",
		.def = 8192, .min = 0, .max = 1000000000,
	},
	[E24_WRITE_LATENCY] = {
		.name = "write_latency", .unit = "passes",
		.help = "a write's sequence: it may be passed over this / 16 times",
		.def = 16384, .min = 0, .max = 1000000000,
	},
	[E24_BOMB] = {
		.name = "max_bomb_segments", .unit = "requests",
		.help = "read-latency2: weighted writes left in front of a new read; 0 = plain 2.4",
		.def = 6, .min = 0, .max = 1000000,
	},
};

static const struct ek_counter e24_counters[E24_NR_COUNTERS] = {
	[E24_C_BLOCKED] = {
		.name = "spent_barriers", .unit = "inserts",
		.help = "inserts whose scan stopped at a request with a spent sequence",
	},
};

static void e24_set_tunable(void *sd, ek_u32 idx, ek_s64 value)
{
	struct e24_data *ed = sd;

	if (idx == E24_READ_LATENCY)
		ed->latency[EK_READ] = value;
	else if (idx == E24_WRITE_LATENCY)
		ed->latency[EK_WRITE] = value;
	else if (idx == E24_BOMB)
		ed->bomb = value;
}

static ek_u64 e24_read_counter(void *sd, ek_u32 idx)
{
	struct e24_data *ed = sd;

	return idx == E24_C_BLOCKED ? ed->blocked : 0;
}

static void e24_init_common(struct e24_data *ed, const ek_s64 *values)
{
	ek_list_init(&ed->queue);
	ek_list_init(&ed->head_fifo);
	ed->queued = 0;
	ed->blocked = 0;
	ed->latency[EK_READ] = values[E24_READ_LATENCY];
	ed->latency[EK_WRITE] = values[E24_WRITE_LATENCY];
	ed->bomb = 0;
}

static int e24_init(void *sd, struct ek_host *host, const ek_s64 *values)
{
	(void)host;
	e24_init_common(sd, values);
	return 0;
}

static int e24_rl2_init(void *sd, struct ek_host *host, const ek_s64 *values)
{
	struct e24_data *ed = sd;

	(void)host;
	e24_init_common(ed, values);
	ed->bomb = values[E24_BOMB];
	return 0;
}

static struct ek_rq *e24_entry(struct ek_list *pos)
{
	return ek_list_entry(pos, struct ek_rq, fifo);
}

/* bh_rq_in_between(): does `sector` go between rq and the one after it? */
static int e24_in_between(struct e24_data *ed, ek_u64 sector, struct ek_rq *rq)
{
	struct ek_rq *next;

	if (rq->fifo.next == &ed->queue)
		return 0;
	next = e24_entry(rq->fifo.next);
	if (sector < next->sector && sector > rq->sector)
		return 1;	/* the sweet spot */
	if (next->sector > rq->sector)
		return 0;	/* ordered, and sector is not between */
	/* rq ends a sweep: before next or after rq both fit here */
	return sector > rq->sector || sector < next->sector;
}

/*
 * read-latency2: the request to insert a new read after, walking from the
 * front, or `old` (the plain elevator's place; NULL = the tail).
 */
static struct ek_rq *e24_rl2_place(struct e24_data *ed, struct ek_rq *old)
{
	struct ek_list *pos;
	ek_s64 weight = 0;

	for (pos = ed->queue.next; pos != &ed->queue; pos = pos->next) {
		struct ek_rq *rq = e24_entry(pos);

		if (rq == old)
			break;		/* no further back than 2.4 would */
		if (rq->dir == EK_READ)
			return rq;	/* never ahead of other reads */
		weight += 1 + rq->nr_sectors / 64;
		if (weight >= ed->bomb)
			return rq;
	}
	return old;
}

static void e24_insert(void *sd, struct ek_rq *rq, ek_u64 now)
{
	struct e24_data *ed = sd;
	struct ek_rq *after = EK_NULL;
	struct ek_list *pos;

	(void)now;
	ed->queued++;
	if (rq->at_head || rq->kind != EK_KIND_NORMAL) {
		rq->policy_data[0] = E24_IN_FIFO;
		ek_list_add_tail(&rq->fifo, &ed->head_fifo);
		return;
	}
	rq->policy_data[0] = 0;
	rq->policy_data[1] = (ek_u64)ed->latency[rq->dir & 1];
	for (pos = ed->queue.prev; pos != &ed->queue; pos = pos->prev) {
		struct ek_rq *q = e24_entry(pos);

		if (e24_seq(q) <= 0) {
			ed->blocked++;	/* can't insert beyond a zero sequence point */
			break;
		}
		if (e24_in_between(ed, rq->sector, q)) {
			after = q;
			break;
		}
	}
	if (ed->bomb && rq->dir == EK_READ)
		after = e24_rl2_place(ed, after);
	if (!after) {
		ek_list_add_tail(&rq->fifo, &ed->queue);
		return;
	}
	ek_list_insert_between(&rq->fifo, &after->fifo, after->fifo.next);
	/* a seeky insert: everybody behind it was passed over */
	for (pos = rq->fifo.next; pos != &ed->queue; pos = pos->next)
		e24_pay(e24_entry(pos), E24_LINUS_SEEK_COST);
}

static void e24_unlink(struct e24_data *ed, struct ek_rq *rq)
{
	ek_list_del(&rq->fifo);
	ed->queued--;
}

static struct ek_rq *e24_dispatch(void *sd, ek_u64 now)
{
	struct e24_data *ed = sd;
	struct ek_rq *rq = ek_list_first(&ed->head_fifo, struct ek_rq, fifo);

	(void)now;
	if (!rq)
		rq = ek_list_first(&ed->queue, struct ek_rq, fifo);
	if (rq)
		e24_unlink(ed, rq);
	return rq;
}

static int e24_has_work(void *sd, ek_u64 now)
{
	struct e24_data *ed = sd;

	(void)now;
	return ed->queued != 0;
}

/* As the 2.4 scan: from the tail, up to and including a spent sequence. */
static struct ek_rq *e24_front_merge_candidate(void *sd, ek_u8 dir, ek_u64 end)
{
	struct e24_data *ed = sd;
	struct ek_list *pos;

	for (pos = ed->queue.prev; pos != &ed->queue; pos = pos->prev) {
		struct ek_rq *rq = e24_entry(pos);

		if (rq->dir == dir && rq->sector == end)
			return rq;
		if (e24_seq(rq) <= 0)
			break;
	}
	return EK_NULL;
}

static void e24_merged(void *sd, struct ek_rq *rq, ek_u64 old_sector)
{
	struct e24_data *ed = sd;
	struct ek_list *pos;

	if (rq->policy_data[0] == E24_IN_FIFO || rq->sector == old_sector)
		return;
	/* a front merge: the grown request pays 1, and so do those behind it */
	e24_pay(rq, 1);
	for (pos = rq->fifo.next; pos != &ed->queue; pos = pos->next)
		e24_pay(e24_entry(pos), 1);
}

static void e24_merged_requests(void *sd, struct ek_rq *rq, struct ek_rq *next)
{
	(void)rq;
	e24_unlink(sd, next);
}

/* The two variants differ only in name, init and read-latency2's tunable. */
#define E24_POLICY_COMMON						\
	.sched_size = sizeof(struct e24_data),				\
	.tunables = e24_tunables,					\
	.counters = e24_counters,					\
	.nr_counters = E24_NR_COUNTERS,					\
	.set_tunable = e24_set_tunable,					\
	.read_counter = e24_read_counter,				\
	.insert = e24_insert,						\
	.dispatch = e24_dispatch,					\
	.has_work = e24_has_work,					\
	.front_merge_candidate = e24_front_merge_candidate,		\
	.merged = e24_merged,						\
	.merged_requests = e24_merged_requests,				\
	.flags = EK_POLICY_NEVER_IDLES

const struct ek_policy ek_elevator_policy = {
	.name = "elevator",
	.description = "Linux 2.4 elevator_linus: sorted insert, pass-over limits (read 8192, write 16384)",
	.nr_tunables = E24_BOMB,
	.init = e24_init,
	E24_POLICY_COMMON,
};

const struct ek_policy ek_read_latency2_policy = {
	.name = "read-latency2",
	.description = "2.4 elevator + Morton's read-latency2: reads go in near the front",
	.nr_tunables = E24_NR_TUNABLES,
	.init = e24_rl2_init,
	E24_POLICY_COMMON,
};
