// SPDX-License-Identifier: GPL-2.0
/*
 * The anticipatory I/O scheduler policy, after Iyer and Druschel's
 * "Anticipatory scheduling" (SOSP 2001) and Linux 2.6's as-iosched.
 *
 * Underneath it is a deadline scheduler: per direction a sector-sorted tree
 * and a FIFO with an expiry time, served in read and write batches. Within
 * a batch requests go in one-way sector order, except that an expired FIFO
 * head of the batch's direction goes next, at most once per read_expire
 * (write_expire) as in as-iosched: a second expired head waits that long
 * after the first, or after the batch started. A batch ends by time while
 * the other direction waits (read_batch_expire, write_batch_expire), and
 * the next batch starts at its direction's FIFO head. So a deadline bounds
 * a wait together with the other direction's batch: a read waits at most
 * about read_expire + write_batch_expire, a write about write_expire +
 * read_batch_expire, plus one read_expire (write_expire) for each older
 * request still queued when it expired. These are as-iosched's two trades:
 * an expired write cannot cut a read batch short, or a backlog of buffered
 * writes (whose FIFO head is always expired) would end every read batch
 * after one read and undo anticipation; and expired reads cannot take
 * every dispatch, or with more readers than a read_expire can serve by
 * seeking every read would be expired by its turn and each a seek.
 *
 * On top, anticipation beats deceptive idleness: a process P that reads
 * synchronously has, when its read completes, nothing queued, yet will issue
 * the next read (usually right after the previous one) within a short think
 * time. Seeking away to serve someone else and coming back costs two seeks
 * per read. So when the next request in the read batch is not P's and is
 * not close to where P's last read ended, the policy waits up to
 * antic_expire after P's read completed for P's next read.
 *
 * Whether waiting pays is decided per process from decaying averages of its
 * think time (completion of its last read to arrival of its next) and seek
 * distance: no wait for a process that thinks longer than antic_expire, nor
 * when the candidate request is closer than P's usual seek. The wait ends
 * at once when P's read (or any read close to P's position) arrives (a
 * "hit"), when P has been silent for antic_expire (a "timeout"), or when P
 * exits, another read's FIFO head is due (as above), the read batch runs
 * out while writes wait, the reads held fill nr_requests (P could not
 * submit) or anticipation is switched off (an "abort").
 *
 * The wait never blocks the host: while waiting has_work() is false and the
 * host's timer is armed for the earliest moment the wait can end by itself
 * (P's window closing, the read FIFO head falling due, the read batch
 * ending); an arriving request that ends the wait kicks the host. Every
 * decision is computed by one side-effect-free function, as_pick(), so
 * that has_work() is exactly "dispatch() would return a request"; after
 * each event (and in has_work) as_settle() commits what as_pick() found: a
 * wait starts, with its timer, or ends.
 *
 * Requests of a kind other than EK_KIND_NORMAL, at_head requests and
 * requeued requests go first, in FIFO order, and are never anticipated
 * against; they do not end a wait either.
 *
 * No anticipation on non-rotational devices unless antic_nonrot is set.
 */
#include "elvkit/atomic.h"
#include "elvkit/dlq.h"
#include "elvkit/limit.h"
#include "elvkit/policy_list.h"

enum as_tunable {
	AS_T_ANTIC_EXPIRE,
	AS_T_READ_EXPIRE,
	AS_T_WRITE_EXPIRE,
	AS_T_READ_BATCH_EXPIRE,
	AS_T_WRITE_BATCH_EXPIRE,
	AS_T_ANTIC_NONROT,
	AS_T_ASYNC_DEPTH,
	AS_NR_TUNABLES
};

/* The order of as_counters[] and of as_data.count[]. */
enum as_counter {
	AS_C_STARTED,
	AS_C_HITS,
	AS_C_TIMEOUTS,
	AS_C_ABORTED,
	AS_C_READS,
	AS_C_WRITES,
	AS_NR_COUNTERS
};

static const struct ek_tunable as_tunables[AS_NR_TUNABLES] = {
	[AS_T_ANTIC_EXPIRE] = {
		"antic_expire", "ms",
		"longest wait for a process's next read after its last one completed; 0 = no anticipation",
		6, 0, 1000, 0 },
	[AS_T_READ_EXPIRE] = {
		"read_expire", "ms", "a read's FIFO deadline",
		125, 1, 60000, 0 },
	[AS_T_WRITE_EXPIRE] = {
		"write_expire", "ms", "a write's FIFO deadline",
		250, 1, 60000, 0 },
	[AS_T_READ_BATCH_EXPIRE] = {
		"read_batch_expire", "ms", "length of a read batch while writes wait",
		500, 0, 60000, 0 },
	[AS_T_WRITE_BATCH_EXPIRE] = {
		"write_batch_expire", "ms", "length of a write batch while reads wait",
		125, 0, 60000, 0 },
	[AS_T_ANTIC_NONROT] = {
		"antic_nonrot", "bool", "anticipate on non-rotational devices too",
		0, 0, 1, 0 },
	[AS_T_ASYNC_DEPTH] = {
		"async_depth", "requests", EK_ASYNC_DEPTH_HELP,
		0, 0, EK_ASYNC_DEPTH_MAX, 0 },
};

static const struct ek_counter as_counters[AS_NR_COUNTERS] = {
	[AS_C_STARTED] = {
		"antic_started", "waits", "anticipation waits started" },
	[AS_C_HITS] = {
		"antic_hits", "waits",
		"waits ended by the process's next read or a read close to it" },
	[AS_C_TIMEOUTS] = {
		"antic_timeouts", "waits", "waits that ran the full antic_expire" },
	[AS_C_ABORTED] = {
		"antic_aborted", "waits",
		"waits ended by an exit, a deadline, a batch end or a tunable" },
	[AS_C_READS] = {
		"dispatched_reads", "requests", "reads handed to the device" },
	[AS_C_WRITES] = {
		"dispatched_writes", "requests", "writes handed to the device" },
};

