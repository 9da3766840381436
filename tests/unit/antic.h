/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the anticipatory policy's unit tests (4NN-antic-*.c): per-
 * process contexts, which the fake host does not manage, and a small event
 * loop of a queue-depth-1 disk with synchronous readers that think between
 * reads, one-shot requests arriving at set times, and the policy's timer.
 */
#ifndef ELVKIT_TEST_ANTIC_H
#define ELVKIT_TEST_ANTIC_H

#include <string.h>

#include "testhost.h"

#define MS EK_NSEC_PER_MSEC
#define US EK_NSEC_PER_USEC

static inline struct ek_pctx *ah_pctx_new(struct th *th, ek_u32 owner)
{
	struct ek_pctx *p = calloc(1, sizeof(*p) + th->pol->pctx_size);

	TH_CHECK(p, "out of memory");
	ek_pctx_start(th->pol, th->sd, p, owner);
	return p;
}

/* The process is gone; its memory stays until the test frees it. */
static inline void ah_pctx_exit(struct th *th, struct ek_pctx *p)
{
	ek_pctx_end(th->pol, th->sd, p);
}

/* The end of a one-process test: P exits, nothing may remain, P is freed. */
static inline void ah_end(struct th *th, struct ek_pctx *p)
{
	ah_pctx_exit(th, p);
	th_finish(th);
	free(p);
}

/* The context a host gives a request allocated now: none unless wanted. */
static inline struct ek_pctx *ah_pctx_of(struct th *th, struct ek_pctx *p)
{
	return ek_policy_wants_pctx(th->pol, th->sd) ? p : EK_NULL;
}

/* A synchronous read of process p, inserted now. */
static inline struct ek_rq *ah_read(struct th *th, struct ek_pctx *p,
				    ek_u64 sector, ek_u32 nr)
{
	struct ek_rq *rq = th_rq_new(th, EK_READ, sector, nr);

	rq->owner = p ? p->owner : 0;
	rq->pctx = ah_pctx_of(th, p);
	rq->sync = 1;
	th_insert(th, rq);
	return rq;
}

static inline struct ek_rq *ah_write(struct th *th, struct ek_pctx *p,
				     ek_u64 sector, ek_u32 nr)
{
	struct ek_rq *rq = th_rq_new(th, EK_WRITE, sector, nr);

	rq->owner = p ? p->owner : 0;
	rq->pctx = ah_pctx_of(th, p);
	th_insert(th, rq);
	return rq;
}

/*
 * The event loop. Readers read nr sectors at a time sequentially from
 * `next`, one read outstanding, thinking `think` ns between a completion
 * and the next read. One-shots arrive at `at`. The disk serves one request
 * at a time: svc_near if it starts within 2048 sectors of the head, else
 * svc_far (a seek).
 */
struct ah_reader {
	struct ek_pctx *p;
	ek_u64 next;
	ek_u32 nr;
	ek_u64 think;
	ek_u64 issue_at;	/* EK_U64_MAX: waiting for its read */
	unsigned long reads;
	ek_u64 max_wait;	/* insert to dispatch */
};

struct ah_oneshot {
	ek_u8 dir;
	ek_u64 sector;
	ek_u64 at;
	struct ek_rq *rq;
};

struct ah_loop {
	struct th *th;
	struct ah_reader *r;
	unsigned int nr;
	struct ah_oneshot *o;
	unsigned int no;
	ek_u64 svc_near, svc_far;
	ek_u64 head;
	struct ek_rq *busy;
	ek_u64 busy_done;
	unsigned long seeks, idle_waits;
};

/* The loop over readers r[nr] and one-shots o[no]: 0.5 ms near, 8 ms far. */
static inline void ah_loop_init(struct ah_loop *l, struct th *th,
				struct ah_reader *r, unsigned int nr,
				struct ah_oneshot *o, unsigned int no)
{
	memset(l, 0, sizeof(*l));
	l->th = th;
	l->r = r;
	l->nr = nr;
	l->o = o;
	l->no = no;
	l->svc_near = 500 * US;
	l->svc_far = 8 * MS;
}

