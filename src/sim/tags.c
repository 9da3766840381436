// SPDX-License-Identifier: GPL-2.0
/*
 * The shared request pool, as blk-mq's scheduler tags: one pool of
 * nr_requests for reads and writes alike, by default 2 x min(device queue
 * depth, 128) as blk_mq_init_sched() sizes it (BLKDEV_DEFAULT_RQ = 128), or
 * for a policy that stands for none (EK_POLICY_AS_NONE) the device's queue
 * depth, as elevator_disable() leaves it. An explicit --nr-requests is
 * taken as given, also there (the kernel refuses more than the queue
 * depth without an elevator; 2.4-style comparisons want 128). A
 * request holds its tag from allocation (in a plug, in the policy, on the
 * device) until it completes or is merged away.
 *
 * The policy's limit_depth may keep some requests (mq-deadline: all but
 * synchronous reads) to fewer tags; the kernel applies that as sbitmap's
 * shallow depth, here it is a count of requests allocated under a limit.
 *
 * Waiting: the kernel's sbitmap wakes sleepers roughly in order; here by
 * default a freed tag goes straight to the first waiter it fits (no
 * newcomer overtakes a waiter it would block), and a waiter kept back by a
 * limit does not block one behind it that is not. With --tag-wake-us the
 * kernel's way instead: the tag goes back to the pool and the first
 * sleeper wakes, to try again that much later, so a submitter asking in
 * between (the reader whose read just completed) takes it first, and a
 * sleeper that finds none sleeps again at the back. One sleeper per freed
 * tag: sbitmap's wake_batch is 1 once min_shallow_depth is 1, as the shim
 * and mq-deadline set it (none's driver tags wake 4 at a time at depth
 * 32; not modelled).
 */
#include "sim_int.h"

void tags_init(struct sim *s)
{
	unsigned qd = s->qd < 128 ? s->qd : 128;

	if (s->cfg->nr_requests)
		s->tags.total = s->cfg->nr_requests;
	else if (s->pol->flags & EK_POLICY_AS_NONE)
		s->tags.total = s->qd;
	else
		s->tags.total = 2 * qd;
}

static ek_u32 tag_limit(struct sim *s, uint8_t dir, uint8_t sync)
{
	return s->pol->limit_depth && ek_limit_applies(dir, sync) ?
	       s->pol->limit_depth(s->sd, dir, sync) : 0;
}

static int tag_fits(const struct sim *s, ek_u32 limit)
{
	return s->tags.used < s->tags.total && (!limit || s->tags.limited < limit);
}

static void tag_take(struct sim *s, ek_u32 limit)
{
	s->tags.used++;
	if (limit)
		s->tags.limited++;
	if (s->tags.used > s->res->tags_max)
		s->res->tags_max = s->tags.used;
	if (s->tags.limited > s->res->tags_limited_max)
		s->res->tags_limited_max = s->tags.limited;
}

/* 1: t has a tag for a request of (dir, sync); 0: t sleeps until it is handed one. */
int tag_get(struct sim *s, struct sthread *t, uint8_t dir, uint8_t sync, uint8_t *limited)
{
	ek_u32 limit;

	if (t->tag_reserved) {
		t->tag_reserved = 0;
		*limited = t->tag_res_limited;
		return 1;
	}
	limit = tag_limit(s, dir, sync);
	if (tag_fits(s, limit)) {
		tag_take(s, limit);
		*limited = limit != 0;
		return 1;
	}
	t->want_dir = dir;
	t->want_sync = sync;
	s->res->tag_waits++;
	waitq_add(&s->tags.wait, t);
	return 0;
}

void tag_put(struct sim *s, uint8_t limited)
{
	struct sthread **pp;

	s->tags.used--;
	if (limited)
		s->tags.limited--;
	if (s->cfg->tag_wake_us >= 0) {
		/* the kernel's way: wake the first sleeper to retry, hand it nothing */
		if (s->tags.wait.head)
			waitq_wake_at(s, &s->tags.wait, &s->tags.wait.head,
				      s->now + (uint64_t)s->cfg->tag_wake_us * 1000);
		return;
	}
	for (pp = &s->tags.wait.head; *pp; pp = &(*pp)->wnext) {
		struct sthread *t = *pp;
		ek_u32 limit = tag_limit(s, t->want_dir, t->want_sync);

		if (tag_fits(s, limit)) {
			tag_take(s, limit);
			t->tag_reserved = 1;
			t->tag_res_limited = limit != 0;
			waitq_wake(s, &s->tags.wait, pp);
			return;
		}
	}
}

/* t was handed a tag but its bio merged after all: pass the tag on. */
void tag_unreserve(struct sim *s, struct sthread *t)
{
	if (t->tag_reserved) {
		t->tag_reserved = 0;
		tag_put(s, t->tag_res_limited);
	}
}
