/* DESCRIPTION: fair-queue: random processes (classes, levels, sync/async, exits, no context), merges, requeues, tunable changes, rotational and not: every request leaves exactly once, contexts are freed as soon as they may be */
#include "fq.h"

#define POOL 60000
#define NPROC 24
#define MAX_INFLIGHT 32

static struct ek_rq *queued[POOL];
static unsigned int qpos[POOL], nq;
static struct ek_rq *inflight[MAX_INFLIGHT];
static ek_u64 done_at[MAX_INFLIGHT];
static unsigned int nif;
/* Live processes; exited ones stay allocated (their requests point here). */
static struct fqt_proc *procs[NPROC];
static struct fqt_proc *all[NPROC + 4000];
static unsigned int nall;

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

/* A queued normal request and one that may merge behind it. */
static struct ek_rq *pick_mergeable(ek_u64 *rng)
{
	unsigned int tries;

	for (tries = 0; nq && tries < 8; tries++) {
		struct ek_rq *rq = queued[ek_rand_below(rng, nq)];

		if (rq->kind == EK_KIND_NORMAL && !rq->at_head)
			return rq;
	}
	return NULL;
}

static struct fqt_proc *new_proc(struct th *th, ek_u64 *rng, ek_u32 owner)
{
	struct fqt_proc *pr = calloc(1, sizeof(*pr));

	static const ek_u8 classes[] = {
		EK_PRIO_NONE, EK_PRIO_RT, EK_PRIO_BE, EK_PRIO_BE, EK_PRIO_IDLE,
	};

	TH_CHECK(pr, "out of memory");
	fqt_proc_init(th, pr, owner);
	pr->cls = classes[ek_rand_below(rng, sizeof(classes))];
	pr->lvl = (ek_u8)ek_rand_below(rng, 8);
	pr->next = ek_rand_below(rng, 1ULL << 30);
	TH_CHECK(nall < sizeof(all) / sizeof(all[0]), "too many processes");
	all[nall++] = pr;
	return pr;
}

static void complete_due(struct th *th)
{
	unsigned int i;

	for (i = 0; i < nif;) {
		if (done_at[i] <= th->now) {
			fqt_complete(th, inflight[i]);
			inflight[i] = inflight[--nif];
			done_at[i] = done_at[nif];
		} else {
			i++;
		}
	}
}

