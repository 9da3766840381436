// SPDX-License-Identifier: GPL-2.0
/*
 * fair-queue: per-process fair sharing of the disk, after CFQ (per-process
 * queues, slice_idle, priority classes) and BFQ (budgets in sectors,
 * B-WF2Q+, weight raising), written for elvkit's policy API.
 *
 * Queues. Synchronous I/O of a process goes to its own queue (in its
 * ek_pctx); asynchronous I/O (writeback) to one shared queue per priority
 * class, charged async_charge (3) times its sectors, as BFQ does, because
 * the cost of a write is paid later and by everybody. Synchronous I/O
 * without a context shares one more queue.
 *
 * Slots. One queue is in service at a time and dispatches in its own
 * sector order (an expired FIFO head first: fifo_expire_sync/async are a
 * backstop inside a queue) until its slot ends: its budget (in sectors,
 * times the async charge) is used up, its time (the round target
 * target_latency_ms over the busy queues of its class, within 10 ms ..
 * slice_max_ms) is over, it has nothing left and idling does not pay, a
 * higher class or a weight-raised queue preempts it, or a lower class has
 * waited class_age_ms. Then it is charged what it used and the next queue
 * comes from fair_queue_wf2q.h's fair order. Only queue switches cost O(log busy
 * queues); a request costs its queue's sector tree and O(1) besides.
 *
 * Charging. Sequential queues pay sectors: a reader on the slow inner
 * zone gets as many bytes as one on the outer zone. A seeky queue that
 * held the disk for a while (idling, several requests) pays at least the
 * time it held it, converted to sectors at the measured rate, so random
 * I/O cannot buy disk time at sequential prices; so does a synchronous
 * slot that was slow (under half the rate, not sequential), seeky or not:
 * small reads close together cost a turn of the disk each. The rate is
 * measured on sequential slots, most of whose sectors followed each other.
 *
 * Budgets adapt: doubled when used up, cut to what was used when the
 * queue runs dry or runs out of time, always within 128 KiB .. the rate
 * times the slot's time (or max_budget).
 *
 * Idling. When the queue in service runs dry the disk waits for its next
 * request, up to slice_idle_us after its last completion, only where that
 * pays: a synchronous queue whose think time is short, on a rotational
 * disk, if it is sequential or weight-raised; or, on any disk, when the
 * busy queues differ in weight or class (without idling a weight is
 * worth nothing against a queue that always has a request in). Never for
 * shared queues, exited processes or the IDLE class; on non-rotational
 * devices only for differing weights unless idle_nonrot is set.
 *
 * Weight raising (low_latency). A process's queue that becomes busy for
 * the first time, or after 2 s without I/O, gets 30 times its weight for
 * 16 MiB or 8 s of service, whichever ends first, and preempts an
 * unraised queue of its class: a starting application reads its binaries
 * and libraries about as fast as on an idle disk. Queues created in a
 * burst (more than 8 new queues less than 180 ms apart: a make -j, a
 * server forking) are not raised, the burst's early members lose their
 * raise at their next slot end, and none is raised on its return after
 * 2 s without I/O until it has done none for 10 s (as bfq).
 *
 * Merges stay within a queue (EK_POLICY_SAME_QUEUE_MERGES, as bfq's and
 * cfq's allow_merge): a process's I/O is neither charged to another nor
 * served in its slot. Processes reading interleaved blocks of one region
 * are served in disk order all the same: where the policy would idle
 * for the queue in service, a queue whose next request is close to
 * where it stopped (a close cooperator, as cfq's) gets the rest of its
 * slot instead (cooperate). Queues are not merged (bfq's
 * bfq_setup_cooperator): a queue lives in its process's context.
 *
 * Classes. RT before BE before IDLE; levels 0..7 are weights 80..10
 * (class NONE counts as BE level 4). A lower class with busy queues that
 * has not been served for class_age_ms gets one small slot (128 KiB):
 * IDLE I/O waits at most class_age_ms plus a slot of the class above and
 * one request, then proceeds at that pace.
 */
#include "elvkit/atomic.h"
#include "elvkit/limit.h"
#include "elvkit/policy_list.h"
#include "fair_queue.h"
#include "fair_queue_wf2q.h"

#define FQ_MS			EK_NSEC_PER_MSEC
#define FQ_MIN_BUDGET		256ULL		/* sectors: 128 KiB */
#define FQ_SLOT_MIN_NS		(10 * FQ_MS)
#define FQ_SEEKY_SECTORS	2048u		/* mean seek over 1 MiB */
#define FQ_SLOW_DIV		2ULL		/* slow: under half the rate (bfq) */
/*
 * A seek sample counts as at most 4 x FQ_SEEKY_SECTORS: a random reader
 * still averages far over the threshold, but one long jump (a reader
 * opening its next file) no longer makes a sequential queue look seeky
 * for the next ~20 requests, unidled and charged a seek per request.
 */
#define FQ_SEEK_SAMPLE_MAX	(4u * FQ_SEEKY_SECTORS)
/*
 * A close cooperator's next request starts this near where the queue in
 * service stopped. Ahead: no farther than that queue's own next one is,
 * for a queue worth idling for (not seeky). Behind: as far as cfq and bfq
 * reached both ways, 4 MiB, so that a reader of interleaved blocks that
 * thought long once (the pack reads 2 MiB in 10 ms) rejoins its pack.
 */
#define FQ_COOP_SECTORS		FQ_SEEKY_SECTORS
#define FQ_COOP_BEHIND_SECTORS	(4 * FQ_SEEKY_SECTORS)
#define FQ_RATE_ROT		200ULL		/* sectors/ms to start with */
#define FQ_RATE_NONROT		1000ULL
#define FQ_SEEK_MS_ROT		8ULL		/* a seek and half a turn */
#define FQ_SEEK_DIV_NONROT	10ULL		/* 100 us of flash access */
#define FQ_WR_COEFF		30u
#define FQ_WR_SECTORS		32768ULL	/* 16 MiB */
#define FQ_WR_NS		(8000 * FQ_MS)
#define FQ_WR_IDLE_NS		(2000 * FQ_MS)
#define FQ_BURST_NS		(180 * FQ_MS)
#define FQ_BURST_LARGE		8u
#define FQ_BURST_FORGET_NS	(10000 * FQ_MS)
/* Think times in 1024 ns units, stats capped so 8 x means fit 32 bits. */
#define FQ_NS_SHIFT		10
#define FQ_STAT_CAP		(1u << 20)

/* rq->policy_data[0] */
#define FQ_RQ_QUEUED	0x1u	/* in its queue's tree and FIFO */
#define FQ_RQ_SPECIAL	0x2u	/* on the special FIFO */
#define FQ_RQ_INFLIGHT	0x4u	/* dispatched from a queue, counted there */

/* Why a slot ends. */
enum {
	FQ_END_NONE,
	FQ_END_PREEMPT,
	FQ_END_EMPTY,		/* nothing queued and idling does not pay */
	FQ_END_IDLE,		/* the idle wait ran out */
	FQ_END_BUDGET,
	FQ_END_TIME,
	FQ_END_AGED,		/* a lower class waited class_age_ms */
	FQ_END_COOP,		/* nothing queued, a close cooperator has */
};