/* Anticipation state of the queue. */
enum as_state {
	AS_OFF,		/* not waiting; may start a wait */
	AS_WAIT,	/* waiting for antic_pctx's next read */
	AS_FINISHED,	/* a wait just ended: the next dispatch must not wait */
};

/* What as_pick() found. */
enum as_act {
	AS_ACT_NONE,	/* nothing queued */
	AS_ACT_RQ,	/* dispatch pick.rq */
	AS_ACT_WAIT,	/* a running wait goes on */
	AS_ACT_START,	/* a wait would start now */
	AS_ACT_DRAIN,	/* a new batch waits for the old direction to finish */
};

/* How a wait ends (also as_break()'s answer: why not to wait). */
enum as_end {
	AS_END_NONE,
	AS_END_HIT,
	AS_END_TIMEOUT,
	AS_END_ABORT,
};

/* The counter each way of ending a wait adds to. */
static const ek_u8 as_end_counter[] = {
	[AS_END_HIT] = AS_C_HITS,
	[AS_END_TIMEOUT] = AS_C_TIMEOUTS,
	[AS_END_ABORT] = AS_C_ABORTED,
};

struct as_pick {
	struct ek_rq *rq;
	int act;	/* enum as_act */
	int end;	/* enum as_end: how a running wait ends at this time */
};

/* Per-process statistics, after struct ek_pctx. */
#define AS_PS_STARTED	0x1u	/* a read was seen: last_pos is valid */
#define AS_PS_HAS_END	0x2u	/* a read completed: last_end_ns is valid */

/*
 * Think times are kept in units of 1024 ns ("us") and seek distances in
 * sectors, both capped at 2^20 so that the fixed-point sums (x * 256 * 8)
 * fit 32 bits and no 64-bit division is needed on 32-bit kernels.
 */
#define AS_STAT_CAP	(1u << 20)
#define AS_NS_SHIFT	10

struct as_pstat {
	ek_u32 flags;		/* AS_PS_* */
	ek_u32 nr_queued;	/* its reads in the scheduler */
	ek_u32 nr_inflight;	/* its reads on the device */
	ek_u32 ttime_samples;	/* decaying sample weight, fixed point /256 */
	ek_u32 ttime_total;
	ek_u32 ttime_mean;	/* think time, 1024 ns units */
	ek_u32 seek_samples;
	ek_u32 seek_total;
	ek_u32 seek_mean;	/* seek distance between its reads, sectors */
	ek_u64 last_pos;	/* end sector of its last read (at arrival) */
	ek_u64 last_end_ns;	/* completion time of its last read */
};

struct as_data {
	struct ek_host *host;

	/*
	 * Normal requests by sector and by deadline; special: flushes,
	 * passthrough, at_head and requeued requests.
	 */
	struct ek_dlq q;
	/* dispatched, not completed, per dir; atomic (as_completed_unlocked) */
	ek_u32 nr_inflight[2];

	ek_u64 last_sector[2];		/* end of the last dispatch, per dir */
	ek_u64 last_read_start;		/* start of the last read dispatched */
	ek_u64 fifo_ns[2];		/* last expired head or batch start, per dir */
	int batch_dir;
	ek_u64 batch_start_ns;

	/* anticipation */
	int state;			/* enum as_state */
	struct ek_pctx *last_pctx;	/* owner of the last read dispatched */
	struct ek_rq *hit_rq;		/* a read that ended a wait: serve it next */
	ek_u64 timer_ns;		/* armed time, 0 = none */

	/* tunables, in ns */
	ek_u64 antic_expire;
	ek_u64 fifo_expire[2];
	ek_u64 batch_expire[2];
	int antic_nonrot;
	int antic_on;			/* as_update_antic_on(); atomic */
	ek_u64 async_depth;

	/*
	 * What as_settle() returned at memo_now, valid (memo_ok) until the
	 * next call that can change the state (as_enter), and until
	 * memo_until: as_pick() reads the time only as "now >= T" for a few
	 * times T (as_pick_stable_until), so until the next of them passes
	 * it gives what it gave at memo_now. The host asks has_work after
	 * every call into the policy (the kernel shim does, to answer blk-mq
	 * without the lock); a dispatch and a completion ask what the last
	 * settle found. The pick is most of this policy's cost per request.
	 */
	int memo_ok;
	ek_u32 memo_inflight;		/* as_inflight_sum() at memo_now */
	ek_u64 memo_now;
	ek_u64 memo_until;
	struct ek_rq *memo_rq;

	ek_u64 count[AS_NR_COUNTERS];
};

static struct as_pstat *as_ps(struct ek_pctx *p)
{
	return ek_pctx_priv(p);
}

/* Gone: every host sets the flag before it calls pctx_exit (contract.h). */
static int as_exited(struct ek_pctx *p)
{
	return p->flags & EK_PCTX_EXITED;
}

static ek_u64 as_dist(ek_u64 a, ek_u64 b)
{
	return a > b ? a - b : b - a;
}

static ek_u32 as_cap(ek_u64 v)
{
	return v < AS_STAT_CAP ? (ek_u32)v : AS_STAT_CAP;
}

/* One step of the decaying averages of as-iosched: weight 7/8 per sample. */
static void as_decay(ek_u32 *samples, ek_u32 *total, ek_u32 *mean, ek_u32 v)
{
	*samples = (7 * *samples + 256) / 8;
	*total = (ek_u32)((7 * (ek_u64)*total + 256 * (ek_u64)v) / 8);
	*mean = (*total + *samples / 2) / *samples;
}