static void run(ek_u64 seed, unsigned int steps)
{
	struct th *th = th_new(&ek_fair_queue_policy, POOL);
	ek_u64 rng = seed;
	unsigned int step, i, depth = 1 + (unsigned int)(seed % MAX_INFLIGHT);
	ek_u32 owner = 1;
	struct ek_rq *rq, *x;

	th->host.dev.rotational = (ek_u8)(seed & 1);
	th->host.dev.queue_depth = depth;
	nq = 0;
	nif = 0;
	nall = 0;
	th_start(th);
	for (i = 0; i < NPROC; i++)
		procs[i] = new_proc(th, &rng, owner++);

	for (step = 0; step < steps && th->pool_used < POOL - 4; step++) {
		unsigned int r = (unsigned int)ek_rand_below(&rng, 1000);
		unsigned int k = (unsigned int)ek_rand_below(&rng, NPROC);
		struct fqt_proc *pr = procs[k];

		complete_due(th);
		if (r < 420) {
			/* A request, mostly sequential for its process. */
			ek_u32 nr = 1 + (ek_u32)ek_rand_below(&rng, 256);

			pr->dir = ek_rand_below(&rng, 100) < 70 ? EK_READ : EK_WRITE;
			pr->sync = pr->dir == EK_READ || ek_rand_below(&rng, 4) == 0;
			if (ek_rand_below(&rng, 5) == 0)
				pr->next = ek_rand_below(&rng, 1ULL << 32);
			rq = fqt_rq(th, pr, pr->next, nr);
			pr->next += nr;
			i = (unsigned int)ek_rand_below(&rng, 100);
			if (i < 2)
				rq->kind = EK_KIND_FLUSH;
			else if (i < 3)
				rq->kind = EK_KIND_PASSTHROUGH;
			else if (i < 4)
				rq->at_head = 1;
			else if (i < 6)
				rq->pctx = NULL;	/* no context: shared queue */
			th_insert(th, rq);
			q_add(rq);
		} else if (r < 480) {
			x = pick_mergeable(&rng);
			if (x)
				th_back_merge(th, x, 1 + (ek_u32)ek_rand_below(&rng, 8));
		} else if (r < 520) {
			/* A request just behind a queued one, merged into it. */
			x = pick_mergeable(&rng);
			if (x && !fqt_proc_of(x)->exited) {
				struct fqt_proc *o = fqt_proc_of(x);

				o->dir = x->dir;
				o->sync = x->sync;
				rq = fqt_rq(th, o, ek_rq_end(x), 8);
				rq->prio_class = x->prio_class;
				rq->pctx = x->pctx;
				th_insert(th, rq);
				th_merge_requests(th, x, rq);
				fqt_release(rq);
			}
		} else if (r < 540) {
			/* The kernel merges across processes, too. */
			x = pick_mergeable(&rng);
			rq = pick_mergeable(&rng);
			if (x && rq && x != rq && x->dir == rq->dir) {
				th_merge_requests(th, x, rq);
				q_del(rq);
				fqt_release(rq);
			}
		} else if (r < 820) {
			while (nif < depth && (rq = th_dispatch(th))) {
				q_del(rq);
				inflight[nif] = rq;
				done_at[nif++] = th->now + 100 * US +
					ek_rand_below(&rng, 10 * MS);
			}
		} else if (r < 900) {
			th_advance(th, ek_rand_below(&rng, 20 * MS));
		} else if (r < 915) {
			if (th->timer_armed) {
				th_advance_to(th, th->timer_when > th->now ?
					      th->timer_when : th->now);
				th->timer_armed = 0;
			}
		} else if (r < 925) {
			if (nif) {
				i = (unsigned int)ek_rand_below(&rng, nif);
				rq = inflight[i];
				inflight[i] = inflight[--nif];
				done_at[i] = done_at[nif];
				rq->at_head = (ek_u8)ek_rand_below(&rng, 2);
				th_requeue(th, rq);
				q_add(rq);
			}
		} else if (r < 945) {
			/* A process ends; a new one takes its slot. */
			fqt_exit(th, pr);
			procs[k] = new_proc(th, &rng, owner++);
		} else if (r < 955) {
			const struct ek_tunable *t;
			ek_s64 span, v;

			i = (unsigned int)ek_rand_below(&rng, th->pol->nr_tunables);
			t = &th->pol->tunables[i];
			span = t->max - t->min;
			v = t->min + (ek_s64)ek_rand_below(&rng,
				(ek_u64)(span < 300 ? span + 1 : 300));
			TH_CHECK(th_set(th, t->name, v) == 0, "%s=%lld refused",
				 t->name, (long long)v);
		} else {
			TH_CHECK(!th->pol->has_work(th->sd, th->now) || nq > 0,
				 "has_work with nothing queued");
		}
	}
	/* Wind down: finish what is in flight, then dispatch the rest. */
	for (i = 0; i < nif; i++)
		fqt_complete(th, inflight[i]);
	nif = 0;
	for (;;) {
		rq = th_dispatch(th);
		if (rq) {
			q_del(rq);
			fqt_complete(th, rq);
			continue;
		}
		if (!nq)
			break;
		TH_CHECK(th->timer_armed, "%u queued, nothing dispatched, no timer",
			 nq);
		th_advance_to(th, th->timer_when > th->now ? th->timer_when :
			      th->now);
		th->timer_armed = 0;
	}
	printf("seed %llu: %lu inserted, %lu dispatched, %lu merged, %llu switches\n",
	       (unsigned long long)seed, th->inserted, th->dispatched,
	       th->merged, (unsigned long long)th_stat(th, "queue_switches"));
	for (i = 0; i < NPROC; i++)
		fqt_exit(th, procs[i]);
	for (i = 0; i < nall; i++) {
		TH_CHECK(!all[i]->p, "process %u still holds its context", i);
		free(all[i]);
	}
	th_finish(th);
}

int main(void)
{
	ek_u64 seed;

	for (seed = 1; seed <= 8; seed++)
		run(seed * 7919, 40000);
	printf("ok\n");
	return 0;
}