static const struct ek_tunable fq_tunables[FQ_NR_TUNABLES] = {
	[FQ_T_SLICE_IDLE] = {
		.name = "slice_idle_us", .unit = "us",
		.help = "longest wait for the queue in service's next request after its last completion; 0 = never idle",
		.def = 8000, .min = 0, .max = 1000000,
	},
	[FQ_T_LOW_LATENCY] = {
		.name = "low_latency", .unit = "bool",
		.help = "raise the weight of new and long-idle processes for a bounded amount of service",
		.def = 1, .min = 0, .max = 1,
	},
	[FQ_T_FIFO_EXPIRE_SYNC] = {
		.name = "fifo_expire_sync", .unit = "ms",
		.help = "a synchronous request older than this goes first within its queue",
		.def = 125, .min = 1, .max = 60000,
	},
	[FQ_T_FIFO_EXPIRE_ASYNC] = {
		.name = "fifo_expire_async", .unit = "ms",
		.help = "an asynchronous request older than this goes first within its queue",
		.def = 250, .min = 1, .max = 60000,
	},
	[FQ_T_TARGET_LATENCY] = {
		.name = "target_latency_ms", .unit = "ms",
		.help = "target length of a round over the busy queues of a class; slots shrink to fit",
		.def = 1300, .min = 10, .max = 60000,
	},
	[FQ_T_SLICE_MAX] = {
		.name = "slice_max_ms", .unit = "ms",
		.help = "longest slot of one queue",
		.def = 125, .min = 10, .max = 10000,
	},
	[FQ_T_MAX_BUDGET] = {
		.name = "max_budget", .unit = "sectors",
		.help = "largest budget of a slot; 0 = the measured rate times the slot's time; under 256 (the smallest slot, 128 KiB) counts as 256",
		.def = 0, .min = 0, .max = 16777216,
	},
	[FQ_T_CLASS_AGE] = {
		.name = "class_age_ms", .unit = "ms",
		.help = "a lower class (BE under RT, IDLE) waiting this long gets one small slot",
		.def = 1000, .min = 1, .max = 60000,
	},
	[FQ_T_ASYNC_CHARGE] = {
		.name = "async_charge", .unit = "factor",
		.help = "asynchronous sectors cost this many times a synchronous sector",
		.def = 3, .min = 1, .max = 16,
	},
	[FQ_T_IDLE_NONROT] = {
		.name = "idle_nonrot", .unit = "bool",
		.help = "idle on non-rotational devices as on rotational ones",
		.def = 0, .min = 0, .max = 1,
	},
	[FQ_T_ASYNC_DEPTH] = {
		.name = "async_depth", .unit = "requests",
		.help = EK_ASYNC_DEPTH_HELP,
		.def = 0, .min = 0, .max = EK_ASYNC_DEPTH_MAX,
	},
	[FQ_T_COOPERATE] = {
		.name = "cooperate", .unit = "bool",
		.help = "instead of idling for the queue in service, serve a process's queue whose next request is close to where it stopped (cfq's close cooperators)",
		.def = 1, .min = 0, .max = 1,
	},
};

static const struct ek_counter fq_counters[FQ_NR_COUNTERS] = {
	[FQ_C_SWITCHES] = {
		.name = "queue_switches", .unit = "slots",
		.help = "slots started (a queue taken into service)",
	},
	[FQ_C_IDLE_HITS] = {
		.name = "idle_hits", .unit = "waits",
		.help = "idle waits ended by the queue's next request",
	},
	[FQ_C_IDLE_TIMEOUTS] = {
		.name = "idle_timeouts", .unit = "waits",
		.help = "idle waits that ran out",
	},
	[FQ_C_RAISES] = {
		.name = "raises", .unit = "queues",
		.help = "weight raisings of new or long-idle processes",
	},
	[FQ_C_EXPIRED] = {
		.name = "expired", .unit = "requests",
		.help = "requests dispatched first because their FIFO time passed",
	},
	[FQ_C_PREEMPTS] = {
		.name = "preemptions", .unit = "slots",
		.help = "slots cut short by a higher class or a raised queue",
	},
	[FQ_C_AGED] = {
		.name = "aged_slots", .unit = "slots",
		.help = "slots given to a lower class that waited class_age_ms",
	},
	[FQ_C_READS] = {
		.name = "dispatched_reads", .unit = "requests",
		.help = "normal reads dispatched",
	},
	[FQ_C_WRITES] = {
		.name = "dispatched_writes", .unit = "requests",
		.help = "normal writes dispatched",
	},
	[FQ_C_OTHER] = {
		.name = "dispatched_other", .unit = "requests",
		.help = "flush, passthrough and at_head requests dispatched",
	},
	[FQ_C_COOP] = {
		.name = "coop_switches", .unit = "slots",
		.help = "slots given to a close cooperator instead of an idle wait",
	},
};

/* ---- helpers ---- */

static struct fq_queue *fq_rq_queue(const struct ek_rq *rq)
{
	return (struct fq_queue *)(__UINTPTR_TYPE__)rq->policy_data[1];
}

static int fq_exited(const struct fq_queue *q)
{
	return q->flags & FQ_Q_EXITED;
}

static int fq_seeky(const struct fq_queue *q)
{
	return (q->flags & FQ_Q_SAMPLED) && q->seek_mean8 > 8 * FQ_SEEKY_SECTORS;
}

static int fq_class_of(const struct ek_rq *rq)
{
	switch (rq->prio_class) {
	case EK_PRIO_RT:
		return FQ_RT;
	case EK_PRIO_IDLE:
		return FQ_IDLE;
	default:
		return FQ_BE;
	}
}

static ek_u8 fq_level_of(const struct ek_rq *rq)
{
	/* NONE: the kernel derives a level from nice; we cannot see it. */
	return rq->prio_class == EK_PRIO_NONE ? 4 : rq->prio_level & 7;
}

static ek_u64 fq_dist(ek_u64 a, ek_u64 b)
{
	return a > b ? a - b : b - a;
}

static ek_u32 fq_cap(ek_u64 v)
{
	return v < FQ_STAT_CAP ? (ek_u32)v : FQ_STAT_CAP;
}

/*
 * One step of a decaying average, weight 7/8 per sample (as-iosched's),
 * kept as 8 x the mean so that shifts replace divisions: this runs for
 * every request.
 */
static void fq_decay(ek_u32 *mean8, ek_u32 v)
{
	*mean8 = *mean8 - (*mean8 >> 3) + v;
}

static void fq_queue_init(struct fq_queue *q, ek_u32 flags)
{
	*q = (struct fq_queue){ .flags = flags, .cls = FQ_BE, .level = 4 };
	ek_rb_init(&q->sort);
	ek_list_init(&q->fifo);
	q->weight = ek_fq_level_weight(4);
}

static void fq_kick(struct fq_data *fd)
{
	fd->host->ops->kick(fd->host);
}

static void fq_timer_cancel(struct fq_data *fd)
{
	if (!fd->timer_ns)
		return;
	fd->timer_ns = 0;
	fd->host->ops->timer_cancel(fd->host);
}

static void fq_timer_arm(struct fq_data *fd, ek_u64 when)
{
	if (when == fd->timer_ns)
		return;
	fd->timer_ns = when;
	fd->host->ops->timer_arm(fd->host, when);
}

/* ---- slots ---- */

/*
 * The device's rate, in sectors per ms, and with it the price of a seek:
 * a seek and half a turn on a rotational disk, a flash access otherwise.
 * Every dispatch of a seeky queue pays it, so it is kept, not recomputed.
 */
static void fq_set_rate(struct fq_data *fd, ek_u64 rate)
{
	fd->rate = rate ? rate : 1;
	fd->seek_charge = fd->host->dev.rotational ?
			  fd->rate * FQ_SEEK_MS_ROT :
			  fd->rate / FQ_SEEK_DIV_NONROT;
}

/* The slot time of a queue among n busy ones: its share of the round target. */
static ek_u64 fq_slot_ns_of(const struct fq_data *fd, ek_u32 n)
{
	ek_u64 t = fd->target_latency_ns / (n ? n : 1);

	t = ek_max_u64(t, FQ_SLOT_MIN_NS);
	return ek_min_u64(t, fd->slice_max_ns);
}

/* fq_slot_ns_of for few busy queues, whenever the tunables change. */
static void fq_slot_table(struct fq_data *fd)
{
	ek_u32 n;

	for (n = 0; n < FQ_SLOT_TABLE; n++)
		fd->slot_by_busy[n] = fq_slot_ns_of(fd, n);
}