/*
 * When dir's FIFO head is due: at its deadline, but not before fifo_expire
 * after the last dispatch of an expired head of dir or the start of a
 * batch of dir (as-iosched checked the FIFO once per fifo_expire). Without
 * that limit, once more readers wait than can be served by seeking within
 * read_expire, every read is expired by its turn, each dispatch is a FIFO
 * head, a seek away from the last, and anticipation never gets a reader
 * streaming again: 16 sequential readers on the hdd model got 18 MB/s,
 * as with no scheduler. EK_U64_MAX if dir has nothing queued.
 */
static ek_u64 as_fifo_due_at(struct as_data *ad, int dir)
{
	struct ek_rq *rq = ek_dlq_fifo_head(&ad->q, dir);

	if (!rq)
		return EK_U64_MAX;
	return ek_max_u64(rq->deadline_ns,
			  ad->fifo_ns[dir] + ad->fifo_expire[dir]);
}

/* now >= as_fifo_due_at(): the deadline first, as most heads are not late. */
static int as_fifo_due(struct as_data *ad, int dir, ek_u64 now)
{
	struct ek_rq *rq = ek_dlq_fifo_head(&ad->q, dir);

	return rq && now >= rq->deadline_ns &&
	       now >= ad->fifo_ns[dir] + ad->fifo_expire[dir];
}

/*
 * The running batch's time is up. Only matters when the other direction
 * has requests queued (until then the batch clock keeps restarting).
 */
static int as_batch_expired(struct as_data *ad, ek_u64 now)
{
	return now >= ad->batch_start_ns + ad->batch_expire[ad->batch_dir];
}

/* Asked on every call; the device is fixed, so only tunables change it. */
static int as_antic_enabled(struct as_data *ad)
{
	return ek_atomic_read_int(&ad->antic_on);
}

/*
 * Without anticipation nothing waits and no timer is armed: deadlines and
 * batches of milliseconds are all that read the time, and a tick will do.
 */
static void as_update_antic_on(struct as_data *ad)
{
	int on = ad->antic_expire &&
		 (ad->host->dev.rotational || ad->antic_nonrot);

	ek_atomic_set_int(&ad->antic_on, on);
	ad->host->tick_time = !on;
}

static ek_u32 as_inflight(struct as_data *ad, int dir)
{
	return ek_atomic_read(&ad->nr_inflight[dir]);
}

/* Changes with every completion, locked or not (only they lower it). */
static ek_u32 as_inflight_sum(struct as_data *ad)
{
	return as_inflight(ad, EK_READ) + as_inflight(ad, EK_WRITE);
}

/* When P's window closes, or EK_U64_MAX while its read is on the device. */
static ek_u64 as_antic_deadline(struct as_data *ad, struct ek_pctx *p)
{
	struct as_pstat *ps = as_ps(p);

	if (ps->nr_inflight || !(ps->flags & AS_PS_HAS_END))
		return EK_U64_MAX;
	return ps->last_end_ns + ad->antic_expire;
}

/*
 * The next request of dir in one-way elevator order from the last
 * dispatch. quick: as_quick() holds, so no wait ended and hit_rq is NULL.
 */
static ek_always_inline struct ek_rq *as_next_rq(struct as_data *ad, int dir,
						 int quick)
{
	struct ek_rq *rq;

	if (!quick && dir == EK_READ && ad->hit_rq)
		return ad->hit_rq;
	rq = ek_dlq_from(&ad->q, dir, ad->last_sector[dir]);
	return rq ? rq : ek_dlq_lowest(&ad->q, dir);
}

/*
 * How far before the start of P's last read another's read may end and
 * still be served instead of waiting for P: a block P skipped.
 */
#define AS_SKIPPED_SECTORS	2048	/* 1 MiB */

/*
 * Is rq (a synchronous read) close enough to P's last read that serving it
 * is as good as serving P? Ahead, it must start within a window after
 * P's read ended. The window starts at 32 KiB and doubles for every ~1 ms
 * already waited (2 MiB after 6 ms); a request closer to the head than
 * P's mean seek distance is always good enough. (as-iosched started at
 * 4 MiB; on a disk whose rotational latency alone is ~4 ms, any
 * non-contiguous request costs about as much as waiting out antic_expire,
 * so the window starts small. In the simulator this lifts seqread with 8
 * readers from 107 to 125 MB/s.)
 *
 * Behind, it may end up to AS_SKIPPED_SECTORS (or half the window) before
 * P's read started. Processes reading alternate blocks fall apart once one
 * of them thinks longer than a read takes: the other's next read skips its
 * block, and waiting for the one ahead kept it streaming over the gaps at
 * half the disk's rate while the one behind waited for its FIFO deadline.
 * Serving the block behind costs a rotation and puts the two back in step
 * (simulator, two readers of 128 KiB blocks, jittered think times: 108 ->
 * 221 MB/s).
 */
static int as_close_req(struct as_data *ad, struct ek_pctx *p,
			struct ek_rq *rq, ek_u64 now)
{
	struct as_pstat *ps = as_ps(p);
	ek_u64 last = ad->last_sector[EK_READ];
	ek_u64 next = rq->sector;
	ek_u64 delta = 64;
	ek_u64 waited = 0;

	if (ad->state == AS_WAIT && !ps->nr_inflight &&
	    (ps->flags & AS_PS_HAS_END) && now > ps->last_end_ns)
		waited = (now - ps->last_end_ns) >> 20;
	delta <<= waited < 20 ? waited : 20;

