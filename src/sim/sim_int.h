/* SPDX-License-Identifier: GPL-2.0 */
/* Internals shared by the simulator's host, events and workloads. */
#ifndef ELVKIT_SIM_INT_H
#define ELVKIT_SIM_INT_H

#include <elvkit/contract.h>
#include <elvkit/rand.h>
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

struct sbio {
	uint64_t sector;
	uint32_t nr;
	uint8_t dir;
	struct sthread *t;
	uint64_t submit_ns;
	struct sbio *next;
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
	ek_u64 rng;
	uint64_t start_ns, finish_ns;
};

#define HASH_BITS 12

struct sim {
	const struct sim_config *cfg;
	struct sim_result *res;
	uint64_t now;
	struct heap heap;
	ek_u64 rng;

	const struct ek_policy *pol;	/* &ops */
	struct ek_policy ops;		/* cfg->policy, checked by ek_policy_load */
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

/* The hosts' one generator, elvkit/rand.h. */
static inline uint64_t sim_rand(ek_u64 *s)
{
	return ek_rand(s);
}

void sim_violation(struct sim *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* host.c, for the workloads */
struct sbio *host_bio_alloc(struct sim *s);
/* 1: queued or merged; 0: no free request, caller waits */
int host_submit_bio(struct sim *s, struct sbio *b);
void host_wait(struct sim *s, struct sthread *t, uint8_t dir);

/* workload.c */
int wl_build(struct sim *s);
void wl_thread_run(struct sim *s, struct sthread *t);
void wl_bio_done(struct sim *s, struct sbio *b);
void wl_stop(struct sim *s);

#endif
