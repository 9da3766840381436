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
 * kernel's way instead: the tag goes back to the pool and sleepers wake,
 * to try again a random 0 to 2 x US later, or as long as a trace's
 * quantiles say (waitq_wake_delay(); wbt's wakes take as long unless
 * --wbt-wake-us), in a random order, so a submitter asking in
 * between (the reader whose read just completed) takes it first, and a
 * sleeper that finds none sleeps again at the back. Sleepers wake in
 * batches, as sbitmap wakes them: every wake_batch tags freed while anyone
 * sleeps wake wake_batch sleepers (6.2 on count per pool, 6.1 per wait
 * queue; one FIFO here for sbitmap's eight). wake_batch is the pool's
 * depth / 8, within 1..8, counting at most min_shallow_depth tags of each
 * sbitmap word: 1 for an elevator with limit_depth (the shim and
 * mq-deadline set min_shallow_depth to 1), 4 for none's driver tags at
 * depth 32. Until a batch is complete the tags freed meanwhile are free
 * to whoever asks, so a reader whose read just completed keeps its place.
 */
#include "sim_int.h"

/* sbq_calc_wake_batch(), for sbitmap's default word size of a depth */
static unsigned tags_wake_batch(unsigned depth, unsigned min_shallow)
{
	unsigned shift = 6, word, batch;

	if (depth >= 4)
		while ((4u << shift) > depth)
			shift--;
	word = 1u << shift;
	if (min_shallow < word)
		depth = (depth >> shift) * min_shallow +
			((depth & (word - 1)) < min_shallow ? depth & (word - 1) : min_shallow);
	batch = depth / 8;
	return batch < 1 ? 1 : batch > 8 ? 8 : batch;
}

void tags_init(struct sim *s)
{
	unsigned qd = s->qd < 128 ? s->qd : 128;

	if (s->cfg->nr_requests)
		s->tags.total = s->cfg->nr_requests;
	else if (s->pol->flags & EK_POLICY_AS_NONE)
		s->tags.total = s->qd;
	else
		s->tags.total = 2 * qd;
	/* the policy's own ops: s->pol has a default limit_depth filled in */
	s->tags.wake_batch = s->cfg->tag_wake_batch ? s->cfg->tag_wake_batch :
			     tags_wake_batch(s->tags.total,
					     s->cfg->policy->limit_depth ? 1 : ~0u);
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
		/* the kernel's way: wake a batch of sleepers to retry, hand them nothing */
		unsigned order[8], n, i;

		if (!s->tags.wait.head || ++s->tags.freed < s->tags.wake_batch)
			return;
		s->tags.freed = 0;
		n = s->tags.wake_batch < s->tags.wait.n ? s->tags.wake_batch : s->tags.wait.n;
		/* which woken task runs first is the CPU scheduler's pick: a random order */
		for (i = 0; i < n; i++) {
			unsigned j = (unsigned)(sim_rand(&s->rng) % (i + 1));

			if (j != i)	/* order[i] is not set yet */
				order[i] = order[j];
			order[j] = i;
		}
		for (i = 0; i < n; i++)
			waitq_wake_at(s, &s->tags.wait, &s->tags.wait.head,
				      s->now + waitq_wake_delay(s, s->cfg->tag_wake_us, &s->cfg->tag_wake_q) + order[i]);
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
