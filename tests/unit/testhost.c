// SPDX-License-Identifier: GPL-2.0
/* The fake host for policy unit tests; see testhost.h. */
#include <stdarg.h>
#include <string.h>

#include "testhost.h"

void th_fail_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "FAIL: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static struct th *th_from_host(struct ek_host *host)
{
	return host->host_data;
}

static void th_timer_arm(struct ek_host *host, ek_u64 when_ns)
{
	struct th *th = th_from_host(host);

	TH_CHECK(!host->tick_time, "%s armed its timer with tick_time set",
		 th->ops.name);
	th->timer_armed = 1;
	th->timer_when = when_ns;
	th->timer_arms++;
}

static void th_timer_cancel(struct ek_host *host)
{
	struct th *th = th_from_host(host);

	th->timer_armed = 0;
	th->timer_cancels++;
}

static void th_kick(struct ek_host *host)
{
	th_from_host(host)->kicks++;
}

static ek_u64 th_now(struct ek_host *host)
{
	struct th *th = th_from_host(host);

	th->now_reads++;
	return th->now;
}

static const struct ek_host_ops th_ops = {
	.timer_arm = th_timer_arm,
	.timer_cancel = th_timer_cancel,
	.kick = th_kick,
	.now = th_now,
};

struct th *th_new(const struct ek_policy *pol, unsigned int pool_size)
{
	struct th *th = calloc(1, sizeof(*th));
	const char *why;

	TH_CHECK(th, "out of memory");
	TH_CHECK(!ek_policy_load(&th->ops, pol, &why),
		 "%s breaks the contract: %s", pol->name, why);
	th->pol = &th->ops;
	pol = th->pol;
	th->pool_size = pool_size;
	th->pool = calloc(pool_size ? pool_size : 1, sizeof(*th->pool));
	TH_CHECK(th->pool, "out of memory");
	th->host.ops = &th_ops;
	th->host.dev.rotational = 1;
	th->host.dev.queue_depth = 1;
	th->host.dev.nr_requests = 256;
	th->host.host_data = th;
	ek_tunables_default(pol, th->values);
	return th;
}

int th_tunable_index(const struct th *th, const char *name)
{
	int i = ek_tunable_find(th->pol, name);

	TH_CHECK(i >= 0, "%s: no tunable \"%s\"", th->pol->name, name);
	return i;
}

void th_preset(struct th *th, const char *name, ek_s64 value)
{
	int i = th_tunable_index(th, name);

	TH_CHECK(!th->started, "th_preset after th_start");
	TH_CHECK(!ek_tunable_set(th->pol, NULL, th->values, (ek_u32)i, value),
		 "preset %s=%lld out of range", name, (long long)value);
}

void th_start(struct th *th)
{
	int ret;

	TH_CHECK(!th->started, "started twice");
	th->sd = calloc(1, th->pol->sched_size ? th->pol->sched_size : 1);
	TH_CHECK(th->sd, "out of memory");
	ret = th->pol->init(th->sd, &th->host, th->values);
	TH_CHECK(ret == 0, "%s: init returned %d", th->pol->name, ret);
	th->started = 1;
}

int th_set(struct th *th, const char *name, ek_s64 value)
{
	TH_CHECK(th->started, "th_set before th_start");
	/* As the kernel shim: counters are read-only, writes are refused. */
	if (ek_counter_find(th->pol, name) >= 0)
		return -1;
	/* Out-of-range writes are refused too, the old value kept. */
	return ek_tunable_set(th->pol, th->sd, th->values,
			      (ek_u32)th_tunable_index(th, name), value) ? -1 : 0;
}

ek_u64 th_stat(struct th *th, const char *name)
{
	int i = ek_counter_find(th->pol, name);

	TH_CHECK(i >= 0, "%s: no counter \"%s\"", th->pol->name, name);
	return th->pol->read_counter(th->sd, (ek_u32)i);
}

void th_advance(struct th *th, ek_u64 ns)
{
	th->now += ns;
}

void th_advance_to(struct th *th, ek_u64 now)
{
	TH_CHECK(now >= th->now, "time going backwards");
	th->now = now;
}

static struct th_rq *th_own(struct th *th, struct ek_rq *rq,
			    const char *what);

static void th_rq_fill(struct th_rq *t, ek_u8 dir, ek_u64 sector,
		       ek_u32 nr_sectors)
{
	memset(&t->rq, 0, sizeof(t->rq));
	ek_rq_poison_policy(&t->rq);
	t->state = TH_FREE;
	t->dispatches = 0;
	t->requeues = 0;
	t->rq.sector = sector;
	t->rq.nr_sectors = nr_sectors;
	t->rq.dir = dir;
	t->rq.sync = dir == EK_READ;
	t->rq.kind = EK_KIND_NORMAL;
	t->rq.prio_class = EK_PRIO_BE;
	t->rq.prio_level = 4;
	t->rq.owner = 1;
	t->rq.host_rq = t;
}