/*
 * The slot time of a queue of class c. From the table with few busy
 * queues: every queue switch asks twice (the slot taken, and the one in
 * service shrinking as a queue joins), a division each.
 */
static ek_u64 fq_slot_ns(struct fq_data *fd, const struct fq_class *c)
{
	return c->nr_busy < FQ_SLOT_TABLE ? fd->slot_by_busy[c->nr_busy] :
					    fq_slot_ns_of(fd, c->nr_busy);
}

static ek_u64 fq_budget_cap(const struct fq_data *fd, ek_u64 rate,
			    ek_u64 slot_ns)
{
	ek_u64 cap = fd->max_budget ? fd->max_budget : rate * (slot_ns / FQ_MS);

	return ek_max_u64(cap, FQ_MIN_BUDGET);
}

/* A lower class than cls that has waited class_age_ms, or -1. */
static int fq_aged_class(struct fq_data *fd, int cls, ek_u64 now)
{
	int c;

	for (c = cls + 1; c < FQ_NR_CLASSES; c++) {
		const struct fq_class *k = &fd->cls[c];

		if (k->nr_busy && now - k->wait_since_ns >= fd->class_age_ns)
			return c;
	}
	return -1;
}

/*
 * Other classes are busy, or q's class has busy queues of other weights:
 * without idling for q a weight is worth nothing against a busy queue.
 */
static ek_always_inline int fq_unequal(const struct fq_data *fd,
				      const struct fq_queue *q)
{
	return fd->nr_busy != q->in_class->nr_busy ||
	       !ek_fq_symmetric(q->in_class);
}

/*
 * Does waiting for q's next request pay? (q is in service, so busy.)
 * Inline: where every I/O switches queues, each switch asks it.
 */
static ek_always_inline int fq_should_idle(struct fq_data *fd,
					   const struct fq_queue *q)
{
	/* on flash between equal queues, the most common "no", asked first */
	if (!fd->idle_seq && !fq_unequal(fd, q))
		return 0;
	if (!fd->slice_idle_ns || fd->aged_slot || q->cls == FQ_IDLE ||
	    (q->flags & (FQ_Q_SHARED | FQ_Q_EXITED)))
		return 0;
	if ((q->flags & FQ_Q_SAMPLED) &&
	    q->ttime_mean8 > 8 * (fd->slice_idle_ns >> FQ_NS_SHIFT))
		return 0;	/* it thinks longer than we would wait */
	if (!fd->idle_seq)
		return 1;	/* unequal, as found above */
	return !fq_seeky(q) || (q->flags & FQ_Q_RAISED) || fq_unequal(fd, q);
}

/* ---- close cooperators ---- */

/*
 * Cooperators are looked for where the policy idles for a queue's next
 * request: on rotational disks, or with idle_nonrot (the idle wait for
 * differing weights on flash is the weights', not given away).
 */
static void fq_coop_switch(struct fq_data *fd)
{
	fd->idle_seq = fd->host && (fd->host->dev.rotational ||
				    fd->idle_nonrot);
	fd->coop_on = fd->cooperate && fd->slice_idle_ns && fd->idle_seq;
}

/*
 * Put q in fd->coop by the sector of the request it serves next (its
 * FIFO head), or take it out: wherever that may have changed for a busy
 * queue out of service. Those only are in it: the one in service is
 * never its own cooperator, and dispatching from it need not keep an
 * index. A queue with nothing queued is never in it, so its memory may
 * go; one left in when coop_on went off leaves at its next change.
 */
static ek_noinline void fq_coop_place(struct fq_data *fd, struct fq_queue *q)
{
	if (q->flags & FQ_Q_INDEXED) {
		ek_rb_erase(&fd->coop, &q->coop);
		q->flags &= ~FQ_Q_INDEXED;
	}
	if (fd->coop_on && q->nr_queued && q != fd->in_service &&
	    !(q->flags & FQ_Q_SHARED)) {
		ek_rb_insert(&fd->coop, &q->coop,
			     ek_list_first(&q->fifo, struct ek_rq, fifo)->sector);
		q->flags |= FQ_Q_INDEXED;
	}
}

/* Inline: queue switches ask it, mostly for nothing. */
static ek_always_inline void fq_coop_moved(struct fq_data *fd,
					   struct fq_queue *q)
{
	if (fd->coop_on || (q->flags & FQ_Q_INDEXED))
		fq_coop_place(fd, q);
}

/*
 * Whether c may have the disk instead of an idle wait for q: of q's
 * class, not seeky (cooperators read one region in turn), and not
 * unraised beside a raised q, whose wait keeps the raise's promise.
 */
static int fq_may_cooperate(const struct fq_queue *q, const struct fq_queue *c)
{
	return c->cls == q->cls && !fq_seeky(c) &&
	       (!(q->flags & FQ_Q_RAISED) || (c->flags & FQ_Q_RAISED));
}

static struct fq_queue *fq_coop_of(struct ek_rb_node *n)
{
	return ek_rb_entry(n, struct fq_queue, coop);
}

/*
 * A process's queue whose next request starts up to FQ_COOP_BEHIND_SECTORS
 * before or FQ_COOP_SECTORS after where q (in service, nothing queued,
 * worth idling for) stopped: served instead of waiting for q's next
 * (cfq's close cooperator). Processes that read interleaved blocks of
 * one region (a dump, a pool of I/O threads) each leave the disk idle
 * between their reads while the other's read of the next block waits;
 * idling for one at a time, each slot reads every other block. The neighbour behind that may cooperate,
 * else the one ahead, else NULL. Behind first: with the nearer of the
 * two, a reader that thought a little longer once was passed by the
 * others' reads at distance 0, fell more than FQ_COOP_SECTORS behind and
 * went on alone in slots of its own, a seek away, reading with gaps (8
 * readers of 128 KiB blocks with the kernel's think times, simulator:
 * 48 MB/s, against 209 when the one behind goes first; its block is often
 * still in the disk's read-ahead). Up to 4 MiB behind: a reader that
 * thought 11 ms once, while its pack read on, was 1.4 MiB behind when its
 * read came, and read alone from then on, in slots of its own, 4.7 ms
 * a read where the pack's took 0.6; the pack lost two of 8 readers so
 * within 0.6 s (simulator with the kernel's think times: 138 MB/s, 207 with the
 * wider reach, 0 FIFO expiries against 90; the kernel, 204, lost one in
 * 4 s). q is not in fd->coop (nothing queued).
 */
static struct fq_queue *fq_close_coop(struct fq_data *fd,
				      const struct fq_queue *q)
{
	ek_u64 pos = q->next_pos;
	struct ek_rb_node *ahead = ek_rb_lower_bound(&fd->coop, pos);
	struct ek_rb_node *behind = ahead ? ek_rb_prev(ahead) :
					    ek_rb_last(&fd->coop);

	if (ahead && (ahead->key - pos > FQ_COOP_SECTORS ||
		      !fq_may_cooperate(q, fq_coop_of(ahead))))
		ahead = EK_NULL;
	if (behind && (pos - behind->key > FQ_COOP_BEHIND_SECTORS ||
		       !fq_may_cooperate(q, fq_coop_of(behind))))
		behind = EK_NULL;
	if (behind)
		return fq_coop_of(behind);
	return ahead ? fq_coop_of(ahead) : EK_NULL;
}

/* The last completion of q's slot (its start if none came since). */
static ek_u64 fq_last_done(const struct fq_queue *q)
{
	return ek_max_u64(ek_atomic_read64(&q->last_done_ns), q->slot_start_ns);
}

/*
 * Until when the policy waits for q (in service, nothing queued): for its
 * requests on the device, then slice_idle after the last one completed.
 * The slot's time is enforced when q has a request to dispatch, not in
 * the middle of a wait: ending a slot while its request is on the device
 * would hand the disk to someone else just before q's next request (a
 * reader whose slot ran out would lose it at every read). The wait for a
 * request on the device is bounded anyway, by slice_max past the slot.
 */
