/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by the simulator's parts. Who calls whom:
 *   run.c (the event loop) -> host.c, workload.c
 *   workload.c -> the host only through struct sim_host_ops (s->hops)
 *   host.c -> the submitter only through each bio's end_io
 *   host.c, workload.c -> account.c (what a run records)
 * so host.c and workload.c never call each other.
 */
#ifndef ELVKIT_SIM_INT_H
#define ELVKIT_SIM_INT_H

#include "sim.h"

enum ev_type { EV_THREAD, EV_DEV, EV_TIMER };

struct event {
	uint64_t t, seq;
	int type;
	void *p;
	uint64_t arg;
};

struct heap {
	struct event *ev;
	size_t n, cap;
	uint64_t seq;
};

void heap_push(struct heap *h, uint64_t t, int type, void *p, uint64_t arg);
int heap_pop(struct heap *h, struct event *out);
void heap_free(struct heap *h);

struct sthread;
struct sim;

struct sbio {
	uint64_t sector;
	uint32_t nr;
	uint8_t dir;
	struct sthread *t;
	uint64_t submit_ns;
	struct sbio *next;
	/* The submitter's completion, called by the host (the kernel's bi_end_io). */
	void (*end_io)(struct sim *s, struct sbio *b);
};

enum rq_state { RQ_FREE, RQ_QUEUED, RQ_DISPATCHED };

struct srq {
	struct ek_rq rq;
	struct ek_mrq mrq;
	int state;
	struct sbio *bios, *bios_tail;
	struct srq *hnext;		/* back-merge hash chain (by end) */
	struct srq *pool_next;
	unsigned requeues;
};

struct sthread {
	unsigned id;
	uint8_t dir, sync, random, bg, startup;
	uint64_t region, region_len;	/* sectors */
	uint64_t pos;			/* next offset in region, sectors */
	uint64_t left;			/* bios still to issue */
	unsigned inflight, max_inflight;
	uint64_t think_ns;
	uint32_t bs;			/* sectors per bio */
	struct sim_prio prio;
	struct ek_pctx *pctx;
	struct sbio *blocked;		/* waiting for a free request */
	struct sthread *wnext;
	int waiting, done;
	int reserved;			/* was handed a free request slot */
	uint64_t rng;
	uint64_t start_ns, finish_ns;
};

/*
 * How a workload drives the host: the block layer's side of submit_bio, as
 * a task sees it. The workload holds no other reference to host.c.
 */
struct sim_host_ops {
	struct sbio *(*bio_alloc)(struct sim *s);
	/* 1: queued or merged; 0: no free request, call wait_request */
	int (*submit_bio)(struct sim *s, struct sbio *b);
	/* Sleep until a request of dir is free; the thread's event fires then. */
	void (*wait_request)(struct sim *s, struct sthread *t, uint8_t dir);
	/* The thread is gone: end its per-process context (the kernel's exit_io_context). */
	void (*task_exit)(struct sim *s, struct sthread *t);
};

#define HASH_BITS 12

struct sim {
	const struct sim_config *cfg;
	struct sim_result *res;
	uint64_t now;
	struct heap heap;
	uint64_t rng;
	const struct sim_host_ops *hops;

	const struct ek_policy *pol;
	void *sd;
	struct ek_host host;
	uint64_t timer_gen;

	const struct ek_model_type *mt;
	void *dev;
	uint32_t qd, dev_inflight;
	uint64_t dev_ev_at;
	uint64_t cap;

	uint64_t held;			/* requests inside the policy */
	unsigned allocated[2];
	unsigned max_sectors;
	struct srq *hash[1u << HASH_BITS];
	struct srq *free_rq;
	struct sbio *free_bio;
	void **chunks;
	size_t nchunks;

	struct sthread *wait_head[2], *wait_tail[2];
	struct sthread *threads;
	unsigned nthreads, fg_running;
	int stopping;
	uint64_t end_ns;
	int ended;
};

static inline uint64_t sim_rand(uint64_t *s)
{
	/* splitmix64 */
	uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* account.c: what a run records in its struct sim_result */
void sim_violation(struct sim *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void acct_bio_done(struct sim *s, const struct sbio *b);
void acct_dispatch(struct sim *s, const struct ek_rq *rq);
void acct_service(struct sim *s, const struct ek_rq *rq);
void acct_end_checks(struct sim *s);

/* host.c, for run.c */
extern const struct sim_host_ops sim_block_layer;
int host_setup(struct sim *s);		/* device and policy; 0 or -1 */
void host_run_queue(struct sim *s);	/* feed the device from the policy */
void host_dev_event(struct sim *s, uint64_t at);	/* the device may have finished some */
int host_timer_current(struct sim *s, uint64_t gen);	/* a policy timer event still armed */
void host_end_checks(struct sim *s);	/* nothing stalled, nothing left */
void host_teardown(struct sim *s);

/* workload.c, for run.c */
int wl_build(struct sim *s);
void wl_thread_run(struct sim *s, struct sthread *t);
void wl_stop(struct sim *s);

#endif
