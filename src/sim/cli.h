/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elvkit-sim's command line in four steps, each its own file:
 * parse (cli_parse.c: strings to values), validate (cli_validate.c: ranges,
 * names to policies, models and workloads), run (cli.c: every combination),
 * report (report.c, json.c). Help and --list come from the lists
 * (cli_list.c).
 */
#ifndef ELVKIT_SIM_CLI_H
#define ELVKIT_SIM_CLI_H

#include "report.h"
#include "trace.h"

#define CLI_MAX_LIST 64
#define CLI_MAX_KV 32
#define CLI_MAX_US 1000000ULL		/* delays in us: --think, --late-us, ... */
#define CLI_MAX_S 1000000ULL		/* times: --time-limit, --min-time, ... */

struct cli_kv {
	char *name;
	ek_s64 value;
};

enum cli_action { CLI_RUN, CLI_HELP, CLI_LIST, CLI_TUNABLES };

struct cli_args {
	/* as given */
	struct sim_config base;		/* every run starts from this */
	char *sched_arg, *threads_arg, *wl_arg;
	const char *device, *json, *trace_path;
	const char *tunables_of;		/* --tunables NAME */
	struct cli_kv tunes[CLI_MAX_KV], devs[CLI_MAX_KV];
	size_t ntune, ndev;
	unsigned runs;
	uint64_t wb_bw[CLI_MAX_LIST];		/* --wb-bw-init: run k's, the last repeats */
	size_t nwb_bw;
	int chart, wall;
	int min_time_auto;		/* --min-time auto (the default) */
	struct sim_trace *trace;	/* --trace, open while the runs go; or NULL */
	FILE *json_f;			/* --json, opened before the runs; or NULL */
	/* resolved by cli_validate */
	const struct ek_policy *pols[CLI_MAX_LIST];
	unsigned threads[CLI_MAX_LIST];
	int wl_ids[CLI_MAX_LIST];
	size_t nsched, nthr, nwl;
};

/* Print "elvkit-sim: <reason>" and exit 2. */
void cli_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* cli_parse.c */
enum cli_action cli_parse(int argc, char **argv, struct cli_args *a);
uint64_t cli_num(const char *opt, const char *s, int sized);
/* cli_num in MIN..MAX, or exit 2: every fixed range, before any conversion */
uint64_t cli_range(const char *opt, const char *s, uint64_t min, uint64_t max);
size_t cli_split(char *s, char **out, size_t max, const char *opt);

/* cli_validate.c: exits 2 on the first bad value */
void cli_validate(struct cli_args *a);

/* cli_list.c */
void cli_usage(FILE *f);
void cli_list(FILE *f);
int cli_tunables(FILE *f, const char *sched);

#endif