	if (ad->last_read_start <= ek_rq_end(rq) +
				  ek_max_u64(delta / 2, AS_SKIPPED_SECTORS) &&
	    next <= last + delta)
		return 1;
	return ps->seek_samples && ps->seek_mean > as_dist(next, last);
}

/*
 * Why waiting for P's next read does not pay given request rq (the
 * candidate to dispatch, or one just arriving; may be NULL), or AS_END_NONE
 * if it does.
 */
static int as_break(struct as_data *ad, struct ek_pctx *p, struct ek_rq *rq,
		    ek_u64 now)
{
	struct as_pstat *ps = as_ps(p);

	if (rq && rq->pctx == p)
		return rq->dir == EK_READ ? AS_END_HIT : AS_END_ABORT;
	if (now >= as_antic_deadline(ad, p))
		return AS_END_TIMEOUT;
	if (ps->nr_queued)		/* P is not blocked on a read */
		return AS_END_ABORT;
	if (rq && rq->dir == EK_READ && rq->sync && as_close_req(ad, p, rq, now))
		return AS_END_HIT;
	if (ps->ttime_samples &&
	    ps->ttime_mean > (ad->antic_expire >> AS_NS_SHIFT))
		return AS_END_ABORT;	/* P thinks too long */
	return AS_END_NONE;
}

/*
 * P's read is done and the reads the scheduler holds fill nr_requests: P
 * cannot even submit its next read, the slot its read freed has gone to
 * another (blocked) process, so waiting for P is wasted. While P's read is
 * on the device this is not known yet: its slot may well be P's again.
 * (With a per-direction limit, as in the simulator, this is exact; with a
 * shared limit, as in the kernel, reads and writes filling it together are
 * missed.)
 */
static int as_queue_full(struct as_data *ad, struct ek_pctx *p)
{
	ek_u32 limit = ad->host->dev.nr_requests;

	return limit && !as_ps(p)->nr_inflight &&
	       ek_dlq_nr(&ad->q, EK_READ) + as_inflight(ad, EK_READ) >= limit;
}

/* Why a running wait ends at time now by itself, or AS_END_NONE. */
static int as_wait_end(struct as_data *ad, ek_u64 now)
{
	struct ek_pctx *p = ad->last_pctx;

	if (!p || as_exited(p) || !as_antic_enabled(ad))
		return AS_END_ABORT;
	if (now >= as_antic_deadline(ad, p))
		return AS_END_TIMEOUT;
	if (as_fifo_due(ad, EK_READ, now))
		return AS_END_ABORT;	/* someone else's read is due */
	if (as_queue_full(ad, p))
		return AS_END_ABORT;
	if (ek_dlq_nr(&ad->q, EK_WRITE) && as_batch_expired(ad, now))
		return AS_END_ABORT;
	return AS_END_NONE;
}

/* Should the read batch wait for P instead of dispatching rq (maybe NULL)? */
static int as_can_anticipate(struct as_data *ad, struct ek_rq *rq, ek_u64 now)
{
	struct ek_pctx *p = ad->last_pctx;

	if (!p || as_exited(p) || !as_antic_enabled(ad))
		return 0;
	if (ek_dlq_nr(&ad->q, EK_WRITE) && as_batch_expired(ad, now))
		return 0;
	if (as_queue_full(ad, p))
		return 0;
	return as_break(ad, p, rq, now) == AS_END_NONE;
}

/*
 * The scheduling decision at time now, without side effects. has_work()
 * is "pick gives a request"; dispatch() commits it. quick: the caller
 * knows as_quick() holds (no wait runs or can start), and the compiler
 * drops those branches from that copy (as_dispatch's).
 */
static ek_always_inline void as_pick_in(struct as_data *ad, ek_u64 now,
					struct as_pick *pk, int quick)
{
	int reads = ek_dlq_nr(&ad->q, EK_READ) != 0;
	int writes = ek_dlq_nr(&ad->q, EK_WRITE) != 0;
	int dir = ad->batch_dir;
	struct ek_rq *rq;
	int done;

	pk->rq = EK_NULL;
	pk->end = AS_END_NONE;
	pk->rq = ek_dlq_special_head(&ad->q);
	if (pk->rq) {
		pk->act = AS_ACT_RQ;
		return;
	}
	if (!quick && ad->state == AS_WAIT) {
		pk->end = as_wait_end(ad, now);
		if (pk->end == AS_END_NONE) {
			pk->act = AS_ACT_WAIT;
			return;
		}
	}
	if (!reads && !writes) {
		pk->act = AS_ACT_NONE;
		return;
	}
	done = !quick && ad->state != AS_OFF;	/* a wait ended since the last dispatch */

	if (!(reads && writes && as_batch_expired(ad, now))) {
		/* the batch goes on */
		if (as_fifo_due(ad, dir, now)) {
			rq = ek_dlq_fifo_head(&ad->q, dir);
			goto out;
		}
		rq = as_next_rq(ad, dir, quick);
		if (!quick && dir == EK_READ && !done &&
		    as_can_anticipate(ad, rq, now)) {
			pk->act = AS_ACT_START;
			return;
		}
		if (rq)
			goto out;
	}
	/* a new batch, from the oldest request of its direction */
	if (reads && !(writes && dir == EK_READ))
		rq = ek_dlq_fifo_head(&ad->q, EK_READ);
	else
		rq = ek_dlq_fifo_head(&ad->q, EK_WRITE);
out:
	if (rq->dir != dir && as_inflight(ad, dir)) {
		pk->act = AS_ACT_DRAIN;
		return;
	}
	pk->rq = rq;
	pk->act = AS_ACT_RQ;
}

static void as_pick(struct as_data *ad, ek_u64 now, struct as_pick *pk)
{
	as_pick_in(ad, now, pk, 0);
}

