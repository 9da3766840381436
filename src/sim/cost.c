// SPDX-License-Identifier: GPL-2.0
/*
 * elvkit-cost POLICY[:PROCS] DEPTH OPS: keep DEPTH requests queued in POLICY
 * and do OPS rounds of dispatch + completion + insert of a fresh request,
 * inside cost_loop(), so that `valgrind --tool=callgrind
 * --toggle-collect=cost_loop` counts the instructions a request costs at
 * that queue depth. Sectors are pseudo-random, a quarter of the requests
 * are writes, from PROCS processes (64 unless given: a per-process policy
 * costs differently with one queue and with many). The device is
 * rotational unless --nonrot is given: anticipatory and fair-queue take
 * other paths on flash (no anticipation, no idling), and the kernel's
 * overhead benchmark (scripts/bench-overhead.sh) runs on null_blk, which
 * is non-rotational. --reads makes every request a synchronous read, as
 * that benchmark's fio jobs issue. --round-robin gives the requests to the
 * processes in turn, not at random: with one request queued (DEPTH 1),
 * every request is then a queue switch, as the benchmark's two fio jobs
 * make where the kernel dispatches from its kblockd worker (6.1, 7.2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elvkit/contract.h>
#include <elvkit/rand.h>
#include "sim.h"

#define OWNERS 64
#define MAX_OWNERS 4096

static ek_u64 timer_at = EK_U64_MAX;

static void t_arm(struct ek_host *h, ek_u64 when) { (void)h; timer_at = when; }
static void t_cancel(struct ek_host *h) { (void)h; timer_at = EK_U64_MAX; }
static void t_kick(struct ek_host *h) { (void)h; }
static ek_u64 now;	/* the loop's clock */
static ek_u64 t_now(struct ek_host *h) { (void)h; return now; }
static const struct ek_host_ops host_ops = {
	.timer_arm = t_arm, .timer_cancel = t_cancel, .kick = t_kick, .now = t_now,
};
static struct ek_host host = { .ops = &host_ops, .dev = { 1, 1, 0 } };

static struct ek_policy ops;
static const struct ek_policy *pol = &ops;
static void *sd;
static struct ek_pctx *pctx[MAX_OWNERS];
static ek_u32 nowners = OWNERS;
static ek_u64 *sectors;
static int reads_only;
static int round_robin;

static void fill(struct ek_rq *rq, ek_u64 i)
{
	ek_u32 owner = (ek_u32)((round_robin ? i : sectors[i]) % nowners);

	memset(rq, 0, sizeof(*rq));
	rq->sector = sectors[i] & ~7ULL;
	rq->nr_sectors = 8;
	rq->dir = (i & 3) == 3 && !reads_only ? EK_WRITE : EK_READ;
	rq->sync = rq->dir == EK_READ;
	rq->prio_class = EK_PRIO_BE;
	rq->prio_level = 4;
	rq->owner = owner + 1;
	rq->pctx = ek_policy_wants_pctx(pol, sd) ? pctx[owner] : NULL;
	rq->arrival_ns = now;
}

static struct ek_rq *next(void)
{
	struct ek_rq *rq;

	/* as the kernel shim: a policy that claims it never idles is not asked */
	while (!ek_policy_never_idles(pol, &host) && !pol->has_work(sd, now)) {
		if (timer_at == EK_U64_MAX)
			return NULL;
		now = timer_at > now ? timer_at : now + 1;
		timer_at = EK_U64_MAX;
	}
	rq = pol->dispatch(sd, now);
	if (rq)
		rq->dispatch_ns = now;
	return rq;
}

__attribute__((noinline)) static int cost_loop(ek_u64 depth, ek_u64 n)
{
	ek_u64 i;

	for (i = 0; i < n; i++) {
		struct ek_rq *rq = next();

		if (!rq)
			return -1;
		now += 1000;
		ek_policy_complete(pol, sd, rq, now, now);
		fill(rq, depth + i);
		pol->insert(sd, rq, now);
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct ek_policy *p;
	const char *why;
	char name[64], *colon;
	ek_s64 tun[EK_MAX_TUNABLES] = { 0 };
	struct ek_rq *rqs;
	ek_u64 depth, n, i, seed = 1;
	ek_u32 k;

	/* leading options, in any order; anything else is the policy */
	for (; argc > 1; argc--, argv++) {
		if (!strcmp(argv[1], "--nonrot"))
			host.dev.rotational = 0;
		else if (!strcmp(argv[1], "--reads"))
			reads_only = 1;
		else if (!strcmp(argv[1], "--round-robin"))
			round_robin = 1;
		else
			break;
	}
	if (argc == 4) {
		snprintf(name, sizeof(name), "%s", argv[1]);
		colon = strchr(name, ':');
		if (colon) {
			*colon = '\0';
			nowners = (ek_u32)strtoul(colon + 1, NULL, 10);
		}
	}
	if (argc != 4 || !(p = sim_find_policy(name)) || !nowners ||
	    nowners > MAX_OWNERS) {
		fprintf(stderr, "usage: elvkit-cost [--nonrot] [--reads] [--round-robin] POLICY[:PROCS] DEPTH OPS (PROCS 1..%d)\n",
			MAX_OWNERS);
		return 2;
	}
	if (ek_policy_load(&ops, p, &why)) {
		fprintf(stderr, "elvkit-cost: %s breaks the contract: %s\n",
			p->name, why);
		return 1;
	}
	depth = strtoull(argv[2], NULL, 10);
	n = strtoull(argv[3], NULL, 10);
	if (!depth || !n) {
		fprintf(stderr, "elvkit-cost: DEPTH and OPS must be positive\n");
		return 2;
	}
	host.dev.nr_requests = (ek_u32)depth;
	ek_tunables_default(pol, tun);
	sd = calloc(1, pol->sched_size ? pol->sched_size : 1);
	rqs = calloc(depth, sizeof(*rqs));
	sectors = malloc((depth + n) * sizeof(*sectors));
	if (!sd || !rqs || !sectors || pol->init(sd, &host, tun))
		return 1;
	for (i = 0; i < depth + n; i++)
		sectors[i] = ek_rand_below(&seed, 1ULL << 31);
	for (k = 0; k < nowners; k++) {
		pctx[k] = calloc(1, sizeof(struct ek_pctx) + pol->pctx_size);
		if (!pctx[k])
			return 1;
		ek_pctx_start(pol, sd, pctx[k], k + 1);
	}
	for (i = 0; i < depth; i++) {
		fill(&rqs[i], i);
		pol->insert(sd, &rqs[i], now);
		now += 10;
	}
	if (cost_loop(depth, n)) {
		fprintf(stderr, "elvkit-cost: %s stopped dispatching\n", pol->name);
		return 1;
	}
	/* drain, so exit sees an empty queue */
	while (next())
		;
	for (k = 0; k < nowners; k++)
		ek_pctx_end(pol, sd, pctx[k]);
	pol->exit(sd);
	for (k = 0; k < nowners; k++)
		free(pctx[k]);
	free(sectors);
	free(rqs);
	free(sd);
	return 0;
}
