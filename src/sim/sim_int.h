/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals shared by the simulator's parts. Who calls whom:
 *   run.c (the event loop) -> the host, workload.c
 *   workload.c -> the host only through struct sim_host_ops (s->hops)
 *   the host -> the submitter only through each bio's end_io
 *   the host, workload.c -> account.c (what a run records)
 * so the host and the workload never call each other. The host is the
 * block layer between a bio and the device, one file per stage:
 *   host.c         submit_bio: plug or scheduler merge, wbt, tag, insert
 *   plug.c         per-thread plugging
 *   sched_queue.c  requests inside the policy: insert, merge hash, merges
 *   wbt.c          writeback throttling (block/blk-wbt.c)
 *   tags.c         the shared request (tag) pool and its waiters
 *   dispatch.c     policy -> device, device completions, policy timers
 *   pool.c         request and bio memory; a request's release
 */
#ifndef ELVKIT_SIM_INT_H
#define ELVKIT_SIM_INT_H

#include <elvkit/contract.h>
#include <elvkit/rand.h>
#include "sim.h"

enum ev_type { EV_THREAD, EV_DEV, EV_TIMER, EV_WBT, EV_RQ_END, EV_REQUEUE };

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
	struct sthread *t;		/* the submitter */
	struct sthread *owner;		/* whose I/O it is: the flusher submits writers' bios */
	uint64_t submit_ns;
	struct sbio *next;
	/* The submitter's completion, called by the host (the kernel's bi_end_io). */
	void (*end_io)(struct sim *s, struct sbio *b);
	uint64_t cookie;		/* the submitter's */
	uint8_t wbt_tracked;		/* holds a wbt slot (the host's) */
};

/*
 * RQ_REQUEUED: the driver sent it back; on the requeue list until the
 * list's work runs, then in the policy again, or with --requeue-dontprep
 * on the dispatch list for the device (still dispatched to the policy).
 */
enum rq_state { RQ_FREE, RQ_PLUGGED, RQ_QUEUED, RQ_DISPATCHED, RQ_REQUEUED };

struct srq {
	struct ek_rq rq;
	struct ek_mrq mrq;
	int state;
	struct sbio *bios, *bios_tail;
	struct srq *hnext;		/* back-merge hash chain (by end) */
	struct srq *pool_next;		/* free list, or a struct srq_list */
	unsigned requeues;
	uint64_t issue_ns;		/* to the device (io_start_time_ns): the
					   policy's dispatch, or a dispatch list's */
	uint8_t tag_limited;		/* its tag counts against limit_depth */
	uint8_t wbt_tracked;		/* counted in wbt's inflight */
};

/* Requests in order, linked through pool_next: a plug, the dispatch list. */
struct srq_list {
	struct srq *head, *tail;
};

static inline void srq_list_add_tail(struct srq_list *l, struct srq *r)
{
	r->pool_next = NULL;
	if (l->tail)
		l->tail->pool_next = r;
	else
		l->head = r;
	l->tail = r;
}

static inline struct srq *srq_list_pop(struct srq_list *l)
{
	struct srq *r = l->head;

	if (r) {
		l->head = r->pool_next;
		if (!l->head)
			l->tail = NULL;
		r->pool_next = NULL;
	}
	return r;
}

/* A bio of a read-ahead window on its way, in pages of the thread's region. */
struct ra_io {
	uint64_t start, end;
};

/*
 * A sequential reader's page cache and read-ahead state (readahead.c), in
 * pages (4 KiB, or the block when that is not a multiple of 4 KiB) from
 * the start of its region: struct file_ra_state's start, size and
 * async_size, and the PG_readahead mark.
 */
struct ra_state {
	uint32_t unit;			/* sectors per page */
	uint64_t max;			/* --readahead, pages */
	uint64_t start, size, async_size, mark;
	uint64_t issued_end;		/* pages below this were read or are being read */
	struct ra_io *io;		/* in flight */
	unsigned nio, cap;
	uint64_t gen;			/* bumped when the reader starts over */
};

/* A writer's balance_dirty_pages() state (task_struct's dirty_paused_when, ...), dirty.c. */
struct dirty_task {
	uint64_t nr_dirtied, nr_dirtied_pause;	/* pages */
	int64_t paused_when;			/* jiffies; 0: never */
	uint64_t until_ns;			/* asleep in balance_dirty_pages until then */
	int recheck;				/* at the limit: look again on waking */
	uint64_t recheck_pages;
	int syncing;				/* done, waiting for its data (dirty_sync) */
};

