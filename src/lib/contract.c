// SPDX-License-Identifier: GPL-2.0
/*
 * Registration: the policy contract checked once, in every host, and the
 * optional callbacks filled in so that no host checks them again (see
 * include/elvkit/contract.h).
 */
#include "elvkit/contract.h"
#include "lib_str.h"

static int ek_name_ok(const char *name, ek_size_t max)
{
	return name && *name && ek_strlen(name) <= max;
}

/* The i-th file of the policy's sysfs directory: tunables, then counters. */
static const char *ek_attr_name(const struct ek_policy *p, ek_u32 i)
{
	if (i < p->nr_tunables)
		return p->tunables[i].name;
	return p->counters[i - p->nr_tunables].name;
}

/* Every tunable and counter name once: each is a file in one directory. */
static int ek_names_unique(const struct ek_policy *p)
{
	ek_u32 n = p->nr_tunables + p->nr_counters, i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (ek_streq(ek_attr_name(p, i), ek_attr_name(p, j)))
				return 0;
	return 1;
}

static const char *ek_tunables_wrong(const struct ek_policy *p)
{
	ek_u32 i;

	if (p->nr_tunables > EK_MAX_TUNABLES)
		return "more than EK_MAX_TUNABLES tunables";
	if (p->nr_tunables && (!p->tunables || !p->set_tunable))
		return "tunables without a table or set_tunable";
	for (i = 0; i < p->nr_tunables; i++) {
		const struct ek_tunable *t = &p->tunables[i];

		if (!t->name || !*t->name)
			return "a tunable without a name";
		if (t->min > t->def || t->def > t->max)
			return "a tunable's default outside its range";
		if (t->flags)
			return "a tunable with flags (statistics are counters)";
	}
	return EK_NULL;
}

static const char *ek_counters_wrong(const struct ek_policy *p)
{
	ek_u32 i;

	if (p->nr_counters > EK_MAX_COUNTERS)
		return "more than EK_MAX_COUNTERS counters";
	if (p->nr_counters && (!p->counters || !p->read_counter))
		return "counters without a table or read_counter";
	for (i = 0; i < p->nr_counters; i++)
		if (!p->counters[i].name || !*p->counters[i].name)
			return "a counter without a name";
	return EK_NULL;
}

static const char *ek_policy_wrong(const struct ek_policy *p)
{
	const char *why;

	if (!ek_name_ok(p->name, EK_POLICY_NAME_MAX))
		return "no name, or a name longer than EK_POLICY_NAME_MAX";
	/* The required callbacks, as listed in policy.h. */
	if (!p->init || !p->insert || !p->dispatch || !p->has_work ||
	    !p->merged_requests)
		return "a required callback is missing (init, insert, "
		       "dispatch, has_work, merged_requests)";
	/* A host skips a completion for a policy without completed. */
	if (p->completed_unlocked && !p->completed)
		return "completed_unlocked without completed";
	if ((p->flags & EK_POLICY_COMPLETION_TIME) && !p->completed)
		return "EK_POLICY_COMPLETION_TIME without completed";
	/* Its clock may be on another base than the host's timers. */
	if ((p->flags & EK_POLICY_TICK_TIME) && !(p->flags & EK_POLICY_NEVER_IDLES))
		return "EK_POLICY_TICK_TIME without EK_POLICY_NEVER_IDLES";
	why = ek_tunables_wrong(p);
	if (!why)
		why = ek_counters_wrong(p);
	if (!why && !ek_names_unique(p))
		why = "two tunables or counters with the same name";
	return why;
}

int ek_policy_validate(const struct ek_policy *p, const char **why)
{
	const char *wrong = ek_policy_wrong(p);

	if (why)
		*why = wrong;
	return wrong ? -EK_EINVAL : 0;
}

/* What an optional callback a policy leaves out amounts to. */
static void ek_nop_exit(void *sd)
{
	(void)sd;
}

static void ek_nop_rq(void *sd, struct ek_rq *rq, ek_u64 now)
{
	(void)sd;
	(void)rq;
	(void)now;
}

static struct ek_rq *ek_no_front_merge(void *sd, ek_u8 dir, ek_u64 end)
{
	(void)sd;
	(void)dir;
	(void)end;
	return EK_NULL;
}

static void ek_nop_merged(void *sd, struct ek_rq *rq, ek_u64 old_sector)
{
	(void)sd;
	(void)rq;
	(void)old_sector;
}

static void ek_nop_pctx(void *sd, struct ek_pctx *pctx)
{
	(void)sd;
	(void)pctx;
}

static ek_u32 ek_no_limit(void *sd, ek_u8 dir, ek_u8 sync)
{
	(void)sd;
	(void)dir;
	(void)sync;
	return 0;
}

static int ek_never_unlocked(void *sd, struct ek_rq *rq, ek_u64 stamp)
{
	(void)sd;
	(void)rq;
	(void)stamp;
	return 0;
}

int ek_policy_complete(const struct ek_policy *p, void *sd,
		       struct ek_rq *rq, ek_u64 now, ek_u64 stamp)
{
	if (p->completed_unlocked(sd, rq, stamp))
		return 1;
	p->completed(sd, rq, now);
	return 0;
}

int ek_policy_load(struct ek_policy *ops, const struct ek_policy *p,
		   const char **why)
{
	int ret = ek_policy_validate(p, why);

	if (ret)
		return ret;
	*ops = *p;
	if (!ops->exit)
		ops->exit = ek_nop_exit;
	if (!ops->completed)
		ops->completed = ek_nop_rq;
	if (!ops->completed_unlocked)
		ops->completed_unlocked = ek_never_unlocked;
	if (!ops->requeue)
		ops->requeue = ek_nop_rq;
	if (!ops->front_merge_candidate)
		ops->front_merge_candidate = ek_no_front_merge;
	if (!ops->merged)
		ops->merged = ek_nop_merged;
	if (!ops->pctx_init)
		ops->pctx_init = ek_nop_pctx;
	if (!ops->pctx_exit)
		ops->pctx_exit = ek_nop_pctx;
	if (!ops->limit_depth)
		ops->limit_depth = ek_no_limit;
	if (!ops->depth_updated)
		ops->depth_updated = ek_nop_exit;
	return 0;
}