struct ek_rq *th_rq_new(struct th *th, ek_u8 dir, ek_u64 sector,
			ek_u32 nr_sectors)
{
	struct th_rq *t;

	TH_CHECK(th->pool_used < th->pool_size, "request pool (%u) exhausted",
		 th->pool_size);
	t = &th->pool[th->pool_used];
	t->id = th->pool_used++;
	th_rq_fill(t, dir, sector, nr_sectors);
	return &t->rq;
}

struct ek_rq *th_rq_recycle(struct th *th, struct ek_rq *rq, ek_u8 dir,
			    ek_u64 sector, ek_u32 nr_sectors)
{
	struct th_rq *t = th_own(th, rq, "recycle");

	TH_CHECK(t->state == TH_COMPLETED || t->state == TH_MERGED,
		 "recycle of request %u in state %d", t->id, t->state);
	th_rq_fill(t, dir, sector, nr_sectors);
	return &t->rq;
}

/* rq must be one of ours: the policy must not invent or corrupt pointers. */
static struct th_rq *th_own(struct th *th, struct ek_rq *rq, const char *what)
{
	struct th_rq *t = rq ? th_of(rq) : NULL;
	uintptr_t p = (uintptr_t)t, lo = (uintptr_t)th->pool;

	TH_CHECK(t && p >= lo &&
		 p < (uintptr_t)(th->pool + th->pool_used) &&
		 (p - lo) % sizeof(*t) == 0 && &t->rq == rq,
		 "%s: %p is not a request of this host", what, (void *)rq);
	return t;
}

void th_insert(struct th *th, struct ek_rq *rq)
{
	struct th_rq *t = th_own(th, rq, "insert");

	TH_CHECK(t->state == TH_FREE || t->state == TH_DISPATCHED,
		 "insert of request %u in state %d", t->id, t->state);
	if (t->state == TH_FREE) {
		rq->arrival_ns = th->now;
		th->inserted++;
	}
	/* As every host: the mark says whether this insert follows a requeue. */
	rq->requeued = t->state == TH_DISPATCHED;
	t->state = TH_QUEUED;
	th->queued++;
	th->pol->insert(th->sd, rq, th->now);
}

struct ek_rq *th_add(struct th *th, ek_u8 dir, ek_u64 sector,
		     ek_u32 nr_sectors)
{
	struct ek_rq *rq = th_rq_new(th, dir, sector, nr_sectors);

	th_insert(th, rq);
	return rq;
}

/* The claim of EK_POLICY_NEVER_IDLES or host.never_idles, made earlier. */
static void th_check_never_idles(struct th *th, int claimed, int hw)
{
	TH_CHECK(!claimed || !th->queued || hw,
		 "%s: has_work(%llu) false with %lu queued, claimed never to idle",
		 th->ops.name, (unsigned long long)th->now, th->queued);
}

struct ek_rq *th_dispatch(struct th *th)
{
	int claimed = ek_policy_never_idles(th->pol, &th->host);
	int hw = th->pol->has_work(th->sd, th->now);
	struct ek_rq *rq;
	struct th_rq *t;

	th_check_never_idles(th, claimed, hw);
	rq = th->pol->dispatch(th->sd, th->now);

	TH_CHECK(!!hw == !!rq,
		 "has_work(%llu) = %d but dispatch returned %p (%lu queued)",
		 (unsigned long long)th->now, hw, (void *)rq, th->queued);
	if (!rq)
		return NULL;
	t = th_own(th, rq, "dispatch");
	TH_CHECK(t->state == TH_QUEUED,
		 "dispatch returned request %u in state %d (not queued)",
		 t->id, t->state);
	t->state = TH_DISPATCHED;
	t->dispatches++;
	rq->dispatch_ns = th->now;
	th->queued--;
	th->dispatched++;
	return rq;
}

struct ek_rq *th_expect_at(const char *file, int line, struct th *th,
			   struct ek_rq *want, const char *what)
{
	struct ek_rq *rq = th_dispatch(th);

	if (rq != want)
		th_fail_at(file, line, "at %llu ns expected %s, got sector %llu",
			   (unsigned long long)th->now, what,
			   rq ? (unsigned long long)rq->sector : 0ULL);
	return rq;
}

