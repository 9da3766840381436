/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elvkit's host-independent scheduling-policy API.
 *
 * A policy is plain C: it includes no kernel and no libc header, keeps no
 * global state, reads no clock and allocates nothing after init. The same
 * source files are compiled into a kernel module (host = the elvkit shim,
 * src/shim/) and into userspace (host = the test host and the simulator,
 * src/sim/). Everything a policy needs from the world comes through here:
 *
 *  - requests arrive as struct ek_rq descriptors, owned and allocated by the
 *    host; the policy links them into its own queues through the policy
 *    fields of the descriptor;
 *  - time is always passed in ("now", nanoseconds, monotonic: never less
 *    than in an earlier call on the same queue);
 *  - to wait (idling, anticipation) the policy asks the host to run dispatch
 *    again at a given time (host->ops->timer_arm) and reports has_work false
 *    meanwhile, so the host never spins;
 *  - device facts (rotational, queue depth) are read from host->dev;
 *  - per-process state lives in a struct ek_pctx whose lifetime the host
 *    manages: the host calls pctx_init when it first sees a process on this
 *    queue and, once the process is gone, sets EK_PCTX_EXITED and then
 *    calls pctx_exit (once). Requests hold the context alive: rq->pctx
 *    stays valid until the request is completed or merged.
 *
 * Every host registers a policy through ek_policy_load() (contract.h,
 * src/lib/), which checks the rules below once and fills in the optional
 * callbacks. Required: init, insert, dispatch, has_work, merged_requests;
 * set_tunable if there are tunables, read_counter if there are counters.
 * Optional (NULL: nothing to do): exit, completed, completed_unlocked
 * (NULL: never), requeue, front_merge_candidate (NULL: no front merges),
 * merged, pctx_init, pctx_exit, limit_depth (NULL: no limit),
 * depth_updated. A policy leaves out what it would write empty.
 *
 * Locking: the host serialises every call into one policy instance, except
 * limit_depth and completed_unlocked (see each).
 *
 * Request life cycle, each step called exactly once per request unless said
 * ("completed" is completed_unlocked when that returns non-zero):
 *   insert -> [merged_requests (as the absorbed "next")] -> end
 *   insert -> dispatch -> [requeue -> insert -> dispatch]* -> completed
 * A request handed out by dispatch is no longer in any policy queue. A
 * request the device sends back for the policy to queue again is reported
 * (requeue) when it leaves the device, and comes back to the policy
 * later (insert, with rq->requeued set): in between, it is neither on the
 * device nor in a queue (the kernel re-inserts from its requeue list's
 * work, after a delay the driver may choose; the simulator at once). One
 * the host sends to the device again by itself (the kernel does so for
 * requests its driver already prepared, RQF_DONTPREP) is not reported,
 * and stays dispatched until completed.
 */
#ifndef ELVKIT_POLICY_H
#define ELVKIT_POLICY_H

#include "types.h"
#include "list.h"
#include "rbtree.h"

enum ek_dir {
	EK_READ = 0,
	EK_WRITE = 1,
};

/* What kind of request; non-normal kinds must not be reordered or merged. */
enum ek_kind {
	EK_KIND_NORMAL = 0,
	EK_KIND_FLUSH = 1,	/* cache flush / FUA without data to sort */
	EK_KIND_PASSTHROUGH = 2, /* driver-private command (SG_IO, ioctl) */
};

/* I/O priority classes, numbered as the kernel's IOPRIO_CLASS_*. */
enum ek_prio_class {
	EK_PRIO_NONE = 0,
	EK_PRIO_RT = 1,
	EK_PRIO_BE = 2,
	EK_PRIO_IDLE = 3,
};

/* Per-process context. The policy's own data follows it (pctx_size). */
struct ek_pctx {
	ek_u32 owner;		/* process identity (tgid in the kernel) */
	ek_u32 flags;		/* EK_PCTX_* */
};

