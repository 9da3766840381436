/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers for the simulator's C tests (tests/sim/NNN-*.c). */
#ifndef ELVKIT_SIMTEST_H
#define ELVKIT_SIMTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"

static int st_failed;

#define CHECK(cond, ...)						\
	do {								\
		if (!(cond)) {						\
			printf("FAIL %s:%d: ", __FILE__, __LINE__);	\
			printf(__VA_ARGS__);				\
			printf("\n");					\
			st_failed = 1;					\
		}							\
	} while (0)

/* A run configuration: scheduler, device and workload by name. */
static inline void st_config(struct sim_config *c, const char *sched, const char *dev,
			     const char *workload, unsigned threads)
{
	const struct ek_policy *p = sim_find_policy(sched);
	const struct ek_model_type *m = sim_find_model(dev);
	int w = sim_find_workload(workload);

	if (!p || !m || w < 0) {
		printf("FAIL: unknown %s/%s/%s\n", sched, dev, workload);
		exit(1);
	}
	sim_config_init(c);
	sim_config_policy(c, p);
	sim_config_model(c, m);
	c->workload = w;
	c->threads = threads;
	/*
	 * The policy tests want a deep scheduler queue. blk-mq's default
	 * (2 x the device's depth) leaves 2 requests on the QD1 hdd, where no
	 * policy can do anything; 128 is what they ran with per direction
	 * before the pool was shared.
	 */
	c->nr_requests = 128;
}

/*
 * read-vs-write on hdd with one reader, as bench-sim-vs-kernel.sh runs it
 * against ekdisk-hdd: 128 KiB I/O, no read-ahead, requests up to 512 KiB,
 * blk-mq's request count, dirty limits of dirty_kb (background a quarter;
 * 0: none), 5 s.
 */
static inline void st_config_vs_kernel(struct sim_config *c, const char *sched, uint64_t dirty_kb)
{
	st_config(c, sched, "hdd", "read-vs-write", 1);
	c->nr_requests = 0;
	c->block = c->bg_block = 128 << 10;
	c->readahead = 0;
	c->max_kb = 512;
	c->dirty_kb = dirty_kb;
	c->dirty_bg_kb = dirty_kb / 4;
	c->size = 500000000000ULL;
	c->min_time_ns = c->time_limit_ns = 5000000000ULL;
}

static inline void st_run(const struct sim_config *c, struct sim_result *r)
{
	if (sim_run(c, r)) {
		printf("FAIL: %s on %s: run setup failed\n", c->policy->name, c->model->name);
		exit(1);
	}
	if (r->violations) {
		printf("FAIL: %s, %s, %u threads: %llu violations; first: %s\n",
		       c->policy->name, sim_workload_name(c->workload), c->threads,
		       (unsigned long long)r->violations, r->violation);
		st_failed = 1;
	}
}

static inline ek_s64 st_param(const struct sim_config *c, const char *name)
{
	ek_u32 i;

	for (i = 0; i < c->model->nr_params; i++)
		if (!strcmp(c->model->params[i].name, name))
			return c->dev[i];
	for (i = 0; i < c->policy->nr_tunables; i++)
		if (!strcmp(c->policy->tunables[i].name, name))
			return c->tun[i];
	printf("FAIL: no parameter %s\n", name);
	exit(1);
}

/* The policy's counter name at the end of run r (its sysfs statistics). */
static inline uint64_t st_counter(const struct sim_result *r, const char *name)
{
	unsigned i;

	for (i = 0; i < r->nr_counters; i++)
		if (!strcmp(r->counter_name[i], name))
			return r->counter[i];
	printf("FAIL: no counter %s\n", name);
	exit(1);
}

static inline double st_secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

static inline int st_done(void)
{
	printf("%s\n", st_failed ? "FAILED" : "ok");
	return st_failed;
}

#endif
