// SPDX-License-Identifier: GPL-2.0
/*
 * Requests inside the policy: insertion, the back-merge hash (by end
 * sector) the host keeps itself, and merges of a bio into a queued request
 * (back merges found by the hash, front merges through the policy's
 * front_merge_candidate) and of two queued requests into one. As in the
 * kernel, requests of one direction and I/O priority merge, up to --max-kb,
 * whichever process they are of; under EK_POLICY_SAME_QUEUE_MERGES only
 * those the policy queues together.
 */
#include <string.h>
#include "sim_int.h"

static unsigned hkey(uint64_t end)
{
	return (unsigned)((end * 0x9E3779B97F4A7C15ULL) >> (64 - HASH_BITS));
}

void sched_hash_add(struct sim *s, struct srq *r)
{
	unsigned k = hkey(ek_rq_end(&r->rq));

	r->hnext = s->hash[k];
	s->hash[k] = r;
}

void sched_hash_del(struct sim *s, struct srq *r)
{
	struct srq **pp = &s->hash[hkey(ek_rq_end(&r->rq))];

	for (; *pp; pp = &(*pp)->hnext) {
		if (*pp == r) {
			*pp = r->hnext;
			r->hnext = NULL;
			return;
		}
	}
	sim_violation(s, "host: request missing from its merge hash");
}

/* A request's process context, as ek_merge_same_queue compares them. */
static const void *owner_ctx(const struct srq *r)
{
	return (const void *)(uintptr_t)r->rq.owner;
}

/* May b (a queued request, or a bio as one) join queued request a? */
static int mergeable(struct sim *s, const struct srq *a, const struct srq *b)
{
	return a->state == RQ_QUEUED && b->state == RQ_QUEUED &&
	       a->rq.dir == b->rq.dir &&
	       a->rq.kind == EK_KIND_NORMAL && b->rq.kind == EK_KIND_NORMAL &&
	       !a->rq.at_head && !b->rq.at_head &&
	       a->rq.prio_class == b->rq.prio_class &&
	       a->rq.prio_level == b->rq.prio_level &&
	       ek_merge_same_queue(s->pol, &a->rq, owner_ctx(a), b->rq.sync,
				   owner_ctx(b)) &&
	       (uint64_t)a->rq.nr_sectors + b->rq.nr_sectors <= s->max_sectors;
}

/* A queued request ending at `end` that can take `b` (or request b) at its back. */
static struct srq *hash_find(struct sim *s, uint64_t end, const struct srq *like)
{
	struct srq *r;

	for (r = s->hash[hkey(end)]; r; r = r->hnext)
		if (ek_rq_end(&r->rq) == end && r != like && mergeable(s, r, like))
			return r;
	return NULL;
}

void sched_insert(struct sim *s, struct srq *r)
{
	r->state = RQ_QUEUED;
	r->rq.arrival_ns = s->now;
	s->held++;
	s->res->inserted++;
	s->pol->insert(s->sd, &r->rq, s->now);
	sched_hash_add(s, r);
	if (s->cfg->hooks.on_insert)
		s->cfg->hooks.on_insert(s->cfg->hooks.arg, &r->rq, s->now);
}

/* next (queued, adjacent after rq) is absorbed into rq */
static void merge_requests(struct sim *s, struct srq *rq, struct srq *next)
{
	if (ek_rq_end(&rq->rq) != next->rq.sector) {
		sim_violation(s, "policy offered a non-adjacent request for merging");
		return;
	}
	sched_hash_del(s, rq);
	sched_hash_del(s, next);
	rq->rq.nr_sectors += next->rq.nr_sectors;
	s->pol->merged_requests(s->sd, &rq->rq, &next->rq);
	if (s->cfg->hooks.on_merged_away)
		s->cfg->hooks.on_merged_away(s->cfg->hooks.arg, &next->rq, &rq->rq, s->now);
	rq->bios_tail->next = next->bios;
	rq->bios_tail = next->bios_tail;
	next->bios = next->bios_tail = NULL;
	sched_hash_add(s, rq);
	s->held--;
	s->res->merged_away++;
	rq_release(s, next);
}

static struct srq *policy_front_candidate(struct sim *s, uint8_t dir, uint64_t end)
{
	struct ek_rq *c;
	struct srq *r;

	if (!s->pol->front_merge_candidate)
		return NULL;
	c = s->pol->front_merge_candidate(s->sd, dir, end);
	if (!c)
		return NULL;
	r = ek_container_of(c, struct srq, rq);
	if (r->state != RQ_QUEUED) {
		sim_violation(s, "front_merge_candidate returned a request not queued");
		return NULL;
	}
	if (c->sector != end || c->dir != dir) {
		sim_violation(s, "front_merge_candidate returned a request not at the end sector");
		return NULL;
	}
	return r;
}

int sched_merge_bio(struct sim *s, struct sbio *b)
{
	struct sthread *t = b->t;
	struct srq probe, *r, *nx;

	memset(&probe, 0, sizeof(probe));
	probe.state = RQ_QUEUED;
	probe.rq.dir = b->dir;
	probe.rq.owner = t->id + 1;
	probe.rq.sync = t->sync;
	probe.rq.prio_class = t->prio.cls;
	probe.rq.prio_level = t->prio.lvl;
	probe.rq.sector = b->sector;
	probe.rq.nr_sectors = b->nr;

	/* back merge: a queued request ending where the bio starts */
	r = hash_find(s, b->sector, &probe);
	if (r) {
		sched_hash_del(s, r);
		r->rq.nr_sectors += b->nr;
		r->bios_tail->next = b;
		r->bios_tail = b;
		b->next = NULL;
		sched_hash_add(s, r);
		if (s->pol->merged)
			s->pol->merged(s->sd, &r->rq, r->rq.sector);
		s->res->back_merges++;
		nx = policy_front_candidate(s, b->dir, ek_rq_end(&r->rq));
		if (nx && nx != r && mergeable(s, r, nx))
			merge_requests(s, r, nx);
		return 1;
	}

	/* front merge: a queued request starting where the bio ends */
	r = policy_front_candidate(s, b->dir, b->sector + b->nr);
	if (r && mergeable(s, r, &probe)) {
		uint64_t old = r->rq.sector;
		struct srq *pv;

		r->rq.sector = b->sector;
		r->rq.nr_sectors += b->nr;
		b->next = r->bios;
		r->bios = b;
		if (s->pol->merged)
			s->pol->merged(s->sd, &r->rq, old);
		s->res->front_merges++;
		pv = hash_find(s, r->rq.sector, r);
		if (pv)
			merge_requests(s, pv, r);
		return 1;
	}
	return 0;
}