static int as_has_work_at(struct as_data *ad, ek_u64 now)
{
	struct as_pick pk;

	as_pick(ad, now, &pk);
	return pk.act == AS_ACT_RQ;
}

/*
 * Nothing can wait: anticipation is off (a non-rotational device, or
 * antic_expire 0) and no wait is running or just ended. as_pick() is then
 * a deadline pick whose only "no" besides an empty queue is a drain, and
 * whether a request comes needs no search (as_quick_work). Then only
 * dispatch picks, once per request, where the waiting path picks after
 * every event: on null_blk that was 7% of the IOPS behind mq-deadline.
 * (A hit_rq implies AS_FINISHED: only a wait's end sets it, and the
 * dispatch that leaves AS_FINISHED clears it.)
 */
static int as_quick(struct as_data *ad)
{
	return !as_antic_enabled(ad) && ad->state == AS_OFF;
}

/*
 * as_has_work_at() when as_quick(): as_pick() drains (no request) when
 * it would change direction with the running batch's requests still on
 * the device, and it changes direction when the batch's direction has
 * nothing queued, or when both do and the batch's time is up.
 */
static int as_quick_work(struct as_data *ad, ek_u64 now)
{
	int dir = ad->batch_dir;
	ek_u64 reads = ek_dlq_nr(&ad->q, EK_READ);
	ek_u64 writes = ek_dlq_nr(&ad->q, EK_WRITE);

	if (ek_dlq_special_head(&ad->q))
		return 1;
	if (!reads && !writes)
		return 0;
	if (!as_inflight(ad, dir))
		return 1;
	return ek_dlq_nr(&ad->q, dir) &&
	       !(reads && writes && as_batch_expired(ad, now));
}

/* The earliest time a running wait can end by itself. */
static ek_u64 as_wake_time(struct as_data *ad)
{
	ek_u64 t = as_fifo_due_at(ad, EK_READ);

	if (ad->last_pctx)
		t = ek_min_u64(t, as_antic_deadline(ad, ad->last_pctx));
	if (ek_dlq_nr(&ad->q, EK_WRITE))
		t = ek_min_u64(t, ad->batch_start_ns +
			       ad->batch_expire[ad->batch_dir]);
	return t;
}

static void as_arm(struct as_data *ad)
{
	ek_u64 t = as_wake_time(ad);

	if (t == EK_U64_MAX || t == ad->timer_ns)
		return;
	ad->timer_ns = t;
	ad->host->ops->timer_arm(ad->host, t);
}

static void as_end_wait(struct as_data *ad, int why)
{
	if (ad->state != AS_WAIT)
		return;
	ad->state = AS_FINISHED;
	ad->count[as_end_counter[why]] += 1;
	if (ad->timer_ns) {
		ad->timer_ns = 0;
		ad->host->ops->timer_cancel(ad->host);
		/*
		 * The host's next run was the timer's to give: ask for it.
		 * A wait can end by time before its timer fires (a late timer,
		 * or a completion just after the deadline); a completion that
		 * found work already there (had_work) would not kick, and with
		 * the timer cancelled nothing ran the queue again: 16 readers
		 * stalled until the next insert (ekdisk-hdd, 6.12).
		 */
		ad->host->ops->kick(ad->host);
	}
}

/* T counts if it is still ahead of now. */
static void as_until(ek_u64 *until, ek_u64 now, ek_u64 t)
{
	if (t > now && t < *until)
		*until = t;
}

/*
 * The first time after now at which as_pick() can find otherwise with the
 * state as it is: the time comparisons it makes (as_wait_end,
 * as_batch_expired, as_fifo_expired, as_break's window; as_close_req
 * reads the time only during a wait, and as_pick() asks it only when no
 * wait ran).
 */
static ek_u64 as_pick_stable_until(struct as_data *ad, ek_u64 now)
{
	ek_u64 until = EK_U64_MAX;
	int dir;

	if (ad->last_pctx)
		as_until(&until, now, as_antic_deadline(ad, ad->last_pctx));
	for (dir = EK_READ; dir <= EK_WRITE; dir++)
		as_until(&until, now, as_fifo_due_at(ad, dir));
	as_until(&until, now, ad->batch_start_ns + ad->batch_expire[ad->batch_dir]);
	return until;
}

/*
 * What as_settle() would return at now is the memo, without a pick. An
 * unlocked completion cannot clear memo_ok safely (a settle under the lock
 * may be writing it), so the memo also holds only while no completion has
 * come since: one can end a drain.
 */
static int as_memo_holds(struct as_data *ad, ek_u64 now)
{
	return ad->memo_ok && now >= ad->memo_now && now < ad->memo_until &&
	       ad->memo_inflight == as_inflight_sum(ad);
}

/*
 * Commit what as_pick() finds now: a wait ends, starts or goes on. Returns
 * the request a dispatch now would take, or NULL: what as_pick() gives
 * after the commit, without a second pick. (Ending a wait leaves the pick
 * as it was: the pick that found the end already went on as after a wait.
 * Starting one turns "start" into "wait": no request either way.) The
 * pick is most of this policy's cost per request; it ran twice here.
 */
static struct ek_rq *as_settle(struct as_data *ad, ek_u64 now)
{
	struct as_pick pk;

	ad->memo_inflight = as_inflight_sum(ad);	/* before the pick reads */
	as_pick(ad, now, &pk);
	if (pk.end != AS_END_NONE)
		as_end_wait(ad, pk.end);
	if (pk.act == AS_ACT_START) {
		ad->state = AS_WAIT;
		ad->count[AS_C_STARTED] += 1;
	}
	if (pk.act == AS_ACT_START || pk.act == AS_ACT_WAIT)
		as_arm(ad);
	ad->memo_ok = 1;
	ad->memo_now = now;
	ad->memo_until = as_pick_stable_until(ad, now);
	ad->memo_rq = pk.act == AS_ACT_RQ ? pk.rq : EK_NULL;
	return ad->memo_rq;
}

