// SPDX-License-Identifier: GPL-2.0
/* Run configuration: defaults, lookups by name, tunables and device params. */
#include <string.h>
#include <elvkit/contract.h>
#include "sim.h"

static const struct {
	const char *name, *help;
} workloads[WL_NR] = {
	[WL_SEQREAD] = { "seqread", "N synchronous sequential readers, own regions (tiobench)" },
	[WL_SEQWRITE] = { "seqwrite", "N sequential writers, async writeback (tiobench)" },
	[WL_RANDREAD] = { "randread", "N synchronous random readers, own regions (tiobench)" },
	[WL_RANDWRITE] = { "randwrite", "N random writers, async writeback (tiobench)" },
	[WL_READ_VS_WRITE] = { "read-vs-write",
			       "N sync sequential readers (think 100us) against a streaming writer" },
	[WL_THINK_READ] = { "think-read", "N sync sequential readers thinking 2 ms between reads" },
	[WL_STARTUP] = { "startup",
			 "a new process's dependent small reads, timed, under N background threads" },
};

void sim_config_init(struct sim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->workload = WL_SEQREAD;
	c->threads = 1;
	c->block = 4096;
	c->readahead = 128 << 10;
	c->size = 64ULL << 20;
	c->region_align = 512;
	c->ios = 2000;
	c->think_us = -1;
	c->bg = BG_DEFAULT;
	c->wdepth = 256;
	c->nr_requests = 0;	/* blk-mq's default for the device's depth */
	c->tag_wake_us = -1;	/* hand-off to the first sleeper */
	c->wbt_wake_us = -1;	/* as tag_wake_us */
	c->max_kb = 1280;	/* max_sectors_kb's default cap (BLK_DEF_MAX_SECTORS_CAP) */
	c->wbt = -1;		/* on for rotational devices */
	c->seed = 1;
	c->time_limit_ns = 600ULL * 1000000000ULL;
	c->startup_ios = 200;
	c->warmup_ns = 1000ULL * 1000000ULL;
	c->bg_prio = (struct sim_prio){ EK_PRIO_BE, 4 };
}

void sim_config_policy(struct sim_config *c, const struct ek_policy *p)
{
	c->policy = p;
	memset(c->tun, 0, sizeof(c->tun));
	/* A policy with more tunables than c->tun holds fails registration. */
	if (p->nr_tunables <= EK_MAX_TUNABLES)
		ek_tunables_default(p, c->tun);
}

void sim_config_model(struct sim_config *c, const struct ek_model_type *m)
{
	ek_u32 i;

	c->model = m;
	memset(c->dev, 0, sizeof(c->dev));
	for (i = 0; i < m->nr_params && i < SIM_MAX_PARAMS; i++)
		c->dev[i] = m->params[i].def;
}

int sim_config_tune(struct sim_config *c, const char *name, ek_s64 v)
{
	int i = ek_tunable_find(c->policy, name);

	if (i < 0)
		return -1;
	return ek_tunable_set(c->policy, NULL, c->tun, (ek_u32)i, v) ? -2 : 0;
}

int sim_config_dev(struct sim_config *c, const char *name, ek_s64 v)
{
	ek_u32 i;

	for (i = 0; i < c->model->nr_params; i++) {
		const struct ek_model_param *p = &c->model->params[i];

		if (strcmp(p->name, name))
			continue;
		if (v < p->min || v > p->max)
			return -2;
		c->dev[i] = v;
		return 0;
	}
	return -1;
}

const struct ek_policy *sim_find_policy(const char *name)
{
	int i;

	for (i = 0; sim_policies[i]; i++)
		if (!strcmp(sim_policies[i]->name, name))
			return sim_policies[i];
	return NULL;
}

const struct ek_model_type *sim_find_model(const char *name)
{
	int i;

	for (i = 0; ek_models[i]; i++)
		if (!strcmp(ek_models[i]->name, name))
			return ek_models[i];
	return NULL;
}

int sim_find_workload(const char *name)
{
	int i;

	for (i = 0; i < WL_NR; i++)
		if (!strcmp(workloads[i].name, name))
			return i;
	return -1;
}

const char *sim_workload_name(int w)
{
	return w >= 0 && w < WL_NR ? workloads[w].name : "?";
}

const char *sim_workload_help(int w)
{
	return w >= 0 && w < WL_NR ? workloads[w].help : "?";
}

/* Do reads and writes both matter in this run's report? */
int sim_workload_mixed(const struct sim_config *c)
{
	if (c->workload == WL_READ_VS_WRITE || c->workload == WL_STARTUP)
		return 1;
	return c->bg != BG_DEFAULT && c->bg != BG_NONE;
}

int64_t sim_think_us(const struct sim_config *c)
{
	if (c->think_us >= 0)
		return c->think_us;
	if (c->workload == WL_READ_VS_WRITE)
		return 100;
	if (c->workload == WL_THINK_READ)
		return 2000;
	return 0;
}
