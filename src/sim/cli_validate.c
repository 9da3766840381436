// SPDX-License-Identifier: GPL-2.0
/*
 * Validate: every value in range and every name known, before any run, so
 * a bad argument costs nothing and gets one line. Names resolve against the
 * simulator's lists (sim_policies, ek_models, the workload table). Fixed
 * ranges were checked as parsed (cli_range); here are the ones that depend
 * on other options.
 */
#include <string.h>
#include "cli.h"

static void check_sizes(struct sim_config *b)
{
	if (b->block < 512 || b->block % 512)
		cli_die("--block must be a positive multiple of 512");
	if (b->bg_block % 512)
		cli_die("--bg-block must be a multiple of 512");
	if (b->readahead % 512 || b->readahead > (64ULL << 20))
		cli_die("--readahead must be a multiple of 512, at most 64m");
	if (b->block > (64ULL << 20) || b->bg_block > (64ULL << 20))
		cli_die("--block and --bg-block must be at most 64m");
	if (b->size < b->block)
		cli_die("--size must be at least one block");
	if (b->region_align < 512 || b->region_align % 512 || b->region_align > b->size)
		cli_die("--region-align must be a positive multiple of 512, at most --size");
	if (!b->max_kb)
		b->max_kb = b->block / 1024 > 1280 ? (unsigned)(b->block / 1024) : 1280;
	if (b->max_kb < b->block / 1024)
		cli_die("--max-kb must be at least one block");
}

/* A quantile function's points: from 0 to 100 %, each further on, none shorter. */
static void check_delay(const char *opt, const struct sim_delay *d, int64_t *mean_us)
{
	unsigned i;

	if (!d->n)
		return;
	if (d->n < 2 || d->ppm[0] || d->ppm[d->n - 1] != 1000000)
		cli_die("%s: the points must run from 0:US to 100:US", opt);
	for (i = 1; i < d->n; i++)
		if (d->ppm[i] <= d->ppm[i - 1] || d->us[i] < d->us[i - 1])
			cli_die("%s: each point must have a larger PCT and no smaller US", opt);
	*mean_us = (int64_t)sim_delay_mean_us(d);
}

static void check_counts(struct cli_args *a)
{
	struct sim_config *b = &a->base;

	if (!b->ios)
		cli_die("--ios must be at least 1");
	if (b->dirty_kb && (b->dirty_kb < 8 || b->dirty_kb > (1ULL << 30)))
		cli_die("--dirty-kb must be 8..1073741824 (0: off)");
	if ((b->dirty_bg_kb || b->flusher_us || b->copy_mbs) && !b->dirty_kb)
		cli_die("--dirty-bg-kb, --flusher-us and --copy-mbs need --dirty-kb");
	if (a->nwb_bw && !b->dirty_kb)
		cli_die("--wb-bw-init needs --dirty-kb");
	check_delay("--think", &b->think_q, &b->think_us);
	check_delay("--tag-wake-us", &b->tag_wake_q, &b->tag_wake_us);
	check_delay("--late-us", &b->late_q, &b->late_us);
}

/* No --sched: every policy of the list. */
static void all_policies(struct cli_args *a)
{
	for (a->nsched = 0; sim_policies[a->nsched]; a->nsched++) {
		if (a->nsched == CLI_MAX_LIST)
			cli_die("--sched: more than %d policies", CLI_MAX_LIST);
		a->pols[a->nsched] = sim_policies[a->nsched];
	}
}

static void resolve_lists(struct cli_args *a)
{
	char *v[CLI_MAX_LIST];
	size_t i;

	if (a->sched_arg) {
		a->nsched = cli_split(a->sched_arg, v, CLI_MAX_LIST, "--sched");
		for (i = 0; i < a->nsched; i++)
			if (!(a->pols[i] = sim_find_policy(v[i])))
				cli_die("--sched: unknown scheduler '%s' (see --list)", v[i]);
	} else {
		all_policies(a);
	}
	a->nthr = cli_split(a->threads_arg, v, CLI_MAX_LIST, "--threads");
	for (i = 0; i < a->nthr; i++)
		a->threads[i] = (unsigned)cli_range("--threads", v[i], 1, 65536);
	a->nwl = cli_split(a->wl_arg, v, CLI_MAX_LIST, "--workload");
	for (i = 0; i < a->nwl; i++)
		if ((a->wl_ids[i] = sim_find_workload(v[i])) < 0)
			cli_die("--workload: unknown workload '%s' (see --list)", v[i]);
}