#define EK_PCTX_EXITED 0x1u	/* gone: set just before pctx_exit */

/* The policy's private area of a per-process context. */
static inline void *ek_pctx_priv(struct ek_pctx *p)
{
	return (void *)(p + 1);
}

/*
 * A request descriptor. The host fills the "request" fields before insert
 * and keeps sector/nr_sectors current across merges; the "policy" fields
 * belong to the policy between insert and dispatch (or merge). They hold
 * anything until the policy's insert writes them: the kernel shim does not
 * clear them per request, and the userspace hosts fill them with garbage
 * (ek_rq_poison_policy) so that a policy that reads them first fails there.
 */
struct ek_rq {
	/* request, set by the host */
	ek_u64 sector;		/* start, in 512-byte sectors */
	ek_u32 nr_sectors;	/* length, in 512-byte sectors */
	ek_u8 dir;		/* enum ek_dir */
	ek_u8 sync;		/* synchronous (someone waits for it) */
	ek_u8 kind;		/* enum ek_kind */
	ek_u8 at_head;		/* host asks for it to go before all others */
	ek_u8 prio_class;	/* enum ek_prio_class */
	ek_u8 prio_level;	/* 0 (highest) .. 7 */
	ek_u8 requeued;		/* this insert follows a requeue (see above) */
	ek_u16 host_flags;	/* the host's, never read by a policy */
	ek_u32 owner;		/* process identity */
	struct ek_pctx *pctx;	/* per-process context, or NULL */
	ek_u64 arrival_ns;	/* when it was first inserted */
	ek_u64 dispatch_ns;	/* set by the host when dispatched */
	void *host_rq;		/* the host's request, opaque to policies */

	/* policy-owned linkage and state */
	struct ek_rb_node sort;	/* e.g. sector-sorted queue */
	struct ek_list fifo;	/* e.g. arrival-ordered queue */
	ek_u64 deadline_ns;
	ek_u64 policy_data[2];
};

static inline ek_u64 ek_rq_end(const struct ek_rq *rq)
{
	return rq->sector + rq->nr_sectors;
}

/* Facts about the device, filled in by the host before init. */
struct ek_device {
	ek_u8 rotational;
	ek_u32 queue_depth;	/* requests the device takes at once */
	ek_u32 nr_requests;	/* requests the scheduler may hold */
};

struct ek_host;

struct ek_host_ops {
	/*
	 * Run dispatch again at (or soon after) when_ns. Replaces any armed
	 * time. The host then re-evaluates has_work; it never calls dispatch
	 * in a loop while has_work is false.
	 */
	void (*timer_arm)(struct ek_host *host, ek_u64 when_ns);
	void (*timer_cancel)(struct ek_host *host);
	/* Ask the host to run dispatch soon (e.g. an awaited request came). */
	void (*kick)(struct ek_host *host);
	/*
	 * The time now, on the clock of the times the host passes, and not
	 * before the latest it passed. For completed_unlocked when it is
	 * handed no time (most calls need none, and a clock read is a tenth
	 * of a request's cost in the kernel): callable without serialisation.
	 */
	ek_u64 (*now)(struct ek_host *host);
};

struct ek_host {
	const struct ek_host_ops *ops;
	struct ek_device dev;
	void *host_data;	/* the host's, never read by a policy */
	/*
	 * The policy's, written in its callbacks: 1 while a clock tick's
	 * resolution is enough for the times it is handed, as
	 * EK_POLICY_TICK_TIME says for good. It must be 0 whenever the
	 * policy arms its timer (the hosts check). The kernel shim then
	 * passes the latest tick instead of reading the clocksource, on the
	 * clock's own base within a tick; the simulator exact times anyway.
	 */
	ek_u8 tick_time;
	/*
	 * The policy's, like tick_time: 1 while has_work is true exactly
	 * when it holds a request, as EK_POLICY_NEVER_IDLES says for good.
	 * The claim must hold until the policy's next callback, whatever
	 * the time then and whatever completed_unlocked did meanwhile. A
	 * host may then skip asking has_work (the kernel shim does, after
	 * each call); the hosts that ask anyway fail a policy that breaks it.
	 */
	ek_u8 never_idles;
};

