/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for fair-queue's unit tests (5NN-fq-*.c): processes with their
 * own contexts, freed as soon as the process has exited and its last
 * request is gone (so ASan catches a policy that keeps a pointer to a
 * dead queue), and a queue-depth-1 disk loop with backlogged or
 * synchronous processes whose service the tests compare.
 */
#ifndef ELVKIT_TEST_FQ_H
#define ELVKIT_TEST_FQ_H

#include <string.h>

#include "testhost.h"

#define MS EK_NSEC_PER_MSEC
#define US EK_NSEC_PER_USEC
#define FQT_MAX_RQ 400000

struct fqt_proc {
	struct ek_pctx *p;	/* NULL once freed */
	ek_u32 owner;
	ek_u8 cls, lvl;
	ek_u8 dir, sync;
	unsigned refs;		/* requests holding the context */
	int exited;

	/* the disk loop's view of it */
	unsigned depth;		/* requests kept outstanding (0: none) */
	unsigned outstanding;
	ek_u32 nr;		/* sectors per request */
	ek_u64 next;		/* next sector */
	ek_u64 stride;		/* from one request's start to the next's; 0: nr */
	ek_u64 think;		/* after a completion, before the next request */
	ek_u64 issue_at;
	ek_u64 start_at;	/* first request not before */
	ek_u64 bytes;
	ek_u64 ios;
	ek_u64 busy_ns;		/* disk time its requests took */
	ek_u64 max_wait;	/* insert to dispatch */
	ek_u64 first_dispatch;	/* 0: none yet */
};

/* rq id -> its process (rq->pctx may be gone by the time we look) */
static struct fqt_proc *fqt_owner_of[FQT_MAX_RQ];

static inline void fqt_proc_init(struct th *th, struct fqt_proc *pr,
				 ek_u32 owner)
{
	memset(pr, 0, sizeof(*pr));
	pr->owner = owner;
	pr->cls = EK_PRIO_BE;
	pr->lvl = 4;
	pr->dir = EK_READ;
	pr->sync = 1;
	pr->nr = 256;
	pr->p = calloc(1, sizeof(*pr->p) + th->pol->pctx_size);
	TH_CHECK(pr->p, "out of memory");
	ek_pctx_start(th->pol, th->sd, pr->p, owner);
}

static inline void fqt_maybe_free(struct fqt_proc *pr)
{
	if (pr->exited && !pr->refs && pr->p) {
		free(pr->p);
		pr->p = NULL;
	}
}

static inline void fqt_exit(struct th *th, struct fqt_proc *pr)
{
	if (pr->exited)
		return;
	ek_pctx_end(th->pol, th->sd, pr->p);
	pr->exited = 1;
	fqt_maybe_free(pr);
}

/* A request of pr (not inserted yet). */
static inline struct ek_rq *fqt_rq(struct th *th, struct fqt_proc *pr,
				   ek_u64 sector, ek_u32 nr)
{
	struct ek_rq *rq = th_rq_new(th, pr->dir, sector, nr);

	TH_CHECK(th_of(rq)->id < FQT_MAX_RQ, "too many requests");
	TH_CHECK(!pr->exited, "request of an exited process");
	rq->sync = pr->sync;
	rq->prio_class = pr->cls;
	rq->prio_level = pr->lvl;
	rq->owner = pr->owner;
	rq->pctx = pr->p;
	pr->refs++;
	fqt_owner_of[th_of(rq)->id] = pr;
	return rq;
}

static inline struct fqt_proc *fqt_proc_of(struct ek_rq *rq)
{
	return fqt_owner_of[th_of(rq)->id];
}

/* rq is gone (completed or merged away): it no longer holds its context. */
static inline void fqt_release(struct ek_rq *rq)
{
	struct fqt_proc *pr = fqt_proc_of(rq);

	TH_CHECK(pr->refs, "release without a reference");
	pr->refs--;
	fqt_maybe_free(pr);
}

static inline void fqt_complete(struct th *th, struct ek_rq *rq)
{
	th_complete(th, rq);
	fqt_release(rq);
}

/* One 4 KiB read of pr at sector, inserted now, counted outstanding. */
static inline struct ek_rq *fqt_read_at(struct th *th, struct fqt_proc *pr,
					ek_u64 sector)
{
	struct ek_rq *rq = fqt_rq(th, pr, sector, 8);

	pr->outstanding++;
	th_insert(th, rq);
	return rq;
}

/* An outstanding request of a process completes now. */
static inline void fqt_done(struct th *th, struct ek_rq *rq)
{
	fqt_proc_of(rq)->outstanding--;
	fqt_complete(th, rq);
}

/*
 * A queue-depth-1 disk: each request takes svc_base + nr * svc_per_sector,
 * and svc_seek more if it does not start where the previous one ended.
 * Processes keep `depth` requests outstanding, `stride` sectors apart
 * (sequentially by default), issuing the next `think` after a completion.
 * A process has one issue time: with depth > 1 and a think time, each
 * completion of its own postpones the next issue, so a backlogged process
 * is one of depth > 1 and think 0. Runs until `until`. If the policy
 * holds back (idling), time jumps to its timer, which must be armed.
 */