void th_complete(struct th *th, struct ek_rq *rq)
{
	struct th_rq *t = th_own(th, rq, "complete");
	int claimed, hw;

	TH_CHECK(t->state == TH_DISPATCHED, "complete of request %u in state %d",
		 t->id, t->state);
	t->state = TH_COMPLETED;
	th->completed++;
	if (!ek_policy_complete(th->pol, th->sd, rq, th->now,
				th->unstamped ? 0 : th->now))
		return;
	th->completed_unlocked++;
	/*
	 * The kernel shim's look after an unlocked completion (it asks only
	 * if the last answer was "no": then this is its kick).
	 */
	claimed = ek_policy_never_idles(th->pol, &th->host);
	hw = th->queued && th->pol->has_work(th->sd, th->now);
	th_check_never_idles(th, claimed, hw);
	if (hw)
		th->kicks++;
}

void th_requeue(struct th *th, struct ek_rq *rq)
{
	struct th_rq *t = th_own(th, rq, "requeue");

	TH_CHECK(t->state == TH_DISPATCHED, "requeue of request %u in state %d",
		 t->id, t->state);
	t->requeues++;
	th->dispatched--;
	th->pol->requeue(th->sd, rq, th->now);
	th_insert(th, rq);
}

struct ek_rq *th_front_merge(struct th *th, ek_u8 dir, ek_u64 sector,
			     ek_u32 nr)
{
	struct ek_rq *rq;
	struct th_rq *t;
	ek_u64 old;

	rq = th->pol->front_merge_candidate(th->sd, dir, sector + nr);
	if (!rq)
		return NULL;
	t = th_own(th, rq, "front_merge_candidate");
	TH_CHECK(t->state == TH_QUEUED,
		 "front merge candidate %u in state %d", t->id, t->state);
	TH_CHECK(rq->dir == dir && rq->sector == sector + nr,
		 "front merge candidate %u: dir %u sector %llu, wanted dir %u sector %llu",
		 t->id, rq->dir, (unsigned long long)rq->sector, dir,
		 (unsigned long long)(sector + nr));
	TH_CHECK(rq->kind == EK_KIND_NORMAL,
		 "front merge candidate %u is not a normal request", t->id);
	old = rq->sector;
	rq->sector = sector;
	rq->nr_sectors += nr;
	th->pol->merged(th->sd, rq, old);
	return rq;
}

void th_back_merge(struct th *th, struct ek_rq *rq, ek_u32 nr)
{
	struct th_rq *t = th_own(th, rq, "back merge");

	TH_CHECK(t->state == TH_QUEUED, "back merge into request %u in state %d",
		 t->id, t->state);
	rq->nr_sectors += nr;
	th->pol->merged(th->sd, rq, rq->sector);
}

void th_merge_requests(struct th *th, struct ek_rq *rq, struct ek_rq *next)
{
	struct th_rq *t = th_own(th, rq, "merge");
	struct th_rq *n = th_own(th, next, "merge");

	TH_CHECK(t->state == TH_QUEUED && n->state == TH_QUEUED,
		 "merge of requests %u (state %d) and %u (state %d)",
		 t->id, t->state, n->id, n->state);
	/* rq == next: gone, absorbed by a request the host cannot name */
	if (t != n)
		rq->nr_sectors += next->nr_sectors;
	th->pol->merged_requests(th->sd, rq, next);
	n->state = TH_MERGED;
	th->queued--;
	th->merged++;
}

unsigned int th_drain(struct th *th)
{
	struct ek_rq *rq;
	unsigned int n = 0;

	while ((rq = th_dispatch(th))) {
		th_complete(th, rq);
		n++;
	}
	return n;
}

void th_finish(struct th *th)
{
	unsigned int i;

	TH_CHECK(!th->pol->has_work(th->sd, th->now),
		 "has_work true with %lu queued", th->queued);
	TH_CHECK(!th->pol->dispatch(th->sd, th->now),
		 "dispatch returned a request with %lu queued", th->queued);
	TH_CHECK(th->queued == 0, "%lu requests still queued", th->queued);
	for (i = 0; i < th->pool_used; i++) {
		struct th_rq *t = &th->pool[i];

		if (t->state == TH_FREE)
			continue;
		TH_CHECK(t->state == TH_DISPATCHED || t->state == TH_COMPLETED ||
			 t->state == TH_MERGED,
			 "request %u ended in state %d", i, t->state);
		TH_CHECK(t->state == TH_MERGED ?
			 t->dispatches == t->requeues :
			 t->dispatches == t->requeues + 1,
			 "request %u dispatched %u times, requeued %u",
			 i, t->dispatches, t->requeues);
	}
	TH_CHECK(th->dispatched + th->merged == th->inserted,
		 "%lu inserted but %lu dispatched + %lu merged",
		 th->inserted, th->dispatched, th->merged);
	th->pol->exit(th->sd);
	free(th->sd);
	free(th->pool);
	free(th);
}
