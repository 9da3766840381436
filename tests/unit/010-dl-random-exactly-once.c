/* DESCRIPTION: deadline-read: thousands of random mixed requests, merges, requeues: each leaves exactly once */
#include "testhost.h"

#define MS EK_NSEC_PER_MSEC
#define POOL 60000
#define MAX_INFLIGHT 32

static struct ek_rq *queued[POOL];	/* requests the policy holds */
static unsigned int qpos[POOL], nq;
static struct ek_rq *inflight[MAX_INFLIGHT];
static ek_u64 done_at[MAX_INFLIGHT];
static unsigned int nif;

static void q_add(struct ek_rq *rq)
{
	qpos[th_of(rq)->id] = nq;
	queued[nq++] = rq;
}

static void q_del(struct ek_rq *rq)
{
	unsigned int i = qpos[th_of(rq)->id];

	TH_CHECK(i < nq && queued[i] == rq, "test bookkeeping broken");
	queued[i] = queued[--nq];
	qpos[th_of(queued[i])->id] = i;
}

static int mergeable(const struct ek_rq *rq)
{
	return rq->kind == EK_KIND_NORMAL && !rq->at_head;
}

/* A random queued request that could take part in a merge, or NULL. */
static struct ek_rq *pick_mergeable(ek_u64 *rng)
{
	unsigned int tries;

	for (tries = 0; nq && tries < 8; tries++) {
		struct ek_rq *rq = queued[ek_rand_below(rng, nq)];

		if (mergeable(rq))
			return rq;
	}
	return NULL;
}

static void run(uint64_t seed, unsigned int steps)
{
	struct th *th = th_new(&ek_deadline_read_policy, POOL);
	ek_u64 rng = seed;
	unsigned int step, i, depth = 1 + (unsigned int)(seed % MAX_INFLIGHT);
	ek_u64 hot = 0;
	struct ek_rq *rq, *x;

	nq = 0;
	nif = 0;
	th_start(th);
	for (step = 0; step < steps && th->pool_used < POOL - 4; step++) {
		unsigned int r = (unsigned int)ek_rand_below(&rng, 1000);

		/* Completions that are due. */
		for (i = 0; i < nif;) {
			if (done_at[i] <= th->now) {
				th_complete(th, inflight[i]);
				inflight[i] = inflight[--nif];
				done_at[i] = done_at[nif];
			} else {
				i++;
			}
		}

		if (r < 450) {
			/* A new request, often near the last one (streams). */
			ek_u8 dir = ek_rand_below(&rng, 100) < 60 ? EK_READ : EK_WRITE;
			ek_u64 sector = ek_rand_below(&rng, 4) ?
				hot + ek_rand_below(&rng, 4096) :
				ek_rand_below(&rng, 1ULL << 32);

			hot = sector;
			rq = th_rq_new(th, dir, sector,
				       1 + (ek_u32)ek_rand_below(&rng, 256));
			i = (unsigned int)ek_rand_below(&rng, 100);
			if (i < 2)
				rq->kind = EK_KIND_FLUSH;
			else if (i < 3)
				rq->kind = EK_KIND_PASSTHROUGH;
			else if (i < 4)
				rq->at_head = 1;
			th_insert(th, rq);
			q_add(rq);
		} else if (r < 530) {
			/* A bio just in front of a queued request. */
			x = pick_mergeable(&rng);
			if (x && x->sector >= 8) {
				ek_u32 n = 1 + (ek_u32)ek_rand_below(&rng, 8);

				rq = th_front_merge(th, x->dir, x->sector - n, n);
				TH_CHECK(rq || !th->values[th_tunable_index(th, "front_merges")],
					 "no front merge candidate at %llu",
					 (unsigned long long)x->sector);
			}
		} else if (r < 580) {
			x = pick_mergeable(&rng);
			if (x)
				th_back_merge(th, x, 1 + (ek_u32)ek_rand_below(&rng, 8));
		} else if (r < 620) {
			/* A request just behind a queued one, merged into it. */
			x = pick_mergeable(&rng);
			if (x) {
				th_advance(th, ek_rand_below(&rng, 2 * MS));
				rq = th_add(th, x->dir, ek_rq_end(x), 8);
				/* Sometimes left for the neighbour merge below. */
				if (ek_rand_below(&rng, 2))
					th_merge_requests(th, x, rq);
				else
					q_add(rq);
			}
		} else if (r < 650) {
			/* Merge two queued neighbours if the policy has one. */
			x = pick_mergeable(&rng);
			if (x && th->pol->front_merge_candidate) {
				rq = th->pol->front_merge_candidate(th->sd, x->dir,
								    ek_rq_end(x));
				if (rq && rq != x) {
					th_merge_requests(th, x, rq);
					q_del(rq);
				}
			}
		} else if (r < 900) {
			while (nif < depth && (rq = th_dispatch(th))) {
				q_del(rq);
				inflight[nif] = rq;
				done_at[nif++] = th->now + 100 * EK_NSEC_PER_USEC +
					ek_rand_below(&rng, 10 * MS);
			}
		} else if (r < 970) {
			th_advance(th, ek_rand_below(&rng, 20 * MS));
		} else if (r < 980) {
			/* The device gives one back. */
			if (nif) {
				i = (unsigned int)ek_rand_below(&rng, nif);
				rq = inflight[i];
				inflight[i] = inflight[--nif];
				done_at[i] = done_at[nif];
				rq->at_head = (ek_u8)ek_rand_below(&rng, 2);
				th_requeue(th, rq);
				q_add(rq);
			}
		} else if (r < 990) {
			/*
			 * Any tunable to any in-range value, mid-flight. Drawn
			 * among tunables and counters, the way the seeds'
			 * sequences were made; a counter is skipped.
			 */
			i = (unsigned int)ek_rand_below(&rng, th->pol->nr_tunables +
							th->pol->nr_counters);
			if (i < th->pol->nr_tunables) {
				const struct ek_tunable *t = &th->pol->tunables[i];
				ek_s64 span = t->max - t->min;
				ek_s64 v = t->min + (ek_s64)ek_rand_below(&rng,
					(uint64_t)(span < 300 ? span + 1 : 300));

				TH_CHECK(th_set(th, t->name, v) == 0,
					 "%s=%lld refused", t->name, (long long)v);
			}
		} else {
			TH_CHECK(th->pol->has_work(th->sd, th->now) == (nq > 0),
				 "has_work %d with %u queued",
				 th->pol->has_work(th->sd, th->now), nq);
		}
	}
	/* Wind down: finish what is in flight, dispatch the rest. */
	for (i = 0; i < nif; i++)
		th_complete(th, inflight[i]);
	while ((rq = th_dispatch(th))) {
		q_del(rq);
		th_complete(th, rq);
	}
	TH_CHECK(nq == 0, "%u requests never dispatched", nq);
	TH_CHECK(th->timer_arms == 0 && th->kicks == 0,
		 "deadline-read used the timer (%lu) or kick (%lu)",
		 th->timer_arms, th->kicks);
	printf("seed %llu: %lu inserted, %lu dispatched, %lu merged\n",
	       (unsigned long long)seed, th->inserted, th->dispatched,
	       th->merged);
	th_finish(th);
}

int main(void)
{
	uint64_t seed;

	for (seed = 1; seed <= 6; seed++)
		run(seed * 7919, 40000);
	printf("ok\n");
	return 0;
}