/* The device's bdi_writeback and the global dirty domain, in pages and jiffies (dirty.c). */
struct dirty {
	int on;
	uint64_t thresh, bg_thresh;
	uint64_t nr;				/* dirty or under writeback */
	uint64_t reclaimable;			/* dirty, not yet under writeback */
	struct sbio *head, *tail;		/* dirty bios, in the order dirtied */
	struct sthread *flusher;
	int flushing;				/* background writeback runs */
	unsigned syncers;			/* writers waiting for all their data */
	uint64_t chunk;				/* pages written in its current chunk */
	uint64_t dirtied, written;		/* WB_DIRTIED, WB_WRITTEN */
	uint64_t dirtied_stamp, written_stamp;
	int64_t bw_stamp;
	uint64_t write_bw, avg_write_bw;	/* pages/s */
	uint64_t dirty_ratelimit, balanced_ratelimit;	/* pages/s */
	int exceeded;				/* wb->dirty_exceeded */
	uint64_t writepages;			/* pages since do_writepages' last look */
	uint64_t pauses;
};

struct sthread {
	unsigned id;
	uint8_t dir, sync, random, bg, startup;
	uint8_t flusher;		/* writes back the buffered writers' bios (dirty.c) */
	uint64_t region, region_len;	/* sectors */
	uint64_t pos;			/* next offset in region, sectors */
	uint64_t first, stride;		/* sequential: where a pass starts, the step */
	uint64_t left;			/* application I/Os still to do */
	uint64_t share;			/* application I/Os of one pass */
	int share_done;			/* a whole pass done */
	unsigned inflight, max_inflight;	/* bios */
	uint64_t think_ns;
	uint32_t bs;			/* sectors per application I/O */
	struct sim_prio prio;
	struct ek_pctx *pctx;
	struct sbio *pending, *pending_tail;	/* made, not yet accepted by the host */
	int done;
	int exited;			/* its process context ended (task_exit) */
	ek_u64 rng;
	uint64_t start_ns, finish_ns;
	uint64_t app_bytes;		/* application bytes done within the run */
	/* sequential readers through the page cache */
	int ra_on;
	struct ra_state ra;
	uint64_t read_start_ns;		/* the application read in progress; 0: none */
	int io_wait;			/* it waits for a read-ahead bio */

	/* the host's: waiting (tags or wbt), plug, per-process context */
	struct sthread *wnext;
	int waiting;
	uint8_t tag_reserved, tag_res_limited;	/* handed a tag while waiting */
	uint8_t want_dir, want_sync;		/* what the tag it waits for is for */
	uint8_t wbt_granted;			/* handed a wbt slot while waiting */
	uint8_t plugged;
	struct srq_list plug;
	unsigned plug_count;
	struct dirty_task bdp;		/* buffered writers under --dirty-kb */
	uint64_t copy_end_ns;		/* --copy-mbs: its write's copy ends; 0: none */
};

/* Threads asleep in the block layer, woken first come first served. */
struct waitq {
	struct sthread *head, *tail;
	unsigned n;
};

/* The scheduler's requests: one pool for reads and writes (blk-mq sched tags). */
struct tag_pool {
	unsigned total, used;
	unsigned limited;		/* used by requests allocated under limit_depth */
	struct waitq wait;
	unsigned wake_batch;		/* --tag-wake-us: sleepers woken per batch */
	unsigned freed;			/* tags freed towards the next batch */
};

/*
 * Writeback throttling state, as struct rq_wb and struct rq_depth in the
 * kernel. The kernel's clocks are never 0 where the simulator's starts, so
 * "none yet" is WBT_NEVER, and the read watched is the one sync_cookie
 * names: a read issued at time 0 counts as any other.
 */
#define WBT_NEVER UINT64_MAX
struct wbt {
	int enabled;
	uint64_t min_lat_ns, win_ns, cur_win_ns;
	int scale_step, scaled_max;
	unsigned queue_depth, default_depth, max_depth;
	unsigned wb_normal, wb_background;
	unsigned inflight, unknown_cnt;
	struct waitq wait;
	uint64_t last_issue, last_comp;	/* reads; WBT_NEVER: none yet */
	uint64_t sync_issue;		/* when sync_cookie, the read watched, was issued */
	const struct srq *sync_cookie;
	int timer_active;
	uint64_t timer_gen;
	uint64_t rd_n, rd_min, wr_n;	/* this window's completions (blk_stat) */
};