static ek_u64 fq_idle_deadline(const struct fq_data *fd,
				const struct fq_queue *q)
{
	if (ek_atomic_read_acquire(&q->nr_inflight))
		return q->slot_start_ns + fd->slot_ns + fd->slice_max_ns;
	return fq_last_done(q) + fd->slice_idle_ns;
}

/*
 * Why the slot of q (in service, nothing queued) is over whatever the
 * time and whatever completes, or FQ_END_NONE: a preemption, or nothing
 * to idle for (fq_should_idle looks at neither). fq_slot_over's first
 * answers, and what an insert publishes (fq_publish).
 */
static ek_always_inline int fq_dry_over(struct fq_data *fd,
					const struct fq_queue *q)
{
	if (fd->preempt)
		return FQ_END_PREEMPT;
	return fq_should_idle(fd, q) ? FQ_END_NONE : FQ_END_EMPTY;
}

/*
 * Why the slot of q (in service) ends at time now, or FQ_END_NONE. Asked
 * by has_work for every queue that ran dry and by dispatch for the rest,
 * so inlined into both: a call was some 10 instructions per request.
 */
static ek_always_inline int fq_slot_over(struct fq_data *fd,
					 const struct fq_queue *q, ek_u64 now)
{
	int why;

	if (!q->nr_queued) {
		why = fq_dry_over(fd, q);
		if (why != FQ_END_NONE)
			return why;
		/*
		 * A close cooperator, within the slot's time, once q's last
		 * request is done: one request on the device at a time, as
		 * one reader would have, and each slot's time its own (else
		 * a chain of neighbours went to an NCQ disk at once, each
		 * charged the sectors of a read that took a seek).
		 */
		if (fd->coop_on && now < q->slot_start_ns + fd->slot_ns &&
		    !ek_atomic_read_acquire(&q->nr_inflight) &&
		    fq_close_coop(fd, q))
			return FQ_END_COOP;
		return now >= fq_idle_deadline(fd, q) ? FQ_END_IDLE :
							FQ_END_NONE;
	}
	if (fd->preempt)
		return FQ_END_PREEMPT;
	if (q->served >= q->budget)
		return FQ_END_BUDGET;
	if (now >= q->slot_start_ns + fd->slot_ns)
		return FQ_END_TIME;
	if (fd->nr_busy != q->in_class->nr_busy && !fd->aged_slot &&
	    fq_aged_class(fd, q->cls, now) >= 0)
		return FQ_END_AGED;
	return FQ_END_NONE;
}

/*
 * Whether q's process did I/O less than span ago: a request of it still
 * on the device, or one that ended since, or its last slot. Idle (for a
 * raise) means no I/O, not no queued request: a process whose read the
 * disk held for seconds was waiting, not idle, and a raise would then give
 * it the disk for 8 s at everybody else's cost (16 random readers on the
 * hdd model, whose queue keeps a read up to 2 s: Jain 0.32 to 0.41 in 5
 * of 6 seeds, the longest wait 8.2 to 9.0 s).
 */
static int fq_did_io_within(const struct fq_queue *q, ek_u64 now,
			    ek_u64 span)
{
	if (ek_atomic_read_acquire(&q->nr_inflight))
		return 1;
	/* the end time is read after the count, as the completion wrote it before */
	return now < ek_max_u64(q->idle_since_ns,
				ek_atomic_read64(&q->last_done_ns)) + span;
}

/*
 * Whether q began in a burst found large: then it is not an interactive
 * process's, neither new nor back from an idle spell (bfq's
 * in_large_burst), until it has done no I/O for FQ_BURST_FORGET_NS. The
 * verdict on a burst is final once a newer one began; q keeps it then
 * (fq_expire asks), as the history holds the last 64 bursts.
 */
static int fq_in_large_burst(struct fq_data *fd, struct fq_queue *q)
{
	ek_u32 age;

	if (q->burst) {
		age = fd->burst_id - q->burst;
		if (age < 64 && ((fd->large_bursts >> age) & 1))
			q->flags |= FQ_Q_LARGE_BURST;
		if (age)
			q->burst = 0;
	}
	return !!(q->flags & FQ_Q_LARGE_BURST);
}

/*
 * When the slot of q ran out, q having nothing queued and nothing on the
 * device: at its last completion, or, where waiting for its next request
 * paid (idle), when that wait timed out; not after now. Nothing need ask
 * at that moment (dispatch and has_work look no further than an empty
 * scheduler), so such a slot is often closed later, by the next request
 * of any queue. It is closed as of then: else a seeky queue would pay
 * the quiet time after it as slot time (a random reader quiet for a
 * minute, then starved for as long beside a streamer), a sequential one
 * would measure it as the device's rate, and its process would count as
 * idle only from the late close on (no raise when it returns).
 */
static ek_u64 fq_dry_end(const struct fq_data *fd, const struct fq_queue *q,
			 int idle, ek_u64 now)
{
	ek_u64 end = idle ? fq_idle_deadline(fd, q) : fq_last_done(q);

	return ek_min_u64(end, now);
}

/*
 * Whether the slot of q (in service, nothing queued) ran out without
 * anybody closing it (fq_dry_end): nothing of q on the device, and its
 * last request ended longer ago than a wait for its next would last.
 * Its next request then makes q busy anew, as any returning queue.
 */
static int fq_lapsed(const struct fq_data *fd, const struct fq_queue *q,
		     ek_u64 now)
{
	return !ek_atomic_read_acquire(&q->nr_inflight) &&
	       now >= fq_idle_deadline(fd, q);
}

/* Most of the sectors of q's slot followed the ones before. */
static int fq_slot_sequential(const struct fq_queue *q)
{
	return 2 * q->seq_sectors >= q->served_sectors;
}

/*
 * Charge, adapt the budget, end the raise, and hand q back to WF2Q+.
 * Inline into dispatch, where every I/O can end a slot; the other
 * callers are out of line (fq_leave, fq_expire_lapsed).
 */