static inline struct ah_reader *ah_reader_of(struct ah_loop *l,
					     struct ek_rq *rq)
{
	unsigned int i;

	for (i = 0; i < l->nr; i++)
		if (rq->pctx && rq->pctx == l->r[i].p)
			return &l->r[i];
	return NULL;
}

/* Run until `until`; fails on a stall (work queued, nothing will happen). */
static inline void ah_run(struct ah_loop *l, ek_u64 until)
{
	struct th *th = l->th;
	unsigned int i;

	while (th->now < until) {
		ek_u64 t = EK_U64_MAX;

		for (i = 0; i < l->nr; i++)
			if (l->r[i].issue_at <= th->now) {
				struct ah_reader *r = &l->r[i];

				ah_read(th, r->p, r->next, r->nr);
				r->next += r->nr;
				r->issue_at = EK_U64_MAX;
			}
		for (i = 0; i < l->no; i++)
			if (!l->o[i].rq && l->o[i].at <= th->now) {
				l->o[i].rq = th_rq_new(th, l->o[i].dir,
						       l->o[i].sector, 8);
				l->o[i].rq->owner = 1000 + i;
				l->o[i].rq->sync = l->o[i].dir == EK_READ;
				th_insert(th, l->o[i].rq);
			}
		if (th->timer_armed && th->timer_when <= th->now)
			th->timer_armed = 0;	/* fired */
		if (l->busy && l->busy_done <= th->now) {
			struct ek_rq *rq = l->busy;
			struct ah_reader *r = ah_reader_of(l, rq);

			l->busy = NULL;
			th_complete(th, rq);
			if (r)
				r->issue_at = th->now + r->think;
			continue;	/* arrivals due now go first */
		}
		if (!l->busy) {
			struct ek_rq *rq = th_dispatch(th);

			if (rq) {
				struct ah_reader *r = ah_reader_of(l, rq);
				ek_u64 d = rq->sector > l->head ?
					rq->sector - l->head :
					l->head - rq->sector;

				if (r && rq->dispatch_ns - rq->arrival_ns > r->max_wait)
					r->max_wait = rq->dispatch_ns - rq->arrival_ns;
				if (r)
					r->reads++;
				l->seeks += d > 2048;
				l->busy = rq;
				l->busy_done = th->now + (d > 2048 ? l->svc_far : l->svc_near);
				l->head = ek_rq_end(rq);
				continue;
			}
			if (th->queued)
				l->idle_waits++;
		}
		if (l->busy)
			t = l->busy_done;
		if (th->timer_armed)
			t = t < th->timer_when ? t : th->timer_when;
		for (i = 0; i < l->nr; i++)
			if (l->r[i].issue_at < t)
				t = l->r[i].issue_at;
		for (i = 0; i < l->no; i++)
			if (!l->o[i].rq && l->o[i].at < t)
				t = l->o[i].at;
		if (t == EK_U64_MAX) {
			TH_CHECK(!th->queued, "stall at %llu ns: %lu queued, device idle, no timer",
				 (unsigned long long)th->now, th->queued);
			return;
		}
		if (t > until)
			t = until;
		th_advance_to(th, t);
	}
}

/* Serve everything queued, each wait running out on its timer. */
static inline void ah_drain(struct th *th)
{
	while (th->queued) {
		struct ek_rq *rq;

		if (th->timer_armed)
			th_advance_to(th, th->timer_when > th->now ?
				      th->timer_when : th->now);
		th->timer_armed = 0;
		rq = th_dispatch(th);
		TH_CHECK(rq || th->timer_armed, "stall while draining");
		if (rq)
			th_complete(th, rq);
	}
}

