/* DESCRIPTION: --requeue: each policy hears of a request sent back, which the requeue list's work inserts again --requeue-us later, at the head and marked requeued; with --requeue-dontprep it hears of neither, and every request still completes once */
#include "simtest.h"

#define REQUEUE_US 3000
#define NPEND 512		/* requests sent back at once, at most */

static const struct ek_policy *orig;
static struct ek_policy wrap;
static unsigned requeues, reinserts, bad;
/* the time of each pending requeue call, by descriptor (few at once) */
static struct { const struct ek_rq *rq; uint64_t t; } pend[NPEND];

static void w_requeue(void *sd, struct ek_rq *rq, ek_u64 now)
{
	unsigned i;

	requeues++;
	for (i = 0; i < NPEND && pend[i].rq; i++)
		;
	if (i == NPEND)
		bad++;
	else
		pend[i].rq = rq, pend[i].t = now;
	if (orig->requeue)
		orig->requeue(sd, rq, now);
}

static void w_insert(void *sd, struct ek_rq *rq, ek_u64 now)
{
	unsigned i;

	if (rq->requeued) {
		reinserts++;
		for (i = 0; i < NPEND && pend[i].rq != rq; i++)
			;
		if (i == NPEND || !rq->at_head || now != pend[i].t + REQUEUE_US * 1000ULL)
			bad++;
		if (i < NPEND)
			pend[i].rq = NULL;
	}
	orig->insert(sd, rq, now);
}

static void run(const struct ek_policy *p, int dontprep)
{
	struct sim_config c;
	struct sim_result r;

	orig = p;
	wrap = *p;
	wrap.insert = w_insert;
	wrap.requeue = w_requeue;	/* the policy's, where it has one */
	requeues = reinserts = bad = 0;
	memset(pend, 0, sizeof(pend));
	st_config(&c, p->name, "hdd", "read-vs-write", 8);
	sim_config_policy(&c, &wrap);
	c.ios = 300;
	c.requeue_pct = 20;
	c.requeue_us = REQUEUE_US;
	c.requeue_dontprep = dontprep;
	st_run(&c, &r);
	printf("%s%s: %llu sent back, %u requeue calls, %u inserted again\n", p->name,
	       dontprep ? " (dontprep)" : "", (unsigned long long)r.requeues, requeues,
	       reinserts);
	CHECK(r.requeues > 50, "%s: only %llu sent back", p->name,
	      (unsigned long long)r.requeues);
	if (dontprep) {
		CHECK(!requeues && !reinserts, "%s, dontprep: the policy heard %u requeues, %u inserts",
		      p->name, requeues, reinserts);
		return;
	}
	CHECK(reinserts == r.requeues, "%s: %u of %llu inserted again", p->name, reinserts,
	      (unsigned long long)r.requeues);
	CHECK(requeues == r.requeues, "%s: %u requeue calls for %llu",
	      p->name, requeues, (unsigned long long)r.requeues);
	CHECK(!bad, "%s: %u inserted again not at the head, or not %u us after", p->name,
	      bad, REQUEUE_US);
}

int main(void)
{
	const struct ek_policy *const *p;

	for (p = sim_policies; *p; p++) {
		run(*p, 0);
		run(*p, 1);
	}
	return st_failed;
}