static ek_always_inline void fq_expire(struct fq_data *fd, struct fq_queue *q,
				       int why, ek_u64 now)
{
	ek_u64 end = now, elapsed, charge = q->served;
	ek_u64 rate = fd->rate;		/* the budget's cap is at the rate before this slot */
	int seeky = fq_seeky(q);

	if (!q->nr_queued && !ek_atomic_read_acquire(&q->nr_inflight))
		end = fq_dry_end(fd, q, why == FQ_END_IDLE ||
				 (why != FQ_END_EMPTY && fq_should_idle(fd, q)),
				 now);
	elapsed = end - q->slot_start_ns;

	/*
	 * Sequential: at least half of the slot's sectors followed the ones
	 * before. Such a slot measures the device (average of 4), however
	 * slowly it went: the rate is what sequential slots get. Not by its
	 * mean seek: a reader of small reads in a small region is not
	 * seeky, and its pace, a hundredth of the rate, would make time
	 * cheap for all.
	 *
	 * A queue that held the disk a while pays at least that time at the
	 * rate if it is seeky, or if its slot was slow: not sequential, and
	 * moved under 1/FQ_SLOW_DIV of the sectors the rate gives in its
	 * time (as bfq's bfq_bfqq_is_slow). Small reads close together are
	 * not seeky by distance, yet each costs a turn of the disk: charged
	 * their sectors, each such reader would wait behind all the others'
	 * sectors at their pace (64 readers of 1 MiB each on the hdd model:
	 * 19.5 s). From 2 ms: a slot of one read, not idled for, pays its
	 * time as the longer ones of its like do. Synchronous only
	 * (writeback pays async_charge); not while raised.
	 */
	if (!(q->flags & (FQ_Q_RAISED | FQ_Q_ASYNC)) &&
	    ((seeky && elapsed >= FQ_SLOT_MIN_NS) ||
	     (elapsed >= 2 * FQ_MS && !fq_slot_sequential(q) &&
	      FQ_SLOW_DIV * q->served_sectors * FQ_MS < rate * elapsed)))
		charge = ek_max_u64(charge, rate * elapsed / FQ_MS);
	if ((why == FQ_END_BUDGET || why == FQ_END_TIME) && !seeky &&
	    !(q->flags & FQ_Q_ASYNC) && elapsed >= 2 * FQ_MS &&
	    fq_slot_sequential(q))
		fq_set_rate(fd, (3 * fd->rate + q->served_sectors * FQ_MS /
				 elapsed + 3) / 4);

	switch (why) {
	case FQ_END_BUDGET:
		q->budget = ek_min_u64(q->budget * 2,
				       fq_budget_cap(fd, rate, fd->slot_ns));
		break;
	case FQ_END_EMPTY:
	case FQ_END_IDLE:
	case FQ_END_COOP:
	case FQ_END_TIME:
		if (why != FQ_END_TIME || !seeky)
			q->budget = ek_max_u64(q->served, FQ_MIN_BUDGET);
		break;
	default:
		break;
	}
	if (why == FQ_END_IDLE && fd->idling)
		fd->count[FQ_C_IDLE_TIMEOUTS]++;

	/*
	 * The slot is charged at the weight it ran with; then the raise may
	 * end. A cooperator's debt stops at one full slot of its class: it
	 * then waits about one round, as a queue served in turn does (32
	 * random readers in neighbouring 2 MiB regions on the hdd model had
	 * waited up to 57 s, 5% of their reads over 10 s, repaying slots
	 * taken in their neighbours' time).
	 */
	fd->in_service = EK_NULL;
	ek_fq_slot_done(fd, q, charge,
			fd->coop_slot ? fq_budget_cap(fd, rate,
						      fq_slot_ns(fd, q->in_class)) : 0,
			end);
	fq_coop_moved(fd, q);
	if (q->burst != fd->burst_id)	/* its burst is over: keep the verdict */
		fq_in_large_burst(fd, q);
	if (q->flags & FQ_Q_RAISED) {
		q->wr_left -= ek_min_u64(q->wr_left, q->served_sectors);
		if (!q->wr_left || now >= q->wr_until_ns || fq_exited(q) ||
		    fq_in_large_burst(fd, q)) {
			q->flags &= ~FQ_Q_RAISED;
			ek_fq_reweight(fd, q, ek_fq_level_weight(q->level));
		}
	}
	fd->preempt = 0;
	fd->idling = 0;
	fd->aged_slot = 0;
	fd->coop_slot = 0;
	fq_timer_cancel(fd);
}

/*
 * q, in service, leaves it if its process is gone and it has nothing
 * queued: its memory goes with its last request, which completes without
 * the lock (fq_off_device), and nothing could end the slot after that.
 */
static ek_noinline void fq_leave(struct fq_data *fd, struct fq_queue *q,
				  ek_u64 now)
{
	fq_expire(fd, q, FQ_END_EMPTY, now);
}

/* q's slot ran out unclosed (fq_lapsed): close it before q queues again. */
static ek_noinline void fq_expire_lapsed(struct fq_data *fd,
					 struct fq_queue *q, ek_u64 now)
{
	fq_expire(fd, q, fq_should_idle(fd, q) ? FQ_END_IDLE : FQ_END_EMPTY,
		  now);
}

/* Inline, and the rare leave out of line: dispatch asks it per request. */
static ek_always_inline int fq_leave_if_gone(struct fq_data *fd,
					     struct fq_queue *q, ek_u64 now)
{
	if (q->nr_queued || !fq_exited(q))
		return 0;
	fq_leave(fd, q, now);
	return 1;
}

/*
 * Take the next queue into service, some queue being busy: coop if it is
 * given (a close cooperator, fq_close_coop) and no lower class has aged,
 * for what is left of the slot it follows, until coop_end; else the fair
 * order's next, for a slot of its own. Cooperators share one slot, each
 * charged what it used: else two would keep the disk between them for
 * good, never asking the fair order (two readers of the same blocks
 * among 32 streams on the hdd model: Jain's index 0.064).
 */
static ek_always_inline void fq_select(struct fq_data *fd,
				       struct fq_queue *coop, ek_u64 coop_end,
				       ek_u64 now)
{
	struct fq_queue *q;
	struct fq_class *c;
	int cls, aged;

	for (cls = 0; cls < FQ_NR_CLASSES && !fd->cls[cls].nr_busy; cls++)
		;
	if (cls == FQ_NR_CLASSES)
		return;
	/* only a lower class with busy queues can have aged */
	aged = fd->nr_busy != fd->cls[cls].nr_busy ?
	       fq_aged_class(fd, cls, now) : -1;
	if (aged >= 0) {
		cls = aged;
		fd->aged_slot = 1;
		fd->count[FQ_C_AGED]++;
	}
	c = &fd->cls[cls];
	if (coop && coop->in_class == c && !fd->aged_slot) {
		q = coop;
		ek_fq_take(q);
		fd->slot_ns = coop_end - now;
		fd->coop_slot = 1;
		fd->count[FQ_C_COOP]++;
	} else {
		q = ek_fq_pick(c);
		fd->slot_ns = fq_slot_ns(fd, c);
	}
	c->wait_since_ns = now;
	fd->in_service = q;
	fq_coop_moved(fd, q);
	q->slot_start_ns = now;
	q->served = 0;
	q->served_sectors = 0;
	q->seq_sectors = 0;
	q->budget = ek_max_u64(ek_min_u64(q->budget,
					  fq_budget_cap(fd, fd->rate, fd->slot_ns)),
			       FQ_MIN_BUDGET);
	if (fd->aged_slot)
		q->budget = FQ_MIN_BUDGET;
	/* A raise ends within a slot: no raised slot outlives what is left. */
	if ((q->flags & FQ_Q_RAISED) && q->wr_left < q->budget)
		q->budget = ek_max_u64(q->wr_left, FQ_MIN_BUDGET);
	fd->count[FQ_C_SWITCHES]++;
}

/* rq leaves q: its FIFO and counts (the async sort tree is the caller's). */
static void fq_unlink_fifo(struct fq_data *fd, struct fq_queue *q,
			   struct ek_rq *rq)
{
	ek_list_del(&rq->fifo);
	rq->policy_data[0] &= ~(ek_u64)FQ_RQ_QUEUED;
	q->nr_queued--;
	fd->nr_queued--;
}

static void fq_unlink(struct fq_data *fd, struct fq_queue *q, struct ek_rq *rq)
{
	if (q->flags & FQ_Q_ASYNC)
		ek_rb_erase(&q->sort, &rq->sort);
	fq_unlink_fifo(fd, q, rq);
	fq_coop_moved(fd, q);
}

/*
 * rq leaves q for the device at now (the caller took it off the sort
 * tree): charge it to q's slot, which ends if its process is gone and
 * this was its last request (fq_leave_if_gone).
 */
static ek_always_inline struct ek_rq *fq_take(struct fq_data *fd,
					      struct fq_queue *q,
					      struct ek_rq *rq, int expired,
					      ek_u64 now)
{
	int async = q->flags & FQ_Q_ASYNC;

	fq_unlink_fifo(fd, q, rq);
	rq->policy_data[0] |= FQ_RQ_INFLIGHT;
	ek_atomic_inc(&q->nr_inflight);
	q->served += (ek_u64)rq->nr_sectors * (async ? fd->async_charge : 1);
	/*
	 * A seeky queue's request costs a seek whatever its size: charged
	 * as the sectors the device would have moved meanwhile, or a queue
	 * of small random reads would take the disk at the price of a few
	 * sectors and starve everybody else. Not while raised: a starting
	 * application's reads are seeky, and its raise is bounded anyway.
	 */
	if (fq_seeky(q) && !(q->flags & FQ_Q_RAISED))
		q->served += fd->seek_charge;
	q->served_sectors += rq->nr_sectors;
	if (rq->sector == q->next_pos)
		q->seq_sectors += rq->nr_sectors;
	q->next_pos = ek_rq_end(rq);
	if (expired)
		fd->count[FQ_C_EXPIRED]++;
	fd->count[rq->dir == EK_WRITE ? FQ_C_WRITES : FQ_C_READS]++;
	fq_leave_if_gone(fd, q, now);
	return rq;
}