/*
 * A tunable: an integer with a unit and an inclusive range. The host
 * rejects anything out of range (in the kernel: -EINVAL, old value kept)
 * before calling set_tunable.
 */
struct ek_tunable {
	const char *name;	/* sysfs file name */
	const char *unit;	/* "ms", "us", "requests", "bool", ... */
	const char *help;	/* one line, for docs and `show` */
	ek_s64 def, min, max;
	ek_u32 flags;		/* none defined: 0 */
};

/*
 * No tunable may carry this any more: statistics are counters, in their
 * own table. It stays only while src/sim/cli.c still tests for it.
 */
#define EK_TUN_RO 0x1u

/*
 * A counter: a read-only statistic, a file of its own next to the
 * tunables (after them, in table order). The host reads it with
 * read_counter and never stores to it.
 */
struct ek_counter {
	const char *name;	/* sysfs file name */
	const char *unit;	/* "requests", "batches", ... */
	const char *help;	/* one line, for docs */
};

#define EK_MAX_TUNABLES 16
#define EK_MAX_COUNTERS 16
#define EK_POLICY_NAME_MAX 15

struct ek_policy {
	const char *name;		/* scheduler name, <= 15 chars */
	const char *description;
	ek_size_t sched_size;		/* per-queue data the host allocates */
	ek_size_t pctx_size;		/* policy bytes after struct ek_pctx; 0 = none */
	const struct ek_tunable *tunables;
	ek_u32 nr_tunables;
	const struct ek_counter *counters;
	ek_u32 nr_counters;

	/*
	 * sd: zeroed memory of sched_size bytes. values: one per tunable,
	 * already in range. Returns 0 or a negative errno-style number.
	 */
	int (*init)(void *sd, struct ek_host *host, const ek_s64 *values);
	/* Only called with every request dispatched or merged. Optional. */
	void (*exit)(void *sd);
	/* idx into tunables[], value in range. */
	void (*set_tunable)(void *sd, ek_u32 idx, ek_s64 value);
	/* idx into counters[]. */
	ek_u64 (*read_counter)(void *sd, ek_u32 idx);

	void (*insert)(void *sd, struct ek_rq *rq, ek_u64 now);
	/* The next request for the device, or NULL (then arm a timer if waiting). */
	struct ek_rq *(*dispatch)(void *sd, ek_u64 now);
	/* True iff dispatch(now) would return a request. */
	int (*has_work)(void *sd, ek_u64 now);
	/* A dispatched request finished (now = completion time). Optional. */
	void (*completed)(void *sd, struct ek_rq *rq, ek_u64 now);
	/*
	 * Optional (NULL: never): finish rq without the host's serialisation,
	 * where the policy's state allows. A host may call it, concurrently
	 * with every other callback and with itself, before completed; it
	 * returns 0 when it did nothing (the host then serialises and calls
	 * completed as usual), else rq is completed and completed is not
	 * called. The policy may then only have changed words it accesses
	 * atomically everywhere (atomic.h), and has_work may have turned true:
	 * the host, after a full barrier, settles under its lock if it last
	 * saw has_work false with requests held; and when a serialised
	 * has_work says false with requests held, it asks again after a full
	 * barrier. (mq-deadline's finish_request takes no lock either.)
	 * stamp is the completion time where the host has one at hand (the
	 * kernel's block layer stamps every completion of a scheduler's
	 * request), else 0: then, where needed, host->ops->now's. A stamp
	 * may be before times passed to calls meanwhile.
	 * Only with completed: a host skips completions of a policy without.
	 */
	int (*completed_unlocked)(void *sd, struct ek_rq *rq, ek_u64 stamp);
	/*
	 * A dispatched request came back unserved. insert follows later, when
	 * the kernel's requeue list runs (other calls may come between); a
	 * request the driver prepared (RQF_DONTPREP) goes to the device again
	 * past the policy, which hears of neither. Optional.
	 */
	void (*requeue)(void *sd, struct ek_rq *rq, ek_u64 now);

