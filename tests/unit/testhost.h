/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake userspace host for policy unit tests: a virtual clock, a pool of
 * request descriptors, host ops that record timer use, and an invariant
 * checker that runs on every call:
 *  - dispatch returns only requests that are queued (so each inserted
 *    request leaves exactly once, by dispatch or by being merged away);
 *  - has_work(now) agrees with what dispatch(now) returns;
 *  - at th_finish: nothing is left, has_work is false, dispatch is NULL.
 * Any violation prints "FAIL: ..." with the caller's file:line and exits 1.
 */
#ifndef ELVKIT_TESTHOST_H
#define ELVKIT_TESTHOST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "elvkit/contract.h"
#include "elvkit/policy_list.h"
/* ek_rand(), ek_rand_below(): tests are reproducible by seed. */
#include "elvkit/rand.h"

enum th_state {
	TH_FREE,		/* never inserted */
	TH_QUEUED,		/* owned by the policy */
	TH_DISPATCHED,
	TH_COMPLETED,
	TH_MERGED,		/* absorbed by another request */
};

struct th_rq {
	struct ek_rq rq;
	enum th_state state;
	unsigned int id;
	unsigned int dispatches;	/* more than 1 only after requeues */
	unsigned int requeues;
};

struct th {
	const struct ek_policy *pol;	/* &ops */
	struct ek_policy ops;		/* the policy, after ek_policy_load */
	struct ek_host host;
	void *sd;
	ek_s64 values[EK_MAX_TUNABLES];
	int started;
	ek_u64 now;

	struct th_rq *pool;
	unsigned int pool_size, pool_used;

	unsigned long inserted, dispatched, merged, completed, queued;
	unsigned long completed_unlocked;	/* of completed, without the lock */

	/* what the policy did with the host ops */
	int timer_armed;
	ek_u64 timer_when;
	unsigned long timer_arms, timer_cancels, kicks;
	unsigned long now_reads;		/* ops->now calls */
	int unstamped;	/* completions hand completed_unlocked no time (0) */
};

void th_fail_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
#define th_fail(...) th_fail_at(__FILE__, __LINE__, __VA_ARGS__)
#define TH_CHECK(cond, ...) \
	do { if (!(cond)) th_fail_at(__FILE__, __LINE__, __VA_ARGS__); } while (0)


/* A host for pol with room for pool_size requests; tunables at defaults. */
struct th *th_new(const struct ek_policy *pol, unsigned int pool_size);
int th_tunable_index(const struct th *th, const char *name);
/* Before th_start: the value init receives (must be in range). */
void th_preset(struct th *th, const char *name, ek_s64 value);
void th_start(struct th *th);
/* After th_start: -1 if the host would reject the value, else 0. */
int th_set(struct th *th, const char *name, ek_s64 value);
ek_u64 th_stat(struct th *th, const char *name);

void th_advance(struct th *th, ek_u64 ns);
void th_advance_to(struct th *th, ek_u64 now);

/* A fresh normal, async request from the pool, not yet inserted. */
struct ek_rq *th_rq_new(struct th *th, ek_u8 dir, ek_u64 sector,
			ek_u32 nr_sectors);
static inline struct th_rq *th_of(struct ek_rq *rq)
{
	return (struct th_rq *)rq->host_rq;
}

void th_insert(struct th *th, struct ek_rq *rq);
/* Allocate and insert in one go. */
struct ek_rq *th_add(struct th *th, ek_u8 dir, ek_u64 sector,
		     ek_u32 nr_sectors);
/* dispatch(now), checked against has_work(now); NULL if nothing. */
struct ek_rq *th_dispatch(struct th *th);
/* th_dispatch() that must return want (what names it in the failure). */
struct ek_rq *th_expect_at(const char *file, int line, struct th *th,
			   struct ek_rq *want, const char *what);
#define th_expect(th, want, what) \
	th_expect_at(__FILE__, __LINE__, (th), (want), (what))
/* th_expect(), and the request completes at once. */
#define th_expect_done(th, want, what) \
	th_complete((th), th_expect((th), (want), (what)))
void th_complete(struct th *th, struct ek_rq *rq);
/* Give a dispatched request back (requeue, then insert). */
void th_requeue(struct th *th, struct ek_rq *rq);
/*
 * A completed request's descriptor becomes a new request, as the kernel
 * shim's per-tag descriptors do: the same memory, freshly filled.
 */
struct ek_rq *th_rq_recycle(struct th *th, struct ek_rq *rq, ek_u8 dir,
			    ek_u64 sector, ek_u32 nr_sectors);

/*
 * A bio [sector, sector + nr) arrives: front-merge it if the policy offers
 * a candidate starting at its end. Returns the grown request or NULL.
 */
struct ek_rq *th_front_merge(struct th *th, ek_u8 dir, ek_u64 sector,
			     ek_u32 nr);
/* A bio of nr sectors appended to queued rq (back merge). */
void th_back_merge(struct th *th, struct ek_rq *rq, ek_u32 nr);
/*
 * Queued next (starting at rq's end) is absorbed into queued rq; rq == next:
 * next is gone, absorbed by a request the host cannot name.
 */
void th_merge_requests(struct th *th, struct ek_rq *rq, struct ek_rq *next);

/* Dispatch and complete everything at the current time; returns count. */
unsigned int th_drain(struct th *th);
/* Final invariant check, then exit and free. */
void th_finish(struct th *th);

#endif
