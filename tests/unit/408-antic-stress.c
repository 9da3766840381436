/* DESCRIPTION: anticipatory: random readers, writers, specials, merges, requeues, exits and tunable changes keep every invariant and never stall */
#include "antic.h"

#define NPROC 6
#define DEPTH_MAX 4
#define STEPS 20000

struct proc {
	struct ek_pctx *p;
	ek_u64 next;
	int seq;
	int outstanding;
};

static struct ek_rq *flight[DEPTH_MAX];
static ek_u64 flight_done[DEPTH_MAX];

/* A queued normal request, or NULL. */
static struct ek_rq *some_queued(struct th *th, ek_u64 *seed)
{
	unsigned int i, n = th->pool_used;
	unsigned int start;

	if (!n)
		return NULL;
	start = (unsigned int)ek_rand_below(seed, n);
	for (i = 0; i < n; i++) {
		struct th_rq *t = &th->pool[(start + i) % n];

		if (t->state == TH_QUEUED && t->rq.kind == EK_KIND_NORMAL &&
		    !t->rq.at_head && !t->requeues)
			return &t->rq;
	}
	return NULL;
}

static void run(uint64_t seed0, unsigned int depth, int rotational)
{
	ek_u64 seed = seed0;
	struct th *th = th_new(&ek_anticipatory_policy, STEPS * 2);
	struct proc pr[NPROC];
	struct ek_pctx *graveyard[STEPS];
	unsigned int ngrave = 0, i, step;
	unsigned long stalls_checked = 0;

	th->host.dev.rotational = (ek_u8)rotational;
	th->host.dev.queue_depth = depth;
	th_start(th);
	for (i = 0; i < NPROC; i++)
		pr[i] = (struct proc){ ah_pctx_new(th, i + 1),
			ek_rand_below(&seed, 1 << 24), (int)(i & 1), 0 };
	memset(flight, 0, sizeof(flight));

	for (step = 0; step < STEPS; step++) {
		uint64_t r = ek_rand_below(&seed, 100);
		struct ek_rq *rq;

		if (r < 30) {			/* a process reads */
			struct proc *x = &pr[ek_rand_below(&seed, NPROC)];

			if (!x->seq)
				x->next = ek_rand_below(&seed, 1 << 26);
			rq = ah_read(th, ek_rand_below(&seed, 10) ? x->p : NULL,
				     x->next, 8);
			x->next += 8;
		} else if (r < 40) {		/* someone writes */
			rq = ah_write(th, pr[ek_rand_below(&seed, NPROC)].p,
				      ek_rand_below(&seed, 1 << 26), 8);
			if (ek_rand_below(&seed, 3) == 0) {
				/* and the next piece, merged into it */
				struct ek_rq *n = ah_write(th, NULL, ek_rq_end(rq), 8);

				th_merge_requests(th, rq, n);
			}
		} else if (r < 43) {		/* a special */
			rq = th_rq_new(th, EK_WRITE, 0, 0);
			rq->kind = (ek_u8)(1 + ek_rand_below(&seed, 2));
			rq->at_head = (ek_u8)ek_rand_below(&seed, 2);
			th_insert(th, rq);
		} else if (r < 48) {		/* merges */
			rq = some_queued(th, &seed);
			if (rq && ek_rand_below(&seed, 2))
				th_back_merge(th, rq, 8);
			else if (rq && rq->sector >= 8)
				th_front_merge(th, rq->dir, rq->sector - 8, 8);
		} else if (r < 50) {		/* a process exits, another starts */
			struct proc *x = &pr[ek_rand_below(&seed, NPROC)];

			ah_pctx_exit(th, x->p);
			graveyard[ngrave++] = x->p;	/* requests may hold it */
			x->p = ah_pctx_new(th, 100 + step);
		} else if (r < 51) {		/* tunables */
			static const char *const names[] = {
				"antic_expire", "read_expire", "write_expire",
				"read_batch_expire", "write_batch_expire",
				"antic_nonrot",
			};
			unsigned int k = (unsigned int)ek_rand_below(&seed, 6);
			ek_s64 v = k == 5 ? (ek_s64)ek_rand_below(&seed, 2) :
				   1 + (ek_s64)ek_rand_below(&seed, k ? 300 : 12);

			TH_CHECK(th_set(th, names[k], v) == 0, "set refused");
		} else if (r < 53) {		/* a requeue */
			i = (unsigned int)ek_rand_below(&seed, depth);
			if (flight[i]) {
				th_requeue(th, flight[i]);
				flight[i] = NULL;
			}
		} else {			/* time passes: completions, dispatch */
			th_advance(th, ek_rand_below(&seed, 3 * MS));
		}

		if (th->timer_armed && th->timer_when <= th->now)
			th->timer_armed = 0;
		for (i = 0; i < depth; i++)
			if (flight[i] && flight_done[i] <= th->now) {
				th_complete(th, flight[i]);
				flight[i] = NULL;
			}
		for (i = 0; i < depth; i++)
			if (!flight[i] && (rq = th_dispatch(th))) {
				flight[i] = rq;
				flight_done[i] = th->now + 100 * US +
					ek_rand_below(&seed, 8 * MS);
			}
		/* Idle device, work queued: a timer must be coming. */
		for (i = 0; i < depth && !flight[i]; i++)
			;
		if (i == depth && th->queued) {
			stalls_checked++;
			TH_CHECK(th->timer_armed,
				 "seed %llu step %u: stall, %lu queued, idle, no timer",
				 (unsigned long long)seed0, step, th->queued);
		}
		ah_check_stats(th);
	}
	/* Finish: complete everything, follow the timer. */
	for (i = 0; i < depth; i++)
		if (flight[i])
			th_complete(th, flight[i]);
	while (th->queued) {
		struct ek_rq *rq = th_dispatch(th);

		if (rq) {
			th_complete(th, rq);
			continue;
		}
		TH_CHECK(th->timer_armed, "stall while draining");
		ah_fire(th);
	}
	printf("seed %llu depth %u rot %d: %lu dispatched, %lu merged, idle-with-work checks %lu; ",
	       (unsigned long long)seed0, depth, rotational, th->dispatched,
	       th->merged, stalls_checked);
	ah_print_stats(th);
	th_finish(th);
	for (i = 0; i < NPROC; i++)
		free(pr[i].p);
	for (i = 0; i < ngrave; i++)
		free(graveyard[i]);
}

int main(void)
{
	uint64_t seed;

	for (seed = 1; seed <= 6; seed++)
		run(seed, 1 + (unsigned int)(seed % DEPTH_MAX), seed != 5);
	printf("ok\n");
	return 0;
}