	/*
	 * Merging. front_merge_candidate returns a queued request of this
	 * direction that starts exactly at `end` (so a bio ending there can be
	 * prepended), or NULL. Optional: NULL means no front merges. Back
	 * merges are found by the host itself.
	 */
	struct ek_rq *(*front_merge_candidate)(void *sd, ek_u8 dir, ek_u64 end);
	/* rq grew; its sector may have changed from old_sector. Optional. */
	void (*merged)(void *sd, struct ek_rq *rq, ek_u64 old_sector);
	/*
	 * next was absorbed into rq and is gone from now on: unlink it.
	 * rq == next when the host knows next is gone but not what took it
	 * (the kernel merged it without saying so): just unlink it.
	 */
	void (*merged_requests)(void *sd, struct ek_rq *rq, struct ek_rq *next);

	/*
	 * Per-process context life; both optional. pctx_exit comes once,
	 * with EK_PCTX_EXITED already set in pctx->flags.
	 */
	void (*pctx_init)(void *sd, struct ek_pctx *pctx);
	void (*pctx_exit)(void *sd, struct ek_pctx *pctx);

	/*
	 * Optional: limit the depth of some requests in the host's shared
	 * pool of host->dev.nr_requests requests (the kernel's elevator
	 * limit_depth, e.g. mq-deadline's async_depth, kyber's async share).
	 * Called before the host allocates a request for a bio of direction
	 * dir (sync: someone waits for it). Return 0 for no limit, else n: the
	 * request is allocated only while fewer than n requests that were
	 * allocated under a limit are outstanding; otherwise the submitter
	 * waits, and a request kept back this way never blocks an unlimited
	 * one. The kernel shim turns n into blk-mq's shallow depth (per
	 * sbitmap word where the kernel counts it so, as 6.1 does). The one
	 * callback a host may make without serialising (the kernel calls it
	 * for every request allocation, as mq-deadline reads its async_depth
	 * without a lock): it must only read. A synchronous read is never
	 * limited, and hosts do not ask for one (ek_limit_applies).
	 */
	ek_u32 (*limit_depth)(void *sd, ek_u8 dir, ek_u8 sync);
	/*
	 * Optional: host->dev.nr_requests changed (the kernel's
	 * queue/nr_requests was written). Called with nothing queued.
	 */
	void (*depth_updated)(void *sd);
	/*
	 * Optional (NULL: always): whether a request allocated now should
	 * carry its process's context, for a policy with pctx_size that
	 * needs contexts only in some modes (anticipatory when it cannot
	 * wait). Finding the context costs the kernel a lookup under the
	 * queue lock and a reference per request. A request without one is
	 * served as a context-less one. Like limit_depth, called without
	 * serialising: it must only read.
	 */
	int (*pctx_wanted)(void *sd);

	ek_u32 flags;			/* EK_POLICY_* */
};

/*
 * The host turns writeback throttling (the kernel's blk-wbt) off on queues
 * this policy runs, as bfq does with wbt_disable_default(): for policies
 * that control write depth themselves. The simulator does; the kernel
 * shim does not yet (no policy sets it; see the README's policy API).
 */
#define EK_POLICY_NO_WBT 0x1u
/*
 * has_work is true exactly when the policy holds a request: it never
 * waits. A host that counts what it inserted need not ask (the kernel
 * shim asks has_work after every call, to answer blk-mq without the lock);
 * the simulator asks anyway and holds the policy to it. A policy that
 * never waits only for a while says so in host->never_idles.
 */