struct fqt_disk {
	ek_u64 svc_base, svc_per_sector;
	/* optional: called after each completion */
	void (*on_complete)(struct th *th, struct ek_rq *rq, void *arg);
	void *arg;
	ek_u64 svc_seek;	/* optional */
	ek_u64 head;		/* where the last request ended */
};

static inline void fqt_issue(struct th *th, struct fqt_proc *pr)
{
	while (pr->depth && pr->outstanding < pr->depth && !pr->exited &&
	       th->now >= pr->issue_at && th->now >= pr->start_at) {
		struct ek_rq *rq = fqt_rq(th, pr, pr->next, pr->nr);

		pr->next += pr->stride ? pr->stride : pr->nr;
		pr->outstanding++;
		th_insert(th, rq);
	}
}

static inline ek_u64 fqt_next_issue(struct fqt_proc *pr, unsigned n)
{
	ek_u64 t = EK_U64_MAX;
	unsigned i;

	for (i = 0; i < n; i++) {
		ek_u64 at = pr[i].issue_at > pr[i].start_at ? pr[i].issue_at :
			    pr[i].start_at;

		if (pr[i].depth && pr[i].outstanding < pr[i].depth &&
		    !pr[i].exited && at < t)
			t = at;
	}
	return t;
}

static inline void fqt_run(struct th *th, struct fqt_disk *d,
			   struct fqt_proc *pr, unsigned n, ek_u64 until)
{
	unsigned i;

	while (th->now < until) {
		struct ek_rq *rq;
		struct fqt_proc *o;
		ek_u64 wait, t, svc;

		for (i = 0; i < n; i++)
			fqt_issue(th, &pr[i]);
		rq = th_dispatch(th);
		if (!rq) {
			t = fqt_next_issue(pr, n);
			if (th->timer_armed && th->timer_when < t)
				t = th->timer_when;
			TH_CHECK(t != EK_U64_MAX || !th->queued,
				 "%lu queued, nothing dispatched, no timer",
				 th->queued);
			if (t == EK_U64_MAX)
				break;
			th_advance_to(th, t > th->now ? t : th->now + 1);
			if (th->timer_armed && th->timer_when <= th->now)
				th->timer_armed = 0;
			continue;
		}
		o = fqt_proc_of(rq);
		wait = th->now - rq->arrival_ns;
		if (wait > o->max_wait)
			o->max_wait = wait;
		if (!o->first_dispatch)
			o->first_dispatch = th->now;
		svc = d->svc_base + rq->nr_sectors * d->svc_per_sector +
		      (rq->sector != d->head ? d->svc_seek : 0);
		d->head = ek_rq_end(rq);
		th_advance(th, svc);
		o->busy_ns += svc;
		o->bytes += (ek_u64)rq->nr_sectors * 512;
		o->ios++;
		o->outstanding--;
		o->issue_at = th->now + o->think;
		fqt_complete(th, rq);
		if (d->on_complete)
			d->on_complete(th, rq, d->arg);
	}
}

/* Exit every process, drain what is left (advancing through timers). */
static inline void fqt_finish(struct th *th, struct fqt_proc *pr, unsigned n)
{
	struct ek_rq *rq;
	unsigned i;

	for (i = 0; i < n; i++)
		fqt_exit(th, &pr[i]);
	for (;;) {
		rq = th_dispatch(th);
		if (rq) {
			fqt_done(th, rq);
			continue;
		}
		if (!th->queued)
			break;
		TH_CHECK(th->timer_armed, "%lu queued, no timer", th->queued);
		th_advance_to(th, th->timer_when > th->now ? th->timer_when :
			      th->now);
		th->timer_armed = 0;
	}
	th_finish(th);
}

/*
 * Two readers of the same weight, both always backlogged (4 requests
 * each), without raising, for 20 s on disk d: a sequential one of 128 KiB
 * reads, and one of 4 KiB reads from sector next, stride sectors apart.
 * Returns the second's share of the disk's time, having printed both.
 */
static inline double fqt_share_beside_streamer(struct fqt_disk *d,
					       ek_u64 next, ek_u64 stride)
{
	struct th *th = th_new(&ek_fair_queue_policy, FQT_MAX_RQ);
	struct fqt_proc pr[2];
	struct fqt_proc *seq = &pr[0], *small = &pr[1];
	double share;
	int i;

	th_preset(th, "low_latency", 0);
	th_start(th);
	for (i = 0; i < 2; i++) {
		fqt_proc_init(th, &pr[i], (ek_u32)i + 1);
		pr[i].depth = 4;
	}
	seq->nr = 256;
	small->nr = 8;
	small->next = next;
	small->stride = stride;
	fqt_run(th, d, pr, 2, 20000 * MS);
	share = (double)small->busy_ns /
		(double)(seq->busy_ns + small->busy_ns);
	printf("disk time: sequential %.0f ms (%llu MiB), small reads %.0f ms (%llu reads): their share %.2f\n",
	       seq->busy_ns / 1e6, (unsigned long long)seq->bytes >> 20,
	       small->busy_ns / 1e6, (unsigned long long)small->ios, share);
	fqt_finish(th, pr, 2);
	return share;
}

#endif