/* --interleave: sequential readers whose every read is a bio. */
static void check_interleave(const struct cli_args *a)
{
	size_t i;

	if (!a->base.interleave)
		return;
	for (i = 0; i < a->nwl; i++)
		if (a->wl_ids[i] != WL_SEQREAD)
			cli_die("--interleave applies to seqread alone, not %s",
				sim_workload_name(a->wl_ids[i]));
	if (a->base.readahead > a->base.block)
		cli_die("--interleave needs --readahead 0 (or at most --block)");
}

static void apply_device(struct cli_args *a)
{
	const struct ek_model_type *m = sim_find_model(a->device);
	size_t i;

	if (!m)
		cli_die("--device: unknown device '%s' (see --list)", a->device);
	sim_config_model(&a->base, m);
	for (i = 0; i < a->ndev; i++) {
		int e = sim_config_dev(&a->base, a->devs[i].name, a->devs[i].value);

		if (e == -1)
			cli_die("--dev: %s has no parameter '%s' (see --list)", m->name,
				a->devs[i].name);
		if (e == -2)
			cli_die("--dev: %s=%lld out of range", a->devs[i].name,
				(long long)a->devs[i].value);
	}
}

/* A --tune must fit every selected scheduler that has it, and at least one must. */
static void check_tunes(const struct cli_args *a)
{
	size_t i, j;

	for (i = 0; i < a->ntune; i++) {
		int known = 0;

		for (j = 0; j < a->nsched; j++) {
			struct sim_config c = a->base;
			int e;

			sim_config_policy(&c, a->pols[j]);
			e = sim_config_tune(&c, a->tunes[i].name, a->tunes[i].value);
			if (e == -2)
				cli_die("--tune: %s=%lld out of range for %s", a->tunes[i].name,
					(long long)a->tunes[i].value, a->pols[j]->name);
			known |= e == 0;
		}
		if (!known)
			cli_die("--tune: no selected scheduler has a tunable '%s'",
				a->tunes[i].name);
	}
}

/*
 * The longest time tunable (unit ms: expiries, batches, slices) of the
 * selected schedulers, as they will run (--tune applied).
 */
static uint64_t longest_tunable_ns(const struct cli_args *a)
{
	uint64_t longest = 0;
	size_t i, t;
	ek_u32 k;

	for (i = 0; i < a->nsched; i++) {
		struct sim_config c = a->base;

		sim_config_policy(&c, a->pols[i]);
		for (t = 0; t < a->ntune; t++)
			sim_config_tune(&c, a->tunes[t].name, a->tunes[t].value);
		for (k = 0; k < a->pols[i]->nr_tunables && k < EK_MAX_TUNABLES; k++) {
			const struct ek_tunable *tun = &a->pols[i]->tunables[k];

			if (!(tun->flags & EK_TUN_RO) && !strcmp(tun->unit, "ms") &&
			    (uint64_t)c.tun[k] * 1000000ULL > longest)
				longest = (uint64_t)c.tun[k] * 1000000ULL;
		}
	}
	return longest;
}

/*
 * Runs last at least 10x the longest batch/slice/expire tunable of the
 * schedulers compared, so a table shows steady state rather than the first
 * batch; never past the time limit, where a run is cut anyway.
 */
static void min_time(struct cli_args *a)
{
	struct sim_config *b = &a->base;

	if (b->runtime_ns) {
		if (!a->min_time_auto)
			cli_die("--runtime and --min-time exclude each other");
		if (b->runtime_ns > b->time_limit_ns)
			cli_die("--runtime must not exceed --time-limit");
		b->min_time_ns = b->runtime_ns;
		return;
	}
	if (a->min_time_auto)
		b->min_time_ns = 10 * longest_tunable_ns(a);
	else if (b->min_time_ns > b->time_limit_ns)
		cli_die("--min-time must not exceed --time-limit");
	if (b->min_time_ns > b->time_limit_ns)
		b->min_time_ns = b->time_limit_ns;
}

void cli_validate(struct cli_args *a)
{
	check_sizes(&a->base);
	check_counts(a);
	resolve_lists(a);
	check_interleave(a);
	apply_device(a);
	check_tunes(a);
	min_time(a);
}