/*
 * The shared asynchronous queue serves in sector order (writeback
 * streams from many files) unless its FIFO head expired. Out of line:
 * the tree calls would make every request of a process's queue save and
 * restore registers.
 */
static ek_noinline struct ek_rq *
fq_serve_async(struct fq_data *fd, struct fq_queue *q, struct ek_rq *head,
	       int expired, ek_u64 now)
{
	struct ek_rq *rq = head;
	struct ek_rb_node *n;

	if (!expired) {
		n = ek_rb_lower_bound(&q->sort, q->next_pos);
		if (!n)
			n = ek_rb_first(&q->sort);
		rq = ek_rb_entry(n, struct ek_rq, sort);
	}
	ek_rb_erase(&q->sort, &rq->sort);
	return fq_take(fd, q, rq, expired, now);
}

/*
 * The request q serves next: an expired FIFO head, else, for the shared
 * asynchronous queue, sector order; a process's own queue goes in the
 * order the process asked, which is O(1) and usually its sector order too.
 */
static ek_always_inline struct ek_rq *fq_serve(struct fq_data *fd,
					       struct fq_queue *q, ek_u64 now)
{
	struct ek_rq *rq = ek_list_first(&q->fifo, struct ek_rq, fifo);
	int expired = now >= rq->deadline_ns;

	if (q->flags & FQ_Q_ASYNC)
		return fq_serve_async(fd, q, rq, expired, now);
	return fq_take(fd, q, rq, expired, now);
}

/* ---- queue life ---- */

/* Raise q (becoming busy) if it is new or was idle long, not in a burst. */
static void fq_maybe_raise(struct fq_data *fd, struct fq_queue *q, ek_u64 now)
{
	int is_new = !(q->flags & FQ_Q_EVER_BUSY);

	if (!fd->low_latency || q->cls == FQ_IDLE ||
	    (q->flags & (FQ_Q_SHARED | FQ_Q_EXITED | FQ_Q_RAISED)))
		return;
	if (is_new) {
		if (fd->burst_count && now - fd->burst_last_ns < FQ_BURST_NS) {
			fd->burst_count++;
		} else {
			fd->burst_count = 1;
			fd->burst_id++;
			fd->large_bursts <<= 1;
		}
		fd->burst_last_ns = now;
		q->burst = fd->burst_id;
		if (fd->burst_count > FQ_BURST_LARGE) {
			fd->large_bursts |= 1;
			return;
		}
	} else if (fq_did_io_within(q, now, FQ_WR_IDLE_NS)) {
		return;
	} else if (fq_in_large_burst(fd, q)) {
		/* as bfq: it is raised again from the next return on */
		if (!fq_did_io_within(q, now, FQ_BURST_FORGET_NS))
			q->flags &= ~FQ_Q_LARGE_BURST;
		return;
	}
	q->flags |= FQ_Q_RAISED;
	/* in proportion to the weight, so that the raise keeps ratios */
	q->wr_left = FQ_WR_SECTORS * ek_fq_level_weight(q->level) /
		     ek_fq_level_weight(4);
	q->wr_until_ns = now + FQ_WR_NS;
	fd->count[FQ_C_RAISES]++;
}

/*
 * q got its first request while idle: it joins its class's fair order.
 * Inline, as fq_select: where two readers' queues take turns (on flash),
 * every request makes one busy and gives another the disk.
 */
static ek_always_inline void fq_activate(struct fq_data *fd,
					 struct fq_queue *q,
					 const struct ek_rq *rq, ek_u64 now)
{
	struct fq_queue *in = fd->in_service;
	int cls = fq_class_of(rq);

	if (cls != q->cls)
		q->vfinish = 0;	/* another class's virtual time */
	q->cls = (ek_u8)cls;
	q->in_class = &fd->cls[cls];
	q->level = fq_level_of(rq);
	fq_maybe_raise(fd, q, now);
	q->weight = ek_fq_level_weight(q->level) *
		    (q->flags & FQ_Q_RAISED ? FQ_WR_COEFF : 1);
	if (!q->budget)
		q->budget = fq_budget_cap(fd, fd->rate,
					  fq_slot_ns(fd, q->in_class)) / 8;
	ek_fq_activate(fd, q, now);
	fq_coop_moved(fd, q);
	q->flags |= FQ_Q_EVER_BUSY;
	/*
	 * The round must stay within target_latency_ms however many queues
	 * join during a slot: the slot in service shrinks to its new share.
	 */
	if (in && in->cls == q->cls)
		fd->slot_ns = ek_min_u64(fd->slot_ns,
					 fq_slot_ns(fd, q->in_class));

	if (!in || fd->aged_slot || fd->preempt)
		return;
	if (q->cls < in->cls ||
	    (q->cls == in->cls && (q->flags & FQ_Q_RAISED) &&
	     !(in->flags & FQ_Q_RAISED))) {
		fd->preempt = 1;
		fd->count[FQ_C_PREEMPTS]++;
		fq_kick(fd);
	}
}

/* Think time and seek distance of q's process, at a new request. */
static void fq_update_stats(struct fq_queue *q, const struct ek_rq *rq,
			    ek_u64 now)
{
	ek_u64 ttime = 0;
	ek_u32 seek;

	if (q->flags & FQ_Q_STARTED) {
		/* with requests still outstanding it does not think: 0 */
		ek_u64 done;

		if (!q->nr_queued && !ek_atomic_read_acquire(&q->nr_inflight)) {
			done = ek_atomic_read64(&q->last_done_ns);
			if (done && now > done)
				ttime = (now - done) >> FQ_NS_SHIFT;
		}
		seek = fq_dist(rq->sector, q->last_pos) < FQ_SEEK_SAMPLE_MAX ?
		       (ek_u32)fq_dist(rq->sector, q->last_pos) :
		       FQ_SEEK_SAMPLE_MAX;

		if (q->flags & FQ_Q_SAMPLED) {
			fq_decay(&q->ttime_mean8, fq_cap(ttime));
			fq_decay(&q->seek_mean8, seek);
		} else {
			/* the first sample is the mean so far */
			q->ttime_mean8 = 8 * fq_cap(ttime);
			q->seek_mean8 = 8 * seek;
			q->flags |= FQ_Q_SAMPLED;
		}
	}
	q->last_pos = ek_rq_end(rq);
	q->flags |= FQ_Q_STARTED;
}

static struct fq_queue *fq_queue_for(struct fq_data *fd, struct ek_rq *rq)
{
	if (!rq->sync)
		return &fd->async[fq_class_of(rq)];
	if (!rq->pctx)
		return &fd->nopctx;
	return ek_pctx_priv(rq->pctx);
}

/*
 * A callback withdraws the claim that has_work is "holds a request"
 * (host.never_idles) unless it publishes it (fq_publish, insert only):
 * the host then asks has_work.
 */
static void fq_forget_claim(struct fq_data *fd)
{
	if (fd->host)
		fd->host->never_idles = 0;
}

/* A callback that may change the queues forgets has_work's verdict too. */
static void fq_forget(struct fq_data *fd)
{
	fd->over_why = FQ_END_NONE;
	fq_forget_claim(fd);
}

/*
 * At the end of an insert: has_work's verdict, for the host
 * (host.never_idles: it need not ask) and for dispatch (over_why). It is
 * "holds a request" unless the queue in service ran dry with requests
 * queued elsewhere and its slot is not over: then the idle wait, time
 * and completions decide, and has_work is asked. A verdict no time or
 * completion changes (fq_dry_over) is the one has_work would keep. Two
 * readers on flash switch queues at every request, and this was a call
 * of has_work each. Where idling is the rule (idle_seq) only a
 * preemption is looked for here, and has_work asked otherwise, as after
 * other callbacks: here it would be asked twice.
 */