#define EK_POLICY_NEVER_IDLES 0x2u
/*
 * A clock tick's resolution is enough for this policy's times (deadlines
 * of milliseconds, as mq-deadline keeps in jiffies): a host may pass the
 * time of the latest tick instead of reading the clock (times still only
 * grow). Only with EK_POLICY_NEVER_IDLES: such a policy never waits, so
 * it arms no timer, whose time a tick's error would move. A policy that
 * can do with ticks only for a while says so in host->tick_time (which
 * the kernel shim starts at 1 for this flag). The kernel shim passes
 * jiffies; the simulator exact times.
 */
#define EK_POLICY_TICK_TIME 0x4u
/*
 * The policy stands for blk-mq without an elevator (the kernel's "none",
 * which the simulator's noop meets in comparisons): a request is a driver
 * tag, so by default the host gives it as many requests as the device
 * has queue slots (elevator_disable() sets q->nr_requests =
 * tag_set->queue_depth), where a scheduler gets 2 x min(queue depth,
 * 128). Only the simulator has such a policy.
 */
#define EK_POLICY_AS_NONE 0x8u

/*
 * Bios and requests join only requests the policy queues together: of the
 * same sync-ness and, when synchronous, of the same process context (a
 * process's I/O is neither charged to another nor served in its slot).
 * bfq's and cfq's allow_merge refuse the same. Every host checks it with
 * ek_merge_same_queue(): the kernel shim in allow_merge and in the
 * requests it offers for joining, the simulator in every merge. The
 * kernel's own rules (direction, I/O priority, size) apply to every
 * policy, flag or not.
 */
#define EK_POLICY_SAME_QUEUE_MERGES 0x10u
/*
 * The policy's completions need their time, all or most of them
 * (fair-queue: a synchronous request's end starts its queue's think time
 * and idle window). The kernel shim then takes blk-mq's stamp of each
 * completion through the elevator's completed_request, a call more per
 * request, instead of reading the clock; without the flag a completion
 * that needs a time asks the host's now op.
 */
#define EK_POLICY_COMPLETION_TIME 0x20u

/* The policy fields of a new descriptor, as a userspace host leaves them. */
static inline void ek_rq_poison_policy(struct ek_rq *rq)
{
	unsigned char *p = (unsigned char *)&rq->sort;
	unsigned char *end = (unsigned char *)(rq + 1);

	while (p < end)
		*p++ = 0xa5;
}

/*
 * Whether limit_depth is asked for a request: not for a synchronous read,
 * which someone waits for now. mq-deadline, kyber and bfq all leave those
 * unlimited, and asking per read cost a call on every read's allocation.
 */
static inline int ek_limit_applies(ek_u8 dir, ek_u8 sync)
{
	return dir != EK_READ || !sync;
}

/* Whether has_work now is "holds a request" (EK_POLICY_NEVER_IDLES, never_idles). */
static inline int ek_policy_never_idles(const struct ek_policy *p,
					const struct ek_host *host)
{
	return (p->flags & EK_POLICY_NEVER_IDLES) || host->never_idles;
}

/*
 * Whether a bio or request (sync, of process context ctx) may join queued
 * request rq as far as the policy says (EK_POLICY_SAME_QUEUE_MERGES). ctx
 * is the host's identity of a process context (the kernel's io_context,
 * the simulator's thread), as rq_ctx is rq's.
 */
static inline int ek_merge_same_queue(const struct ek_policy *p,
				      const struct ek_rq *rq, const void *rq_ctx,
				      ek_u8 sync, const void *ctx)
{
	if (!(p->flags & EK_POLICY_SAME_QUEUE_MERGES))
		return 1;
	return rq->sync == sync && (!sync || rq_ctx == ctx);
}

/* Whether a request allocated now gets its process's context (pctx_wanted). */
static inline int ek_policy_wants_pctx(const struct ek_policy *p, void *sd)
{
	return p->pctx_size && (!p->pctx_wanted || p->pctx_wanted(sd));
}

#endif