/* as_settle(), answered from the memo while it holds. */
static struct ek_rq *as_settled(struct as_data *ad, ek_u64 now)
{
	return as_memo_holds(ad, now) ? ad->memo_rq : as_settle(ad, now);
}

/*
 * Every entry point that can change what as_pick() finds starts here. It
 * also withdraws the claim that has_work is "holds a request"
 * (as_publish): only an insert makes it.
 */
static struct as_data *as_enter(void *sd)
{
	struct as_data *ad = sd;

	ad->memo_ok = 0;
	ad->host->never_idles = 0;
	return ad;
}

/*
 * At the end of an insert while as_quick() holds, tell the host whether
 * has_work is "holds a request" until the next callback
 * (host.never_idles), so that it need not ask. Without anticipation a
 * pick says "no" with requests queued only in a drain, and a drain needs
 * requests queued against the batch's direction and none of its own. A completion without the lock
 * can only end one; a dispatch keeps the claim (it takes a request of
 * the batch's direction, or a special one, and no wait can start), and
 * other callbacks withdraw it (as_enter).
 */
static void as_publish(struct as_data *ad)
{
	int other = ad->batch_dir == EK_READ ? EK_WRITE : EK_READ;

	ad->host->never_idles = !ek_dlq_nr(&ad->q, other);
}

static int as_init(void *sd, struct ek_host *host, const ek_s64 *values)
{
	struct as_data *ad = sd;

	ad->host = host;
	as_enter(ad);
	ek_dlq_init(&ad->q);
	ad->batch_dir = EK_READ;
	ad->state = AS_OFF;
	ad->fifo_expire[EK_READ] = values[AS_T_READ_EXPIRE] * EK_NSEC_PER_MSEC;
	ad->fifo_expire[EK_WRITE] = values[AS_T_WRITE_EXPIRE] * EK_NSEC_PER_MSEC;
	ad->batch_expire[EK_READ] =
		values[AS_T_READ_BATCH_EXPIRE] * EK_NSEC_PER_MSEC;
	ad->batch_expire[EK_WRITE] =
		values[AS_T_WRITE_BATCH_EXPIRE] * EK_NSEC_PER_MSEC;
	ad->antic_expire = values[AS_T_ANTIC_EXPIRE] * EK_NSEC_PER_MSEC;
	ad->antic_nonrot = values[AS_T_ANTIC_NONROT] != 0;
	as_update_antic_on(ad);
	ad->async_depth = (ek_u64)values[AS_T_ASYNC_DEPTH];
	return 0;
}

static void as_set_tunable(void *sd, ek_u32 idx, ek_s64 value)
{
	struct as_data *ad = as_enter(sd);
	ek_u64 ns = (ek_u64)value * EK_NSEC_PER_MSEC;

	switch (idx) {
	case AS_T_ANTIC_EXPIRE:
		ad->antic_expire = ns;
		break;
	case AS_T_READ_EXPIRE:
		ad->fifo_expire[EK_READ] = ns;
		break;
	case AS_T_WRITE_EXPIRE:
		ad->fifo_expire[EK_WRITE] = ns;
		break;
	case AS_T_READ_BATCH_EXPIRE:
		ad->batch_expire[EK_READ] = ns;
		break;
	case AS_T_WRITE_BATCH_EXPIRE:
		ad->batch_expire[EK_WRITE] = ns;
		break;
	case AS_T_ANTIC_NONROT:
		ad->antic_nonrot = value != 0;
		break;
	case AS_T_ASYNC_DEPTH:
		ad->async_depth = (ek_u64)value;
		return;		/* no decision depends on it */
	default:
		return;
	}
	as_update_antic_on(ad);
	/*
	 * No clock here: end a wait that is now off or re-aim its timer, and
	 * have the host look again (has_work settles the new state).
	 */
	if (ad->state == AS_WAIT) {
		if (!as_antic_enabled(ad))
			as_end_wait(ad, AS_END_ABORT);
		else
			as_arm(ad);
	}
	ad->host->ops->kick(ad->host);
}

static ek_u64 as_read_counter(void *sd, ek_u32 idx)
{
	struct as_data *ad = sd;

	return idx < AS_NR_COUNTERS ? ad->count[idx] : 0;
}

/* Think time and seek distance of a process issuing synchronous read rq. */
static void as_update_pstat(struct ek_pctx *p, struct ek_rq *rq, ek_u64 now)
{
	struct as_pstat *ps = as_ps(p);
	ek_u64 ttime = 0;

	if (ps->flags & AS_PS_STARTED) {
		/* with reads still outstanding it does not think: 0 */
		if ((ps->flags & AS_PS_HAS_END) && !ps->nr_queued &&
		    !ps->nr_inflight && now > ps->last_end_ns)
			ttime = (now - ps->last_end_ns) >> AS_NS_SHIFT;
		as_decay(&ps->ttime_samples, &ps->ttime_total, &ps->ttime_mean,
			 as_cap(ttime));
		as_decay(&ps->seek_samples, &ps->seek_total, &ps->seek_mean,
			 as_cap(as_dist(rq->sector, ps->last_pos)));
	}
	ps->last_pos = ek_rq_end(rq);
	ps->flags |= AS_PS_STARTED;
}

/* End the running wait if rq, just queued or grown, is reason to. */
static void as_break_on(struct as_data *ad, struct ek_rq *rq, ek_u64 now)
{
	int why = as_break(ad, ad->last_pctx, rq, now);

	if (why == AS_END_NONE)
		return;
	as_end_wait(ad, why);
	if (why == AS_END_HIT && ek_dlq_is_sorted(rq))
		ad->hit_rq = rq;
	ad->host->ops->kick(ad->host);
}