/*
 * How a workload drives the host: the block layer's side of submit_bio, as
 * a task sees it. The workload holds no other reference to the host.
 */
struct sim_host_ops {
	struct sbio *(*bio_alloc)(struct sim *s);
	/*
	 * 1: merged or queued. 0: the thread sleeps in the block layer (wbt
	 * or no free request); its event fires when it may submit b again.
	 */
	int (*submit_bio)(struct sim *s, struct sbio *b);
	/* A burst of submissions (blk_start_plug / blk_finish_plug). */
	void (*plug_start)(struct sim *s, struct sthread *t);
	void (*plug_finish)(struct sim *s, struct sthread *t);
	/* The thread is gone: end its per-process context (the kernel's exit_io_context). */
	void (*task_exit)(struct sim *s, struct sthread *t);
};

#define HASH_BITS 12

struct sim {
	const struct sim_config *cfg;
	struct sim_result *res;
	uint64_t now;
	struct heap heap;
	ek_u64 rng;
	const struct sim_host_ops *hops;

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
	unsigned requeued_out;		/* on the requeue or the dispatch list */
	struct srq_list dispatch;	/* hctx->dispatch: before the policy */
	struct tag_pool tags;
	struct wbt wbt;
	unsigned max_sectors;
	/* the last time a writer was held back by its dirty limit (bdi's dirty_sleep) */
	uint64_t dirty_sleep_ns;
	int dirty_slept;
	struct dirty dirty;		/* --dirty-kb */
	/* the block layer's state integrated over time, in ns x count (acct_block_time) */
	struct {
		uint64_t ns, wb_normal, wbt_inflight, tags_used, tag_sleepers, dev_inflight, dirty_pages;
	} blk;
	struct srq *hash[1u << HASH_BITS];
	struct srq *free_rq;
	struct sbio *free_bio;
	void **chunks;
	size_t nchunks;

	struct sthread *threads;
	unsigned nthreads, fg_running;
	int stopping;			/* --runtime is over: no new I/O */
	uint64_t end_ns;
	int ended;
};

/* Append b to the bio list head..tail (linked through next). */
static inline void sbio_list_add(struct sbio **head, struct sbio **tail, struct sbio *b)
{
	b->next = NULL;
	if (*tail)
		(*tail)->next = b;
	else
		*head = b;
	*tail = b;
}

/* The kernel's ilog2() (0 for 0) and roundup_pow_of_two(), for the host's own arithmetic. */
static inline unsigned sim_ilog2(uint64_t v)
{
	return v ? 63 - (unsigned)__builtin_clzll(v) : 0;
}

static inline uint64_t sim_roundup_pow2(uint64_t v)
{
	return v > 1 ? 1ULL << (sim_ilog2(v - 1) + 1) : 1;
}

/* The hosts' one generator, elvkit/rand.h. */
static inline uint64_t sim_rand(ek_u64 *s)
{
	return ek_rand(s);
}