static ek_always_inline void fq_publish(struct fq_data *fd)
{
	struct fq_queue *q = fd->in_service;
	ek_u8 claim = 1;

	if (q && !q->nr_queued && fd->nr_queued && !fd->over_why) {
		int why = FQ_END_NONE;

		if (!fd->idle_seq || fd->preempt)
			why = fq_dry_over(fd, q);
		if (why != FQ_END_NONE)
			fd->over_why = (ek_u8)why;
		else
			claim = 0;
	}
	fd->host->never_idles = claim;
}

/* ---- policy callbacks ---- */

static void fq_set_tunable(void *sd, ek_u32 idx, ek_s64 value)
{
	struct fq_data *fd = sd;
	ek_u64 v = (ek_u64)value;

	fq_forget(fd);
	switch (idx) {
	case FQ_T_SLICE_IDLE:
		fd->slice_idle_ns = v * EK_NSEC_PER_USEC;
		break;
	case FQ_T_LOW_LATENCY:
		fd->low_latency = (ek_u32)v;
		break;
	case FQ_T_FIFO_EXPIRE_SYNC:
		fd->fifo_expire_ns[1] = v * FQ_MS;
		break;
	case FQ_T_FIFO_EXPIRE_ASYNC:
		fd->fifo_expire_ns[0] = v * FQ_MS;
		break;
	case FQ_T_TARGET_LATENCY:
		fd->target_latency_ns = v * FQ_MS;
		fq_slot_table(fd);
		break;
	case FQ_T_SLICE_MAX:
		fd->slice_max_ns = v * FQ_MS;
		fq_slot_table(fd);
		break;
	case FQ_T_MAX_BUDGET:
		fd->max_budget = v;
		break;
	case FQ_T_CLASS_AGE:
		fd->class_age_ns = v * FQ_MS;
		break;
	case FQ_T_ASYNC_CHARGE:
		fd->async_charge = (ek_u32)v;
		break;
	case FQ_T_IDLE_NONROT:
		fd->idle_nonrot = (ek_u32)v;
		break;
	case FQ_T_ASYNC_DEPTH:
		fd->async_depth = v;
		return;		/* no decision depends on it */
	case FQ_T_COOPERATE:
		fd->cooperate = (ek_u32)v;
		break;
	default:
		return;
	}
	fq_coop_switch(fd);
	/* An idle wait may have become pointless: have the host look again. */
	if (fd->host)
		fq_kick(fd);
}

static ek_u64 fq_read_counter(void *sd, ek_u32 idx)
{
	struct fq_data *fd = sd;

	return idx < FQ_NR_COUNTERS ? fd->count[idx] : 0;
}

static int fq_init(void *sd, struct ek_host *host, const ek_s64 *values)
{
	struct fq_data *fd = sd;
	ek_u32 i;

	for (i = 0; i < FQ_NR_TUNABLES; i++)
		fq_set_tunable(fd, i, values[i]);
	fd->host = host;
	for (i = 0; i < FQ_NR_CLASSES; i++) {
		ek_ph_init(&fd->cls[i].eligible);
		ek_ph_init(&fd->cls[i].waiting);
		fq_queue_init(&fd->async[i], FQ_Q_ASYNC | FQ_Q_SHARED);
	}
	fq_queue_init(&fd->nopctx, FQ_Q_SHARED);
	ek_list_init(&fd->special);
	ek_rb_init(&fd->coop);
	fq_coop_switch(fd);
	fq_set_rate(fd, host->dev.rotational ? FQ_RATE_ROT : FQ_RATE_NONROT);
	fd->min_budget = FQ_MIN_BUDGET;
	return 0;
}

static ek_always_inline void fq_queue_rq(struct fq_data *fd,
					 struct ek_rq *rq, ek_u64 now)
{
	struct fq_queue *q;

	fd->now = now;
	fd->over_why = FQ_END_NONE;
	if (rq->kind != EK_KIND_NORMAL || rq->at_head) {
		/*
		 * Whoever sent these needs their order (a flush after its
		 * writes, a requeue that was at the device already): they go
		 * first, unsorted, uncharged.
		 */
		if (rq->at_head)
			ek_list_add_head(&rq->fifo, &fd->special);
		else
			ek_list_add_tail(&rq->fifo, &fd->special);
		rq->policy_data[0] = FQ_RQ_SPECIAL;
		rq->policy_data[1] = 0;
		return;
	}
	q = fq_queue_for(fd, rq);
	if (q == fd->in_service && !q->nr_queued && fq_lapsed(fd, q, now))
		fq_expire_lapsed(fd, q, now);
	if (!(q->flags & FQ_Q_SHARED))
		fq_update_stats(q, rq, now);
	rq->policy_data[0] = FQ_RQ_QUEUED;
	rq->policy_data[1] = (ek_u64)(__UINTPTR_TYPE__)q;
	rq->deadline_ns = rq->arrival_ns +
			  fd->fifo_expire_ns[q->flags & FQ_Q_ASYNC ? 0 : 1];
	ek_list_add_tail(&rq->fifo, &q->fifo);
	if (q->flags & FQ_Q_ASYNC)
		ek_rb_insert(&q->sort, &rq->sort, rq->sector);
	q->nr_queued++;
	fd->nr_queued++;

	if (q == fd->in_service) {
		if (fd->idling && q->nr_queued == 1) {
			fd->count[FQ_C_IDLE_HITS]++;
			fd->idling = 0;
			fq_timer_cancel(fd);
			fq_kick(fd);
		}
	} else if (!(q->flags & FQ_Q_BUSY)) {
		fq_activate(fd, q, rq, now);
	}
}

/*
 * insert, dispatch and completed_unlocked are inline where a host calls
 * them directly, as the kernel module's per-request operations do
 * (shim_hot.h); through the policy's table they are functions. Alone
 * that saved nothing: the compiler then left fq_activate and fq_select
 * out of line. Forced inline too, they save some 27 instructions per
 * I/O on 7.2 (fq_maybe_raise and ek_fq_pick go out of line instead).
 */
static ek_always_inline void fq_insert(void *sd, struct ek_rq *rq, ek_u64 now)
{
	fq_queue_rq(sd, rq, now);
	fq_publish(sd);
}

static ek_always_inline struct ek_rq *fq_next(struct fq_data *fd, ek_u64 now)
{
	struct ek_rq *rq = ek_list_first(&fd->special, struct ek_rq, fifo);
	struct fq_queue *q, *coop = EK_NULL;
	ek_u64 coop_end = 0;
	int why;

	fd->now = now;
	if (rq) {
		ek_list_del(&rq->fifo);
		rq->policy_data[0] = 0;
		fd->count[FQ_C_OTHER]++;
		return rq;
	}
	if (!fd->nr_queued)
		return EK_NULL;
	q = fd->in_service;
	if (q) {
		why = fd->over_why ? fd->over_why : fq_slot_over(fd, q, now);
		fd->over_why = FQ_END_NONE;
		if (why == FQ_END_NONE) {
			if (q->nr_queued)
				return fq_serve(fd, q, now);
			fd->idling = 1;
			fq_timer_arm(fd, fq_idle_deadline(fd, q));
			return EK_NULL;
		}
		if (why == FQ_END_COOP) {
			coop = fq_close_coop(fd, q);
			coop_end = q->slot_start_ns + fd->slot_ns;
		}
		/*
		 * Ran dry with nothing to wait for: how every slot ends where
		 * two readers on flash take turns. Its own copy, with the
		 * other reasons' branches folded away.
		 */
		if (why == FQ_END_EMPTY)
			fq_expire(fd, q, FQ_END_EMPTY, now);
		else
			fq_expire(fd, q, why, now);
	}
	fq_select(fd, coop, coop_end, now);
	/* Busy queues out of service always have requests. */
	return fq_serve(fd, fd->in_service, now);
}