/*
 * insert, dispatch and completed_unlocked are inline where a host calls
 * them directly, as the kernel module's per-request operations do
 * (shim_hot.h); through the policy's table they are functions.
 */
static ek_always_inline void as_insert(void *sd, struct ek_rq *rq, ek_u64 now)
{
	struct as_data *ad = as_enter(sd);
	int requeued = rq->requeued;

	if (rq->pctx && rq->dir == EK_READ) {
		/* the statistics serve anticipation only */
		if (rq->sync && !requeued && as_antic_enabled(ad))
			as_update_pstat(rq->pctx, rq, now);
		as_ps(rq->pctx)->nr_queued += 1;
	}

	if (rq->kind != EK_KIND_NORMAL || rq->at_head || requeued)
		ek_dlq_add_special(&ad->q, rq, requeued);
	else
		ek_dlq_add(&ad->q, rq,
			   ek_dlq_deadline(now, ad->fifo_expire[rq->dir]));

	if (as_quick(ad)) {
		as_publish(ad);
		return;		/* has_work and dispatch need nothing more */
	}
	if (ad->state == AS_WAIT)
		as_break_on(ad, rq, now);
	/* a wait may start (P idle, rq far) or need an earlier timer */
	as_settle(ad, now);
}

/* Take a normal request out of the queues and account it as dispatched. */
static ek_always_inline void as_move_to_dispatch(struct as_data *ad,
						 struct ek_rq *rq, ek_u64 now)
{
	int dir = rq->dir;

	if (dir != ad->batch_dir ||
	    (now >= rq->deadline_ns && rq == ek_dlq_fifo_head(&ad->q, dir)))
		ad->fifo_ns[dir] = now;		/* as_fifo_due_at */
	ek_dlq_del(&ad->q, rq);
	ad->hit_rq = EK_NULL;

	if (dir != ad->batch_dir || !ek_dlq_nr(&ad->q, !dir)) {
		/* a new batch, or nobody waits: the batch clock starts now */
		ad->batch_dir = dir;
		ad->batch_start_ns = now;
	}
	ad->last_sector[dir] = ek_rq_end(rq);
	if (dir == EK_READ)
		ad->last_read_start = rq->sector;
	if (dir == EK_READ && rq->sync && rq->pctx && !as_exited(rq->pctx))
		ad->last_pctx = rq->pctx;
	else
		ad->last_pctx = EK_NULL;
	if (ad->state == AS_FINISHED)
		ad->state = AS_OFF;
}

/* rq leaves the queues for the device. */
static ek_always_inline void as_take(struct as_data *ad, struct ek_rq *rq,
				     ek_u64 now)
{
	if (ek_dlq_is_special(rq))
		ek_dlq_del(&ad->q, rq);
	else
		as_move_to_dispatch(ad, rq, now);

	if (rq->pctx && rq->dir == EK_READ) {
		as_ps(rq->pctx)->nr_queued -= 1;
		as_ps(rq->pctx)->nr_inflight += 1;
	}
	ek_atomic_inc(&ad->nr_inflight[rq->dir]);
	ad->count[rq->dir == EK_READ ? AS_C_READS : AS_C_WRITES] += 1;
}

/*
 * Dispatch where a wait can run or start: from the memo, and settled
 * again after the dispatch (a wait for this read may start already). Out
 * of line, so that the quick path saves none of its registers.
 */
static ek_noinline struct ek_rq *as_dispatch_waiting(struct as_data *ad,
						      ek_u64 now)
{
	struct ek_rq *rq = as_settled(ad, now);

	ad->memo_ok = 0;
	if (!rq)
		return EK_NULL;
	as_take(ad, rq, now);
	as_settle(ad, now);
	return rq;
}

static ek_always_inline struct ek_rq *as_dispatch(void *sd, ek_u64 now)
{
	struct as_data *ad = sd;
	struct as_pick pk;

	if (!as_quick(ad))
		return as_dispatch_waiting(ad, now);
	as_pick_in(ad, now, &pk, 1);
	ad->memo_ok = 0;	/* as_enter, but the claim stays (as_publish) */
	if (pk.act != AS_ACT_RQ)
		return EK_NULL;
	as_take(ad, pk.rq, now);
	return pk.rq;
}

/* Also commits the state, so that a wait due now starts with its timer. */
static int as_has_work(void *sd, ek_u64 now)
{
	struct as_data *ad = sd;

	if (as_quick(ad))
		return as_quick_work(ad, now);
	return as_settled(ad, now) != EK_NULL;
}

/* Contexts serve anticipation only (as_quick() has no use for them). */
static int as_pctx_wanted(void *sd)
{
	return as_antic_enabled(sd);
}

/* nr_requests changed: as_queue_full() may now say otherwise. */
static void as_depth_updated(void *sd)
{
	struct as_data *ad = as_enter(sd);

	ad->host->ops->kick(ad->host);
}

/* A dispatched request leaves the device (completed or requeued). */
static void as_undispatch(struct as_data *ad, struct ek_rq *rq)
{
	ek_atomic_dec_floor(&ad->nr_inflight[rq->dir]);
	if (rq->pctx && rq->dir == EK_READ && as_ps(rq->pctx)->nr_inflight)
		as_ps(rq->pctx)->nr_inflight -= 1;
}

/* rq completed: take it off the device, and start its owner's think time. */
static void as_complete(struct as_data *ad, struct ek_rq *rq, ek_u64 now)
{
	as_undispatch(ad, rq);
	if (rq->pctx && rq->dir == EK_READ && rq->sync) {
		struct as_pstat *ps = as_ps(rq->pctx);

		ps->last_end_ns = now;
		ps->flags |= AS_PS_HAS_END;
	}
}

