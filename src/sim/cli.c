// SPDX-License-Identifier: GPL-2.0
/* elvkit-sim: command line. Exit 0 ok, 1 a policy broke the contract, 2 bad arguments. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

#define MAX_LIST 64
#define MAX_KV 32

static void usage(FILE *f)
{
	fprintf(f,
"usage: elvkit-sim [options]\n"
"  --sched LIST        schedulers, comma-separated (default: all; see --list)\n"
"  --device NAME       hdd, hdd-laptop, hdd-2002, ssd or null (default hdd)\n"
"  --dev NAME=VALUE    override a device parameter (repeatable; see --list)\n"
"  --workload LIST     seqread,seqwrite,randread,randwrite,read-vs-write,\n"
"                      think-read,startup (default seqread)\n"
"  --threads LIST      thread counts (default 1,8,32,128,256)\n"
"  --block SIZE        bytes per I/O, multiple of 512 (default 4k)\n"
"  --size SIZE         total bytes, sequential workloads (default 64m)\n"
"  --ios N             total I/Os, random workloads (default 2000)\n"
"  --think US          think time of synchronous readers (workload default)\n"
"  --bg none|write|read  background thread(s) (read-vs-write, startup: write)\n"
"  --bg-block SIZE     background I/O size (default: 64k or --block if larger)\n"
"  --readahead SIZE    sequential synchronous readers read at least this much\n"
"                      per I/O, like page-cache read-ahead (default 128k; 0 off)\n"
"  --wdepth N          async writes in flight per writer (default 256)\n"
"  --prio LIST         foreground I/O priorities, cycled over threads:\n"
"                      rt:N, be:N, idle (default be:4)\n"
"  --bg-prio P         background I/O priority (default be:4)\n"
"  --tune NAME=VALUE   set a scheduler tunable (where the scheduler has it)\n"
"  --nr-requests N     requests per direction the queue holds (default 128)\n"
"  --max-kb N          largest merged request in KiB (default 512, or --block)\n"
"  --requeue PCT       bounce PCT%% of dispatches back through requeue (default 0)\n"
"  --startup-ios N     reads of the startup burst (default 200)\n"
"  --warmup MS         background-only time before the startup burst (default 1000)\n"
"  --time-limit S      simulated seconds before a run is cut (default 600)\n"
"  --seed N            (default 1)\n"
"  --runs N            repeat with seeds seed..seed+N-1: mean +/- half range\n"
"  --json FILE         write results as a JSON array\n"
"  --chart             ASCII bar charts after the table\n"
"  --no-wall           skip the wall summary\n"
"  --list              list schedulers, devices (with parameters) and workloads\n");
}

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "elvkit-sim: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(2);
}

static uint64_t parse_num(const char *opt, const char *s, int sized)
{
	char *end;
	unsigned long long v;
	uint64_t mult = 1;

	if (!*s || *s == '-' || *s == '+')
		die("%s: malformed number '%s'", opt, s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		die("%s: malformed number '%s'", opt, s);
	if (sized && *end) {
		switch (*end | 0x20) {
		case 'k': mult = 1ULL << 10; break;
		case 'm': mult = 1ULL << 20; break;
		case 'g': mult = 1ULL << 30; break;
		case 't': mult = 1ULL << 40; break;
		default: die("%s: malformed size '%s'", opt, s);
		}
		end++;
		if ((*end | 0x20) == 'b' || (*end | 0x20) == 'i')
			end += ((*end | 0x20) == 'i' && (end[1] | 0x20) == 'b') ? 2 : 1;
	}
	if (*end)
		die("%s: malformed number '%s'", opt, s);
	if (v > UINT64_MAX / mult)
		die("%s: number too large '%s'", opt, s);
	return v * mult;
}

static size_t split(char *s, char **out, size_t max, const char *opt)
{
	size_t n = 0;

	if (!*s)
		die("%s: empty list", opt);
	for (;;) {
		char *comma = strchr(s, ',');

		if (comma)
			*comma = 0;
		if (!*s)
			die("%s: empty entry in the list", opt);
		if (n == max)
			die("%s: too many entries (max %zu)", opt, max);
		out[n++] = s;
		if (!comma)
			return n;
		s = comma + 1;
	}
}

static struct sim_prio parse_prio(const char *opt, const char *s)
{
	struct sim_prio p = { EK_PRIO_BE, 4 };
	const char *lvl = strchr(s, ':');
	size_t len = lvl ? (size_t)(lvl - s) : strlen(s);

	if (len == 2 && !strncmp(s, "rt", 2))
		p.cls = EK_PRIO_RT;
	else if (len == 2 && !strncmp(s, "be", 2))
		p.cls = EK_PRIO_BE;
	else if (len == 4 && !strncmp(s, "idle", 4))
		p.cls = EK_PRIO_IDLE;
	else
		die("%s: unknown priority class in '%s' (rt, be, idle)", opt, s);
	if (lvl) {
		uint64_t v = parse_num(opt, lvl + 1, 0);

		if (v > 7)
			die("%s: priority level must be 0..7: '%s'", opt, s);
		p.lvl = (uint8_t)v;
	} else {
		p.lvl = p.cls == EK_PRIO_IDLE ? 7 : 4;
	}
	return p;
}

struct kv {
	char *name;
	ek_s64 value;
};

static struct kv parse_kv(const char *opt, char *s)
{
	struct kv kv;
	char *eq = strchr(s, '=');
	int neg = 0;

	if (!eq || eq == s)
		die("%s: expected NAME=VALUE, got '%s'", opt, s);
	*eq = 0;
	kv.name = s;
	if (eq[1] == '-') {
		neg = 1;
		eq++;
	}
	kv.value = (ek_s64)parse_num(opt, eq + 1, 0);
	if (neg)
		kv.value = -kv.value;
	return kv;
}

static void list_all(void)
{
	int i;
	ek_u32 k;

	printf("schedulers:\n");
	for (i = 0; sim_policies[i]; i++) {
		const struct ek_policy *p = sim_policies[i];

		printf("  %-14s %s\n", p->name, p->description);
		for (k = 0; k < p->nr_tunables; k++)
			if (!(p->tunables[k].flags & EK_TUN_RO))
				printf("      %-16s %8lld %-9s %s\n", p->tunables[k].name,
				       (long long)p->tunables[k].def, p->tunables[k].unit,
				       p->tunables[k].help);
	}
	printf("devices (--dev NAME=VALUE):\n");
	for (i = 0; ek_models[i]; i++) {
		const struct ek_model_type *m = ek_models[i];

		printf("  %-14s %s\n", m->name, m->description);
		for (k = 0; k < m->nr_params; k++)
			printf("      %-16s %8lld %-9s %s\n", m->params[k].name,
			       (long long)m->params[k].def, m->params[k].unit, m->params[k].help);
	}
	printf("workloads:\n");
	for (i = 0; i < WL_NR; i++)
		printf("  %-14s %s\n", sim_workload_name(i), sim_workload_help(i));
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "sched", 1, 0, 's' }, { "device", 1, 0, 'd' }, { "dev", 1, 0, 'D' },
		{ "workload", 1, 0, 'w' }, { "threads", 1, 0, 't' }, { "block", 1, 0, 'b' },
		{ "size", 1, 0, 'S' }, { "ios", 1, 0, 'i' }, { "think", 1, 0, 'T' },
		{ "bg", 1, 0, 'g' }, { "bg-block", 1, 0, 'B' }, { "wdepth", 1, 0, 'W' },
		{ "prio", 1, 0, 'p' }, { "bg-prio", 1, 0, 'P' }, { "tune", 1, 0, 'u' },
		{ "nr-requests", 1, 0, 'n' }, { "max-kb", 1, 0, 'm' },
		{ "requeue", 1, 0, 'r' }, { "startup-ios", 1, 0, 'I' },
		{ "warmup", 1, 0, 'U' }, { "time-limit", 1, 0, 'L' }, { "seed", 1, 0, 'e' },
		{ "runs", 1, 0, 'R' }, { "json", 1, 0, 'j' }, { "chart", 0, 0, 'c' },
		{ "no-wall", 0, 0, 'N' }, { "readahead", 1, 0, 'A' }, { "list", 0, 0, 'l' }, { "help", 0, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	char sched_default[256] = "", threads_default[] = "1,8,32,128,256";
	char wl_default[] = "seqread";
	char *sched_arg = NULL, *threads_arg = threads_default, *wl_arg = wl_default;
	const char *device = "hdd", *json = NULL;
	char *scheds[MAX_LIST], *thr_s[MAX_LIST], *wls[MAX_LIST];
	const struct ek_policy *pols[MAX_LIST];
	unsigned threads[MAX_LIST], runs = 1;
	int wl_ids[MAX_LIST];
	struct kv tunes[MAX_KV], devs[MAX_KV];
	size_t ntune = 0, ndev = 0, nsched, nthr, nwl, i, j, k, nrows = 0;
	int chart = 0, wall = 1, opt, ret = 0;
	struct sim_config base;
	const struct ek_model_type *model;
	struct sim_row *rows;
	struct sim_result *res;

	opterr = 0;
	sim_config_init(&base);
	base.max_kb = 0;	/* default decided once --block is known */
	while ((opt = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		const char *o = optind > 0 && optind <= argc ? argv[optind - 1] : "?";

		switch (opt) {
		case 's': sched_arg = optarg; break;
		case 'd': device = optarg; break;
		case 'D':
			if (ndev == MAX_KV)
				die("--dev: too many");
			devs[ndev++] = parse_kv("--dev", optarg);
			break;
		case 'w': wl_arg = optarg; break;
		case 't': threads_arg = optarg; break;
		case 'b': base.block = parse_num("--block", optarg, 1); break;
		case 'S': base.size = parse_num("--size", optarg, 1); break;
		case 'i': base.ios = parse_num("--ios", optarg, 0); break;
		case 'T': base.think_us = (int64_t)parse_num("--think", optarg, 0); break;
		case 'g':
			if (!strcmp(optarg, "none"))
				base.bg = BG_NONE;
			else if (!strcmp(optarg, "write"))
				base.bg = BG_WRITE;
			else if (!strcmp(optarg, "read"))
				base.bg = BG_READ;
			else
				die("--bg: expected none, write or read, got '%s'", optarg);
			break;
		case 'A': base.readahead = parse_num("--readahead", optarg, 1); break;
		case 'B': base.bg_block = parse_num("--bg-block", optarg, 1); break;
		case 'W': base.wdepth = (unsigned)parse_num("--wdepth", optarg, 0); break;
		case 'p': {
			char *ps[SIM_MAX_PRIO];
			size_t np = split(optarg, ps, SIM_MAX_PRIO, "--prio");

			for (k = 0; k < np; k++)
				base.prio[k] = parse_prio("--prio", ps[k]);
			base.nprio = (unsigned)np;
			break;
		}
		case 'P': base.bg_prio = parse_prio("--bg-prio", optarg); break;
		case 'u':
			if (ntune == MAX_KV)
				die("--tune: too many");
			tunes[ntune++] = parse_kv("--tune", optarg);
			break;
		case 'n': base.nr_requests = (unsigned)parse_num("--nr-requests", optarg, 0); break;
		case 'm': base.max_kb = (unsigned)parse_num("--max-kb", optarg, 0); break;
		case 'r': base.requeue_pct = (unsigned)parse_num("--requeue", optarg, 0); break;
		case 'I': base.startup_ios = (unsigned)parse_num("--startup-ios", optarg, 0); break;
		case 'U': base.warmup_ns = parse_num("--warmup", optarg, 0) * 1000000ULL; break;
		case 'L': base.time_limit_ns = parse_num("--time-limit", optarg, 0) * 1000000000ULL; break;
		case 'e': base.seed = parse_num("--seed", optarg, 0); break;
		case 'R': runs = (unsigned)parse_num("--runs", optarg, 0); break;
		case 'j': json = optarg; break;
		case 'c': chart = 1; break;
		case 'N': wall = 0; break;
		case 'l': list_all(); return 0;
		case 'h': usage(stdout); return 0;
		case ':':
			die("option needs a value: %s (see --help)", o);
		default:
			die("unknown option %s (see --help)", o);
		}
	}
	if (optind < argc)
		die("unexpected argument '%s'", argv[optind]);

	/* validate */
	if (base.block < 512 || base.block % 512)
		die("--block must be a positive multiple of 512");
	if (base.bg_block % 512)
		die("--bg-block must be a multiple of 512");
	if (base.readahead % 512 || base.readahead > (64ULL << 20))
		die("--readahead must be a multiple of 512, at most 64m");
	if (base.block > (64ULL << 20) || base.bg_block > (64ULL << 20))
		die("--block and --bg-block must be at most 64m");
	if (base.size < base.block)
		die("--size must be at least one block");
	if (!base.ios)
		die("--ios must be at least 1");
	if (!base.wdepth || base.wdepth > 65536)
		die("--wdepth must be 1..65536");
	if (!base.nr_requests || base.nr_requests > 1000000)
		die("--nr-requests must be 1..1000000");
	if (!base.max_kb)
		base.max_kb = base.block / 1024 > 512 ? (unsigned)(base.block / 1024) : 512;
	if (base.max_kb < base.block / 1024 || base.max_kb > 65536)
		die("--max-kb must be at least one block and at most 65536");
	if (base.requeue_pct > 100)
		die("--requeue must be 0..100");
	if (!runs || runs > 1000)
		die("--runs must be 1..1000");
	if (!base.startup_ios)
		die("--startup-ios must be at least 1");
	if (!base.time_limit_ns)
		die("--time-limit must be at least 1");

	if (!sched_arg) {
		for (i = 0; sim_policies[i]; i++) {
			if (i)
				strncat(sched_default, ",", sizeof(sched_default) - strlen(sched_default) - 1);
			strncat(sched_default, sim_policies[i]->name,
				sizeof(sched_default) - strlen(sched_default) - 1);
		}
		sched_arg = sched_default;
	}
	nsched = split(sched_arg, scheds, MAX_LIST, "--sched");
	for (i = 0; i < nsched; i++)
		if (!(pols[i] = sim_find_policy(scheds[i])))
			die("--sched: unknown scheduler '%s' (see --list)", scheds[i]);
	nthr = split(threads_arg, thr_s, MAX_LIST, "--threads");
	for (i = 0; i < nthr; i++) {
		uint64_t v = parse_num("--threads", thr_s[i], 0);

		if (!v || v > 65536)
			die("--threads: thread counts must be 1..65536, got '%s'", thr_s[i]);
		threads[i] = (unsigned)v;
	}
	nwl = split(wl_arg, wls, MAX_LIST, "--workload");
	for (i = 0; i < nwl; i++)
		if ((wl_ids[i] = sim_find_workload(wls[i])) < 0)
			die("--workload: unknown workload '%s' (see --list)", wls[i]);
	model = sim_find_model(device);
	if (!model)
		die("--device: unknown device '%s' (hdd, hdd-laptop, hdd-2002, ssd, null)", device);
	sim_config_model(&base, model);
	for (i = 0; i < ndev; i++) {
		int e = sim_config_dev(&base, devs[i].name, devs[i].value);

		if (e == -1)
			die("--dev: %s has no parameter '%s' (see --list)", device, devs[i].name);
		if (e == -2)
			die("--dev: %s=%lld out of range", devs[i].name, (long long)devs[i].value);
	}
	for (i = 0; i < ntune; i++) {
		int known = 0;

		for (j = 0; j < nsched; j++) {
			struct sim_config c = base;
			int e;

			sim_config_policy(&c, pols[j]);
			e = sim_config_tune(&c, tunes[i].name, tunes[i].value);
			if (e == -2)
				die("--tune: %s=%lld out of range for %s", tunes[i].name,
				    (long long)tunes[i].value, pols[j]->name);
			known |= e == 0;
		}
		if (!known)
			die("--tune: no selected scheduler has a tunable '%s'", tunes[i].name);
	}

	rows = calloc(nwl * nthr * nsched, sizeof(*rows));
	res = calloc(runs, sizeof(*res));
	if (!rows || !res)
		return 1;
	for (i = 0; i < nwl; i++) {
		for (j = 0; j < nthr; j++) {
			for (k = 0; k < nsched; k++) {
				struct sim_config c = base;
				struct sim_row *row = &rows[nrows++];
				size_t t;
				unsigned rn;

				c.workload = wl_ids[i];
				c.threads = threads[j];
				sim_config_policy(&c, pols[k]);
				for (t = 0; t < ntune; t++)
					sim_config_tune(&c, tunes[t].name, tunes[t].value);
				for (rn = 0; rn < runs; rn++) {
					c.seed = base.seed + rn;
					if (sim_run(&c, &res[rn]))
						die("cannot set up the run: the %s parameters are inconsistent "
						    "or %s refused to start", model->name, pols[k]->name);
					if (res[rn].violations) {
						fprintf(stderr, "elvkit-sim: %s, %s, %u threads, seed %llu: "
							"%llu contract violations; first: %s\n",
							pols[k]->name, sim_workload_name(c.workload),
							c.threads, (unsigned long long)c.seed,
							(unsigned long long)res[rn].violations,
							res[rn].violation);
						ret = 1;
					}
				}
				row->sched = pols[k]->name;
				row->device = model->name;
				row->workload = c.workload;
				row->threads = c.threads;
				row->mixed = sim_workload_mixed(&c);
				row->block = c.block;
				row->size = c.size;
				row->seed = base.seed;
				row_fill(row, res, runs);
			}
		}
	}
	report_table(stdout, rows, nrows);
	if (wall && nthr > 1)
		report_wall(stdout, rows, nrows);
	if (chart)
		report_chart(stdout, rows, nrows);
	if (json && json_write(json, rows, nrows)) {
		fprintf(stderr, "elvkit-sim: cannot write %s\n", json);
		ret = ret ? ret : 1;
	}
	free(rows);
	free(res);
	return ret;
}