static ek_always_inline struct ek_rq *fq_dispatch(void *sd, ek_u64 now)
{
	struct ek_rq *rq = fq_next(sd, now);

	fq_forget_claim(sd);
	return rq;
}

static int fq_has_work(void *sd, ek_u64 now)
{
	struct fq_data *fd = sd;
	struct fq_queue *q = fd->in_service;
	int why;

	if (!ek_list_empty(&fd->special))
		return 1;
	if (!fd->nr_queued)
		return 0;
	if (q && !q->nr_queued && !fd->over_why) {
		why = fq_slot_over(fd, q, now);
		if (why == FQ_END_NONE) {
			/* idling: make sure the wait ends by itself */
			fd->idling = 1;
			fq_timer_arm(fd, fq_idle_deadline(fd, q));
			return 0;
		}
		/*
		 * The slot is over. Dispatch, which follows, need not look
		 * again: with many queues and few requests each (every
		 * dispatch a queue switch) that second look was a tenth of a
		 * request's cost. With nothing queued the verdict (preempt,
		 * empty, idle wait over) stays true as time passes, until a
		 * callback changes the queues: they all forget it. A
		 * completion, without the lock, does not: an idle wait over
		 * stays over though its request came back since (its window
		 * would start again), as it would have with the dispatch
		 * first, and has_work keeps to the verdict too.
		 */
		fd->over_why = (ek_u8)why;
	}
	return 1;
}

/* q lost its last queued request other than by dispatch (a merge). */
static void fq_emptied(struct fq_data *fd, struct fq_queue *q)
{
	if (q->nr_queued || !(q->flags & FQ_Q_BUSY))
		return;
	if (q == fd->in_service)
		fq_leave_if_gone(fd, q, fd->now);
	else	/* out of service it would be picked with nothing to serve */
		ek_fq_unqueue(fd, q);
}

/*
 * rq leaves the device, done or back to the host: its queue, if it was
 * counted there, has one request fewer there. With its end
 * time (fq_ended) that is all a completion changes, so that it needs no
 * lock (completed_unlocked): both words are read atomically under the
 * lock, the count first. If the dispatcher idles on the queue, its
 * window moved: the host looks again after an unlocked completion when
 * has_work last said no with requests held, as it then did, and else the
 * next request looks. The queue's memory outlives the call (rq holds its
 * context), and the queue in service is never an exited one with nothing
 * queued (fq_take, fq_emptied, fq_pctx_exit), whose memory may go with
 * this request.
 */
static void fq_off_device(struct ek_rq *rq, int done, ek_u64 now)
{
	struct fq_queue *q = fq_rq_queue(rq);

	if (!(rq->policy_data[0] & FQ_RQ_INFLIGHT))
		return;
	rq->policy_data[0] = 0;
	/* a sync request's end starts its think time and the idle window */
	if (done && rq->sync)
		ek_atomic_set64(&q->last_done_ns, now ? now : 1);	/* 0: none */
	ek_atomic_dec_release(&q->nr_inflight);	/* after the end time */
}

static ek_always_inline int fq_completed_unlocked(void *sd, struct ek_rq *rq,
						 ek_u64 stamp)
{
	struct fq_data *fd = sd;

	/* the clock only for an end that counts, and only without a stamp */
	if (!stamp && rq->sync && (rq->policy_data[0] & FQ_RQ_INFLIGHT))
		stamp = fd->host->ops->now(fd->host);
	fq_off_device(rq, 1, stamp);
	return 1;
}

/* Hosts call completed_unlocked, which always completes; for the contract. */
static void fq_completed(void *sd, struct ek_rq *rq, ek_u64 now)
{
	(void)sd;
	fq_off_device(rq, 1, now);
}

static void fq_requeue(void *sd, struct ek_rq *rq, ek_u64 now)
{
	struct fq_data *fd = sd;

	fd->now = now;
	fq_forget(fd);
	fq_off_device(rq, 0, 0);
}

static void fq_merged(void *sd, struct ek_rq *rq, ek_u64 old_sector)
{
	struct fq_queue *q = fq_rq_queue(rq);

	if (!(rq->policy_data[0] & FQ_RQ_QUEUED))
		return;
	if (q->flags & FQ_Q_INDEXED) {
		/* a front merge may have moved its next request's start */
		if (rq->sector != old_sector)
			fq_coop_place(sd, q);
		return;
	}
	if (!(q->flags & FQ_Q_ASYNC) || rq->sort.key == rq->sector)
		return;
	ek_rb_erase(&q->sort, &rq->sort);
	ek_rb_insert(&q->sort, &rq->sort, rq->sector);
}

static void fq_merged_requests(void *sd, struct ek_rq *rq, struct ek_rq *next)
{
	struct fq_data *fd = sd;
	struct fq_queue *qn = fq_rq_queue(next);

	fq_forget(fd);
	if (next->policy_data[0] & FQ_RQ_SPECIAL) {
		ek_list_del(&next->fifo);
		next->policy_data[0] = 0;
		return;
	}
	if (!(next->policy_data[0] & FQ_RQ_QUEUED))
		return;
	/* rq carries next's data: it keeps the earlier deadline and place. */
	if ((rq->policy_data[0] & FQ_RQ_QUEUED) && fq_rq_queue(rq) == qn &&
	    next->deadline_ns < rq->deadline_ns) {
		ek_list_del(&rq->fifo);
		ek_list_add_tail(&rq->fifo, &next->fifo);
		rq->deadline_ns = next->deadline_ns;
	}
	fq_unlink(fd, qn, next);
	fq_emptied(fd, qn);
	fq_merged(sd, rq, rq->sector);
}

/*
 * Readers whose next read waits for a scheduler tag look as if they think
 * for long, and lose their idling: with more readers than the tags left
 * by a writer's queued requests, fair-queue stops streaming. async_depth
 * keeps tags for them.
 */
static ek_u32 fq_limit_depth(void *sd, ek_u8 dir, ek_u8 sync)
{
	struct fq_data *fd = sd;

	return ek_async_limit(fd->async_depth, fd->host->dev.nr_requests, dir,
			      sync);
}

static void fq_pctx_init(void *sd, struct ek_pctx *pctx)
{
	(void)sd;
	fq_queue_init(ek_pctx_priv(pctx), 0);
}

static void fq_pctx_exit(void *sd, struct ek_pctx *pctx)
{
	struct fq_data *fd = sd;
	struct fq_queue *q = ek_pctx_priv(pctx);

	fq_forget(fd);
	q->flags |= FQ_Q_EXITED;
	if (q == fd->in_service && fq_leave_if_gone(fd, q, fd->now))
		fq_kick(fd);
}

const struct ek_policy ek_fair_queue_policy = {
	.name = "fair-queue",
	.description = "per-process fair queueing: budgets in sectors, B-WF2Q+, idling, weight raising",
	.sched_size = sizeof(struct fq_data),
	.pctx_size = sizeof(struct fq_queue),
	.tunables = fq_tunables,
	.nr_tunables = FQ_NR_TUNABLES,
	.counters = fq_counters,
	.nr_counters = FQ_NR_COUNTERS,
	.init = fq_init,
	.set_tunable = fq_set_tunable,
	.read_counter = fq_read_counter,
	.insert = fq_insert,
	.dispatch = fq_dispatch,
	.has_work = fq_has_work,
	.completed = fq_completed,
	.completed_unlocked = fq_completed_unlocked,
	.requeue = fq_requeue,
	.merged = fq_merged,
	.merged_requests = fq_merged_requests,
	.pctx_init = fq_pctx_init,
	.pctx_exit = fq_pctx_exit,
	.limit_depth = fq_limit_depth,
	.flags = EK_POLICY_SAME_QUEUE_MERGES | EK_POLICY_COMPLETION_TIME,
};