static void as_completed(void *sd, struct ek_rq *rq, ek_u64 now)
{
	struct as_data *ad = sd;
	int had_work;

	if (as_quick(ad)) {
		/* only a drain can end, and nothing can start a wait */
		had_work = as_quick_work(ad, now);
		as_enter(ad);
		as_complete(ad, rq, now);
		if (!had_work && as_quick_work(ad, now))
			ad->host->ops->kick(ad->host);
		return;
	}
	had_work = as_memo_holds(ad, now) ? ad->memo_rq != EK_NULL :
		   as_has_work_at(ad, now);
	as_enter(ad);
	as_complete(ad, rq, now);
	/* a wait's window starts now, or a drained batch switch may go */
	if (as_settle(ad, now) && !had_work)
		ad->host->ops->kick(ad->host);
}

/*
 * With anticipation off, a completion has only the in-flight count to
 * lower, and it can do so without the host's lock (as mq-deadline's
 * finish_request needs none): its settle could not start a wait, ends
 * none (a wait ends when anticipation goes off), and a drain it ends is
 * the host's to see (policy.h). A request that carries a process context
 * was prepared with anticipation on: its owner's think time starts here,
 * which needs the lock. Anticipation turning on meanwhile can only miss
 * the settle of this one completion: the next event settles.
 */
static ek_always_inline int as_completed_unlocked(void *sd, struct ek_rq *rq,
						 ek_u64 stamp)
{
	struct as_data *ad = sd;

	(void)stamp;
	if (rq->pctx || as_antic_enabled(ad))
		return 0;
	ek_atomic_dec_floor(&ad->nr_inflight[rq->dir]);
	return 1;
}

static void as_requeue(void *sd, struct ek_rq *rq, ek_u64 now)
{
	struct as_data *ad = as_enter(sd);

	(void)now;
	as_undispatch(ad, rq);
	if (ad->state == AS_WAIT && rq->pctx == ad->last_pctx)
		as_end_wait(ad, AS_END_ABORT);
}

static ek_u32 as_limit_depth(void *sd, ek_u8 dir, ek_u8 sync)
{
	struct as_data *ad = sd;

	return ek_async_limit(ad->async_depth, ad->host->dev.nr_requests, dir,
			      sync);
}

static struct ek_rq *as_front_merge_candidate(void *sd, ek_u8 dir, ek_u64 end)
{
	struct as_data *ad = sd;

	return ek_dlq_front_merge_candidate(&ad->q, dir, end);
}

static void as_merged(void *sd, struct ek_rq *rq, ek_u64 old_sector)
{
	struct as_data *ad = as_enter(sd);

	(void)old_sector;
	ek_dlq_resort(&ad->q, rq);
	/*
	 * A bio that joined a queued read may be the awaited process's next
	 * read (two processes reading alternate blocks: its block is the one
	 * before the other's queued read), which no insert will announce.
	 */
	if (ad->state == AS_WAIT && rq->dir == EK_READ && rq->sync)
		as_break_on(ad, rq, ad->host->ops->now(ad->host));
}

static void as_merged_requests(void *sd, struct ek_rq *rq, struct ek_rq *next)
{
	struct as_data *ad = as_enter(sd);

	ek_dlq_merge(&ad->q, rq, next);
	if (next->pctx && next->dir == EK_READ)
		as_ps(next->pctx)->nr_queued -= 1;
	if (ad->hit_rq == next)
		ad->hit_rq = ek_dlq_is_sorted(rq) ? rq : EK_NULL;
}

static void as_pctx_init(void *sd, struct ek_pctx *pctx)
{
	struct as_pstat *ps = as_ps(pctx);

	(void)sd;
	ps->flags = 0;
	ps->nr_queued = 0;
	ps->nr_inflight = 0;
	ps->ttime_samples = 0;
	ps->ttime_total = 0;
	ps->ttime_mean = 0;
	ps->seek_samples = 0;
	ps->seek_total = 0;
	ps->seek_mean = 0;
	ps->last_pos = 0;
	ps->last_end_ns = 0;
}

static void as_pctx_exit(void *sd, struct ek_pctx *pctx)
{
	struct as_data *ad = as_enter(sd);

	if (ad->last_pctx != pctx)
		return;
	if (ad->state == AS_WAIT) {
		as_end_wait(ad, AS_END_ABORT);
		ad->host->ops->kick(ad->host);
	}
	ad->last_pctx = EK_NULL;	/* it may be freed once its requests are */
}

const struct ek_policy ek_anticipatory_policy = {
	.name = "anticipatory",
	.description = "deadline batches plus waiting for a reader's next nearby read",
	.sched_size = sizeof(struct as_data),
	.pctx_size = sizeof(struct as_pstat),
	.tunables = as_tunables,
	.nr_tunables = AS_NR_TUNABLES,
	.counters = as_counters,
	.nr_counters = AS_NR_COUNTERS,
	.init = as_init,
	.set_tunable = as_set_tunable,
	.read_counter = as_read_counter,
	.insert = as_insert,
	.dispatch = as_dispatch,
	.has_work = as_has_work,
	.completed = as_completed,
	.completed_unlocked = as_completed_unlocked,
	.requeue = as_requeue,
	.front_merge_candidate = as_front_merge_candidate,
	.merged = as_merged,
	.merged_requests = as_merged_requests,
	.pctx_init = as_pctx_init,
	.pctx_exit = as_pctx_exit,
	.limit_depth = as_limit_depth,
	.depth_updated = as_depth_updated,
	.pctx_wanted = as_pctx_wanted,
};
