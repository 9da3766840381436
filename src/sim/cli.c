// SPDX-License-Identifier: GPL-2.0
/*
 * elvkit-sim: parse, validate, run every (workload, threads, scheduler)
 * combination, report. Exit 0 ok, 1 a policy broke the contract (or a
 * result file could not be written after the runs, e.g. a full disk),
 * 2 bad arguments (an output file that cannot be opened among them: found
 * before anything runs).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* One configuration over --runs seeds into one row; 1 if the policy broke the contract. */
static int run_row(const struct cli_args *a, struct sim_config *c, struct sim_row *row,
		   struct sim_result *res)
{
	unsigned rn;
	size_t t;
	int broke = 0;

	uint64_t *tb = calloc((size_t)a->runs * c->threads, sizeof(*tb));

	if (!tb)
		abort();
	for (t = 0; t < a->ntune; t++)
		sim_config_tune(c, a->tunes[t].name, a->tunes[t].value);
	for (rn = 0; rn < a->runs; rn++) {
		c->seed = a->base.seed + rn;
		if (a->nwb_bw)
			c->wb_bw_kbps = a->wb_bw[rn < a->nwb_bw ? rn : a->nwb_bw - 1];
		c->thread_bytes = tb + (size_t)rn * c->threads;
		if (a->trace)
			trace_run(a->trace, c);
		if (sim_run(c, &res[rn]))
			cli_die("cannot set up the run: the %s parameters are inconsistent "
				"or %s refused to start", c->model->name, c->policy->name);
		if (res[rn].violations) {
			fprintf(stderr, "elvkit-sim: %s, %s, %u threads, seed %llu: "
				"%llu contract violations; first: %s\n",
				c->policy->name, sim_workload_name(c->workload), c->threads,
				(unsigned long long)c->seed,
				(unsigned long long)res[rn].violations, res[rn].violation);
			broke = 1;
		}
	}
	row->sched = c->policy->name;
	row->device = c->model->name;
	row->workload = c->workload;
	row->threads = c->threads;
	row->mixed = sim_workload_mixed(c);
	row->interleave = c->interleave;
	row->block = c->block;
	row->size = c->size;
	row->seed = a->base.seed;
	row_fill(row, res, a->runs);
	row_thread_bytes(row, tb, res[0].nthread_bytes, a->runs);
	free(tb);
	return broke;
}

/* Every combination, workloads outermost, schedulers innermost (the table's order). */
static int run_all(const struct cli_args *a, struct sim_row *rows, size_t *nrows)
{
	struct sim_result *res = calloc(a->runs, sizeof(*res));
	size_t i, j, k;
	int broke = 0;

	if (!res)
		abort();
	*nrows = 0;
	for (i = 0; i < a->nwl; i++)
		for (j = 0; j < a->nthr; j++)
			for (k = 0; k < a->nsched; k++) {
				struct sim_config c = a->base;

				c.workload = a->wl_ids[i];
				c.threads = a->threads[j];
				sim_config_policy(&c, a->pols[k]);
				broke |= run_row(a, &c, &rows[(*nrows)++], res);
			}
	free(res);
	return broke;
}

static int report(const struct cli_args *a, const struct sim_row *rows, size_t n)
{
	report_table(stdout, rows, n);
	if (a->wall && a->nthr > 1)
		report_wall(stdout, rows, n);
	if (a->chart)
		report_chart(stdout, rows, n);
	if (a->json_f && json_write(a->json_f, rows, n)) {
		fprintf(stderr, "elvkit-sim: --json: writing '%s' failed after the runs: %s\n",
			a->json, strerror(errno));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct cli_args a;
	static struct sim_trace trace;
	struct sim_row *rows;
	size_t nrows;
	int ret;

	switch (cli_parse(argc, argv, &a)) {
	case CLI_HELP:
		cli_usage(stdout);
		return 0;
	case CLI_LIST:
		cli_list(stdout);
		return 0;
	case CLI_TUNABLES:
		return cli_tunables(stdout, a.tunables_of);
	case CLI_RUN:
		break;
	}
	cli_validate(&a);
	if (a.json) {
		a.json_f = fopen(a.json, "w");
		if (!a.json_f)
			cli_die("--json: cannot write '%s': %s", a.json, strerror(errno));
	}
	if (a.trace_path) {
		trace.f = fopen(a.trace_path, "w");
		if (!trace.f)
			cli_die("cannot write %s", a.trace_path);
		a.trace = &trace;
	}
	rows = calloc(a.nwl * a.nthr * a.nsched, sizeof(*rows));
	if (!rows)
		abort();
	ret = run_all(&a, rows, &nrows);
	if (a.trace && fclose(trace.f)) {
		fprintf(stderr, "elvkit-sim: cannot write %s\n", a.trace_path);
		ret = ret ? ret : 1;
	}
	if (report(&a, rows, nrows))
		ret = ret ? ret : 1;
	while (nrows)
		free(rows[--nrows].thread_bytes);
	free(rows);
	return ret;
}