/* account.c: what a run records in its struct sim_result */
void sim_violation(struct sim *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void acct_bio_done(struct sim *s, const struct sbio *b);	/* device bytes */
void acct_app_io(struct sim *s, struct sthread *t, uint64_t lat_ns, uint64_t bytes);
void acct_app_write(struct sim *s, uint64_t bytes);	/* dirtied, or a write bio done */
void acct_threads(struct sim *s);	/* per-thread bytes and Jain's index, at the end */
void acct_counters(struct sim *s);	/* the policy's counters, at the end */
void acct_dispatch(struct sim *s, const struct ek_rq *rq);
void acct_service(struct sim *s, const struct srq *r);
void acct_end_checks(struct sim *s);
void acct_block_time(struct sim *s, uint64_t t);	/* before the clock moves to t */
void acct_block_end(struct sim *s);	/* the time averages, at the end */

/* host.c, for run.c */
extern const struct sim_host_ops sim_block_layer;
int host_setup(struct sim *s);		/* device and policy; 0 or -1 */
void host_end_checks(struct sim *s);	/* nothing stalled, nothing left */
void host_teardown(struct sim *s);

/* dispatch.c, for run.c and host.c */
void host_run_queue(struct sim *s);	/* feed the device from the policy */
void host_dev_event(struct sim *s, uint64_t due);	/* the device may have finished some */
void host_rq_end(struct sim *s, struct srq *r);	/* --write-end-us: the rest of a completion */
void host_requeue_work(struct sim *s, struct srq *r);	/* the requeue list's work, for r */
int host_timer_current(struct sim *s, uint64_t gen);	/* a policy timer event still armed */
extern const struct ek_host_ops sim_policy_host_ops;

/* wait queues (host side) */
static inline void waitq_add(struct waitq *q, struct sthread *t)
{
	t->waiting = 1;
	t->wnext = NULL;
	q->n++;
	if (q->tail)
		q->tail->wnext = t;
	else
		q->head = t;
	q->tail = t;
}

/* Take *pp (a link in q) out of q and let its thread run now, or at when. */
void waitq_wake(struct sim *s, struct waitq *q, struct sthread **pp);
void waitq_wake_at(struct sim *s, struct waitq *q, struct sthread **pp, uint64_t when);
/* --tag-wake-us, --wbt-wake-us: from q where it has points, else uniform 0..2 x mean */
uint64_t waitq_wake_delay(struct sim *s, int64_t mean_us, const struct sim_delay *q);

/* pool.c */
struct srq *rq_alloc(struct sim *s);
void rq_release(struct sim *s, struct srq *r);	/* wbt, tag, memory */
struct sbio *bio_alloc(struct sim *s);
void bio_free(struct sim *s, struct sbio *b);
void pool_free_all(struct sim *s);

/* tags.c */
void tags_init(struct sim *s);
int tag_get(struct sim *s, struct sthread *t, uint8_t dir, uint8_t sync, uint8_t *limited);
void tag_put(struct sim *s, uint8_t limited);
void tag_unreserve(struct sim *s, struct sthread *t);

/* dirty.c: balance_dirty_pages() for buffered writers, with --dirty-kb */
void dirty_init(struct sim *s);		/* after the threads are built */
int dirty_write(struct sim *s, struct sthread *t, struct sbio *b);	/* 1: t sleeps now */
int dirty_held(struct sim *s, struct sthread *t);	/* 1: t may not dirty yet */
void dirty_written(struct sim *s, const struct sbio *b, int last);	/* written back */
void dirty_sync(struct sim *s, struct sthread *t);	/* t waits for all it dirtied */
int dirty_flusher_run(struct sim *s, struct sthread *f);	/* 1: finished */

/* wbt.c */
void wbt_init(struct sim *s);
int wbt_throttle(struct sim *s, struct sbio *b);	/* 1: go on; 0: the thread waits */
void wbt_read_issue(struct sim *s);			/* a read bio gets a request */
void wbt_bio_merged(struct sim *s, struct sbio *b);	/* a throttled bio merged after all */
void wbt_rq_issue(struct sim *s, const struct srq *r);	/* to the device */
void wbt_rq_requeue(struct sim *s, const struct srq *r);
void wbt_rq_complete(struct sim *s, const struct srq *r);	/* latency sample */
void wbt_rq_done(struct sim *s, struct srq *r);		/* completed or merged away */
void wbt_timer(struct sim *s, uint64_t gen);

/* sched_queue.c */
void sched_insert(struct sim *s, struct srq *r);
int sched_merge_bio(struct sim *s, struct sbio *b);	/* 1: merged */
void sched_hash_add(struct sim *s, struct srq *r);
void sched_hash_del(struct sim *s, struct srq *r);

/* plug.c */
void plug_start(struct sim *s, struct sthread *t);
void plug_finish(struct sim *s, struct sthread *t);
int plug_merge(struct sim *s, struct sbio *b);		/* 1: merged */
void plug_add(struct sim *s, struct sthread *t, struct srq *r);

/* readahead.c, for workload.c */
void ra_init(struct sim *s, struct sthread *t);
/* Application reads until the thread must wait; 1 when it has nothing left. */
int ra_reader_run(struct sim *s, struct sthread *t);
void ra_free(struct sthread *t);

/* workload.c, for readahead.c */
uint64_t wl_more(struct sim *s, struct sthread *t);	/* application I/Os left to start */
void wl_queue_bio(struct sthread *t, struct sbio *b);
int wl_submit_pending(struct sim *s, struct sthread *t);	/* 0: the thread sleeps */
uint64_t wl_think_ns(struct sim *s, const struct sthread *t);	/* --think */
struct sbio *wl_new_bio(struct sim *s, struct sthread *t, uint64_t off, uint32_t nr,
			void (*end_io)(struct sim *s, struct sbio *b));
int wl_build(struct sim *s);
void wl_thread_run(struct sim *s, struct sthread *t);
void wl_runtime_over(struct sim *s);
int wl_stop(struct sim *s);	/* 1: the cut came before a foreground share was done */
void wl_free(struct sim *s);

#endif
