/* DESCRIPTION: host library: registration refuses a policy missing a required callback or with a bad table, fills the optional ones, ends a process context flag first and once */
#include <string.h>

#include "testhost.h"

static int exits, flag_seen;

static int t_init(void *sd, struct ek_host *host, const ek_s64 *values)
{
	(void)sd;
	(void)host;
	(void)values;
	return 0;
}

static void t_insert(void *sd, struct ek_rq *rq, ek_u64 now)
{
	(void)sd;
	(void)rq;
	(void)now;
}

static struct ek_rq *t_dispatch(void *sd, ek_u64 now)
{
	(void)sd;
	(void)now;
	return NULL;
}

static int t_has_work(void *sd, ek_u64 now)
{
	(void)sd;
	(void)now;
	return 0;
}

static void t_merged_requests(void *sd, struct ek_rq *rq, struct ek_rq *next)
{
	(void)sd;
	(void)rq;
	(void)next;
}

static void t_set(void *sd, ek_u32 idx, ek_s64 v)
{
	(void)sd;
	(void)idx;
	(void)v;
}

static ek_u64 t_read(void *sd, ek_u32 idx)
{
	(void)sd;
	(void)idx;
	return 0;
}

static void t_pctx_exit(void *sd, struct ek_pctx *pctx)
{
	(void)sd;
	exits++;
	flag_seen = !!(pctx->flags & EK_PCTX_EXITED);
}

static const struct ek_tunable tun = {
	.name = "t", .unit = "n", .help = "h", .def = 1, .min = 0, .max = 2,
};

static const struct ek_policy minimal = {
	.name = "minimal",
	.init = t_init,
	.insert = t_insert,
	.dispatch = t_dispatch,
	.has_work = t_has_work,
	.merged_requests = t_merged_requests,
	.pctx_exit = t_pctx_exit,
};

/* A copy of minimal broken by f must be refused. */
static void refused(const char *what, void (*f)(struct ek_policy *p))
{
	struct ek_policy p = minimal, ops;
	const char *why = NULL;

	f(&p);
	TH_CHECK(ek_policy_load(&ops, &p, &why) == -EK_EINVAL && why && *why,
		 "policy with %s accepted", what);
}

static void no_init(struct ek_policy *p) { p->init = NULL; }
static void no_insert(struct ek_policy *p) { p->insert = NULL; }
static void no_dispatch(struct ek_policy *p) { p->dispatch = NULL; }
static void no_has_work(struct ek_policy *p) { p->has_work = NULL; }
static void no_merged_requests(struct ek_policy *p) { p->merged_requests = NULL; }
static int t_unlocked(void *sd, struct ek_rq *rq, ek_u64 stamp)
{
	(void)sd;
	(void)rq;
	(void)stamp;
	return 1;
}

static void unlocked_only(struct ek_policy *p) { p->completed_unlocked = t_unlocked; }
static void tick_idles(struct ek_policy *p) { p->flags = EK_POLICY_TICK_TIME; }
static void time_no_completed(struct ek_policy *p) { p->flags = EK_POLICY_COMPLETION_TIME; }
static void no_name(struct ek_policy *p) { p->name = ""; }
static void long_name(struct ek_policy *p) { p->name = "sixteen-chars-xx"; }
static void no_set(struct ek_policy *p) { p->tunables = &tun; p->nr_tunables = 1; }
static void many(struct ek_policy *p)
{
	p->tunables = &tun;
	p->nr_tunables = EK_MAX_TUNABLES + 1;
	p->set_tunable = t_set;
}
static void no_read(struct ek_policy *p)
{
	static const struct ek_counter c = { "c", "n", "h" };

	p->counters = &c;
	p->nr_counters = 1;
}
static void same_name(struct ek_policy *p)
{
	static const struct ek_counter c = { "t", "n", "h" };

	no_read(p);
	p->counters = &c;
	p->read_counter = t_read;
	p->tunables = &tun;
	p->nr_tunables = 1;
	p->set_tunable = t_set;
}
static void bad_default(struct ek_policy *p)
{
	static const struct ek_tunable t = {
		.name = "t", .unit = "n", .help = "h", .def = 3, .min = 0, .max = 2,
	};

	p->tunables = &t;
	p->nr_tunables = 1;
	p->set_tunable = t_set;
}
static void read_only(struct ek_policy *p)
{
	static const struct ek_tunable t = {
		.name = "t", .unit = "n", .help = "h", .flags = EK_TUN_RO,
	};

	p->tunables = &t;
	p->nr_tunables = 1;
	p->set_tunable = t_set;
}

int main(void)
{
	const struct ek_policy *const real[] = {
		&ek_deadline_read_policy, &ek_anticipatory_policy, &ek_fair_queue_policy,
		&ek_noop_policy, &ek_elevator_policy, &ek_read_latency2_policy,
	};
	struct ek_policy ops;
	struct ek_pctx pctx;
	unsigned int i;

	for (i = 0; i < sizeof(real) / sizeof(real[0]); i++)
		TH_CHECK(!ek_policy_validate(real[i], NULL), "%s refused",
			 real[i]->name);

	refused("no init", no_init);
	refused("no insert", no_insert);
	refused("no dispatch", no_dispatch);
	refused("no has_work", no_has_work);
	refused("no merged_requests", no_merged_requests);
	refused("an empty name", no_name);
	refused("a 16-character name", long_name);
	refused("tunables but no set_tunable", no_set);
	refused("too many tunables", many);
	refused("counters but no read_counter", no_read);
	refused("a name twice", same_name);
	refused("a default out of range", bad_default);
	refused("a read-only tunable", read_only);
	refused("completed_unlocked without completed", unlocked_only);
	refused("EK_POLICY_COMPLETION_TIME without completed", time_no_completed);
	refused("EK_POLICY_TICK_TIME without EK_POLICY_NEVER_IDLES", tick_idles);

	/* The optional callbacks are there after loading, and do nothing. */
	TH_CHECK(!ek_policy_load(&ops, &minimal, NULL), "minimal refused");
	TH_CHECK(!ops.completed_unlocked(NULL, NULL, 0),
		 "default completed_unlocked takes a completion");
	TH_CHECK(ops.exit && ops.completed && ops.requeue && ops.merged &&
		 ops.front_merge_candidate && ops.pctx_init &&
		 ops.pctx_exit == t_pctx_exit, "optional callbacks not filled");
	TH_CHECK(!ops.front_merge_candidate(NULL, EK_READ, 8),
		 "default front_merge_candidate offers a request");
	TH_CHECK(!strcmp(ops.name, "minimal") && ops.init == t_init,
		 "the copy differs from the policy");

	/* A process context ends once, the flag set before pctx_exit. */
	memset(&pctx, 0xff, sizeof(pctx));
	ek_pctx_start(&ops, NULL, &pctx, 42);
	TH_CHECK(pctx.owner == 42 && pctx.flags == 0, "start");
	ek_pctx_end(&ops, NULL, &pctx);
	ek_pctx_end(&ops, NULL, &pctx);
	TH_CHECK(exits == 1 && flag_seen && (pctx.flags & EK_PCTX_EXITED),
		 "%d exits, flag seen inside pctx_exit: %d", exits, flag_seen);
	return 0;
}