/* Complete what is on the disk and dispatch everything left. */
static inline void ah_finish(struct ah_loop *l)
{
	if (l->busy)
		th_complete(l->th, l->busy);
	l->busy = NULL;
	ah_drain(l->th);
}

/*
 * The end of a loop's test: its readers exit, what is left is served, the
 * host checks that nothing remains, and the readers' contexts are freed.
 */
static inline void ah_loop_end(struct ah_loop *l)
{
	unsigned int i;

	for (i = 0; i < l->nr; i++)
		ah_pctx_exit(l->th, l->r[i].p);
	ah_finish(l);
	th_finish(l->th);
	for (i = 0; i < l->nr; i++)
		free(l->r[i].p);
}

/* The host's timer fires: time moves on to it. */
static inline void ah_fire(struct th *th)
{
	TH_CHECK(th->timer_armed, "no timer armed to fire");
	th_advance_to(th, th->timer_when);
	th->timer_armed = 0;
}

/* The policy's timer is armed for `when`; `what` says what sets that time. */
static inline void ah_expect_timer(struct th *th, ek_u64 when, const char *what)
{
	TH_CHECK(th->timer_armed && th->timer_when == when,
		 "timer %s at %.1f ms, want %s = %.1f ms",
		 th->timer_armed ? "armed" : "not armed", th->timer_when / 1e6,
		 what, when / 1e6);
}

/* So many waits have ended by time, and so many were aborted. */
static inline void ah_expect_ends(struct th *th, ek_u64 timeouts,
				  ek_u64 aborted)
{
	ek_u64 t = th_stat(th, "antic_timeouts");
	ek_u64 a = th_stat(th, "antic_aborted");

	TH_CHECK(t == timeouts && a == aborted,
		 "antic_timeouts %llu, antic_aborted %llu, want %llu and %llu",
		 (unsigned long long)t, (unsigned long long)a,
		 (unsigned long long)timeouts, (unsigned long long)aborted);
}

/* antic_started = hits + timeouts + aborted (+1 while a wait runs). */
static inline void ah_check_stats(struct th *th)
{
	ek_u64 s = th_stat(th, "antic_started");
	ek_u64 e = th_stat(th, "antic_hits") + th_stat(th, "antic_timeouts") +
		   th_stat(th, "antic_aborted");

	TH_CHECK(s == e || s == e + 1,
		 "antic_started %llu but %llu ended",
		 (unsigned long long)s, (unsigned long long)e);
}

static inline void ah_print_stats(struct th *th)
{
	printf("antic started %llu hits %llu timeouts %llu aborted %llu\n",
	       (unsigned long long)th_stat(th, "antic_started"),
	       (unsigned long long)th_stat(th, "antic_hits"),
	       (unsigned long long)th_stat(th, "antic_timeouts"),
	       (unsigned long long)th_stat(th, "antic_aborted"));
}

/*
 * P's read a, on the disk, completes 1 ms from now with Q's far read
 * queued, a reason to wait: a wait for P starts. Returns the far read.
 */
static inline struct ek_rq *ah_wait_after(struct th *th, struct ek_pctx *q,
					  struct ek_rq *a)
{
	struct ek_rq *far = ah_read(th, q, 50000000, 8);

	th_advance(th, 1 * MS);
	th_complete(th, a);
	TH_CHECK(!th_dispatch(th), "no wait for P");
	TH_CHECK(th_stat(th, "antic_started") == 1, "antic_started %llu",
		 (unsigned long long)th_stat(th, "antic_started"));
	return far;
}

/*
 * The end of a test of n processes: the counters agree, nothing remains,
 * the processes' contexts are freed. Returns main's exit status.
 */
static inline int ah_pass(struct th *th, struct ek_pctx **p, unsigned int n)
{
	ah_check_stats(th);
	ah_print_stats(th);
	th_finish(th);
	while (n--)
		free(p[n]);
	printf("ok\n");
	return 0;
}

#endif
