// SPDX-License-Identifier: GPL-2.0
/*
 * --help and --list. Scheduler, device and workload names come from the
 * lists the simulator runs (sim_policies, ek_models, the workload table),
 * never from text kept here, so a new policy or model shows up by itself.
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* "a, b or c" */
static void names(FILE *f, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? (i + 1 == n ? " or " : ", ") : "", v[i]);
}

static void model_names(FILE *f)
{
	const char *v[64];
	size_t n = 0;

	for (; n < 64 && ek_models[n]; n++)
		v[n] = ek_models[n]->name;
	names(f, v, n);
}

/* "a,b,c", wrapped under the option's help column */
static void workload_names(FILE *f)
{
	size_t col = 22;
	int i;

	for (i = 0; i < WL_NR; i++) {
		const char *n = sim_workload_name(i);

		if (i && col + strlen(n) + 1 > 76) {
			fprintf(f, ",\n%22s", "");
			col = 22;
		} else if (i) {
			fprintf(f, ",");
			col++;
		}
		fprintf(f, "%s", n);
		col += strlen(n);
	}
}

void cli_usage(FILE *f)
{
	fprintf(f,
"usage: elvkit-sim [options]\n"
"  --sched LIST        schedulers, comma-separated (default: all; see --list)\n"
"  --device NAME       ");
	model_names(f);
	fprintf(f, " (default %s)\n", ek_models[0]->name);
	fprintf(f,
"  --dev NAME=VALUE    override a device parameter (repeatable; see --list)\n"
"  --workload LIST     ");
	workload_names(f);
	fprintf(f, " (default %s)\n", sim_workload_name(WL_SEQREAD));
	fprintf(f,
"  --threads LIST      thread counts (default 1,8,32,128,256)\n"
"  --block SIZE        bytes per I/O, multiple of 512 (default 4k)\n"
"  --size SIZE         total bytes, sequential workloads (default 64m)\n"
"  --region-align SIZE  each foreground thread works in --size / threads\n"
"                      rounded down to a multiple of SIZE (default 512), one\n"
"                      region after another from sector 0: as fio's --size\n"
"                      and --offset_increment where its job file rounds them\n"
"                      (bench-kernel.sh: 1m); on a disk where each stream's\n"
"                      place under the head decides NCQ's order, it matters\n"
"  --interleave        seqread: the threads share one region of --size and\n"
"                      read alternate blocks (thread i blocks i, i + N, ...),\n"
"                      as cooperating processes; needs --readahead 0 (each\n"
"                      read a bio, as O_DIRECT) and seqread alone\n"
"  --ios N             total I/Os, random workloads (default 2000)\n"
"  --think US|PCT:US,...  think time of synchronous readers, 0..1000000\n"
"                      (default: the workload's); as points of its quantile\n"
"                      function, from 0:US to 100:US (PCT may have four\n"
"                      decimals), a draw for every think, linear between\n"
"                      points (waketrace.py --sim-options prints a trace's)\n"
"  --bg none|write|read  background thread(s) (read-vs-write, startup: write)\n"
"  --bg-block SIZE     background I/O size (default: 64k or --block if larger)\n"
"  --readahead SIZE    sequential synchronous readers read at least this much\n"
"                      per I/O, like page-cache read-ahead (default 128k; 0 off)\n"
"  --wdepth N          async writes in flight per writer (default 256)\n"
"  --dirty-kb N        buffered writers are dirty-throttled as the kernel's\n"
"                      balance_dirty_pages() does under vm.dirty_bytes N KiB\n"
"                      (default 0: off, a writer holds --wdepth bios out)\n"
"  --dirty-bg-kb N     vm.dirty_background_bytes in KiB (default --dirty-kb/4)\n"
"  --flusher-us US     the flusher runs US microseconds after a writer wakes\n"
"                      it (a kworker being scheduled; default 0)\n"
"  --copy-mbs MBS      buffered writers copy into the page cache at MBS MB/s:\n"
"                      each write(2) takes its CPU time before its pages are\n"
"                      dirty (fio's writer's CPU; default 0: no time)\n"
"  --wb-bw-init KIBPS[,KIBPS...]  the bdi's writeback bandwidth estimate\n"
"                      (and dirty ratelimit) each run starts with, in KiB/s as\n"
"                      debugfs's bdi wb_stats show it: one per run (--runs), the\n"
"                      last repeats (default 102400, the kernel's INIT_BW; a\n"
"                      kernel's carries over from its last writer)\n"
"  --prio LIST         foreground I/O priorities, cycled over threads:\n"
"                      rt:N, be:N, idle (default be:4)\n"
"  --bg-prio P         background I/O priority (default be:4)\n"
"  --tune NAME=VALUE   set a scheduler tunable (where the scheduler has it)\n"
"  --nr-requests N     requests the queue holds, reads and writes together\n"
"                      (default 2 x min(device queue depth, 128), as blk-mq;\n"
"                      noop, as the kernel's none: the device's queue depth)\n"
"  --tag-wake-us US    freed requests go back to the pool and wake sleepers in\n"
"                      sbitmap's batches (4 for noop at depth 32, 1 under a\n"
"                      scheduler with limit_depth); they, and tasks wbt wakes,\n"
"                      ask again a random 0..2xUS later, and whoever asks\n"
"                      first wins; default: handed straight to the first\n"
"                      sleeper, wbt's woken at once; PCT:US,... as for --think\n"
"                      draws the delay from those points instead\n"
"  --tag-wake-batch N  with --tag-wake-us, sleepers woken per N requests freed\n"
"                      (1..8; default as sbitmap computes it, above; 7.2's\n"
"                      mq-deadline has 8 at 64 requests: its min_shallow_depth\n"
"                      is its async_depth; debugfs sched_tags shows it)\n"
"  --wbt-wake-us US    tasks wbt wakes ask again a random 0..2xUS later\n"
"                      (default: as --tag-wake-us, or at once)\n"
"  --write-end-us US   a write request's bios end, and it gives back wbt's\n"
"                      slot and its tag, US after the device completed it\n"
"                      (the page cache's writeback end; default 0)\n"
"  --late-us US        the device's completions reach the host US later than\n"
"                      the model has them done, everything due by then at\n"
"                      once (ekdisk's timer in a guest; default 0);\n"
"                      PCT:US,... as for --think draws it per timer event\n"
"                      (bench-kernel.sh's ekdisk_late_hist)\n"
"  --start-us US       each thread starts at a random 0..US (per seed; default\n"
"                      0: all at once, in thread order): which one gets to\n"
"                      the device first is then not always the first's\n"
"  --max-kb N          largest merged request in KiB (default 1280, or --block)\n"
"  --wbt on|off|auto   writeback throttling (default auto: on for rotational\n"
"                      devices, unless the scheduler turns it off)\n"
"  --requeue PCT       the driver sends PCT%% of dispatches back (default 0):\n"
"                      the policy hears of it (requeue), and the requeue\n"
"                      list's work inserts it again, at the head\n"
"  --requeue-us US     ... that work runs US later (default 0: as soon as the\n"
"                      dispatch in progress is done; SCSI waits 3000 when busy)\n"
"  --requeue-dontprep  ... with RQF_DONTPREP (SCSI, NVMe): the policy hears\n"
"                      nothing, and the request goes to the device again\n"
"                      ahead of the policy's next\n"
"  --startup-ios N     reads of the startup burst (1..1000000, default 200)\n"
"  --warmup MS         background-only time before the startup burst\n"
"                      (0..1000000000, default 1000)\n"
"  --time-limit S      simulated seconds before a run is cut (1..1000000,\n"
"                      default 600)\n"
"  --min-time S|auto   foreground threads repeat their work until S simulated\n"
"                      seconds, 0..1000000 (default auto: 10x the longest ms\n"
"                      tunable of the schedulers compared); at most --time-limit\n"
"  --seed N            (default 1)\n"
"  --runs N            repeat with seeds seed..seed+N-1: mean +/- half range\n"
"  --json FILE         write results as a JSON array\n"
"  --runtime S         as fio's --time_based --runtime: foreground threads\n"
"                      repeat their work until S simulated seconds (at most\n"
"                      1000000), then start no new I/O; the run ends when\n"
"                      what they have in flight completes, that drain\n"
"                      counted in its time and rates (excludes --min-time;\n"
"                      --time-limit still cuts)\n"
"  --trace FILE        write every request's insert, dispatch and completion,\n"
"                      one line each in blkparse's text format (pid: the\n"
"                      thread from 1), a \"#\" line heading each run\n"
"  --chart             ASCII bar charts after the table\n"
"  --no-wall           skip the wall summary\n"
"  --list              list schedulers, devices (with parameters) and workloads\n"
"  --tunables NAME     print scheduler NAME's tunables, one per line:\n"
"                      name default min max (what the VM tests, README and\n"
"                      elvkit(7) are checked against)\n");
}

/*
 * The capacity the model has at its defaults (a disk rounds capacity_gb up
 * to whole tracks): what /sys/block/DEV/size shows for ekdisk with this
 * profile, and what a script that splits the device as the guest's fio
 * jobs do must start from.
 */
static void model_capacity(FILE *f, const struct ek_model_type *m)
{
	ek_s64 v[SIM_MAX_PARAMS];
	void *st = calloc(1, m->size);
	ek_u32 k;

	if (!st)
		abort();
	for (k = 0; k < m->nr_params && k < SIM_MAX_PARAMS; k++)
		v[k] = m->params[k].def;
	if (m->nr_params <= SIM_MAX_PARAMS && !m->init(st, v))
		fprintf(f, "      %-16s %8llu %-9s %s\n", "= capacity",
			(unsigned long long)m->capacity(st), "sectors",
			"the model's capacity at these values (not a parameter)");
	free(st);
}

void cli_list(FILE *f)
{
	int i;
	ek_u32 k;

	fprintf(f, "schedulers:\n");
	for (i = 0; sim_policies[i]; i++) {
		const struct ek_policy *p = sim_policies[i];

		fprintf(f, "  %-14s %s\n", p->name, p->description);
		for (k = 0; k < p->nr_tunables; k++)
			if (!(p->tunables[k].flags & EK_TUN_RO))
				fprintf(f, "      %-16s %8lld %-9s %s\n", p->tunables[k].name,
					(long long)p->tunables[k].def, p->tunables[k].unit,
					p->tunables[k].help);
	}
	fprintf(f, "devices (--dev NAME=VALUE):\n");
	for (i = 0; ek_models[i]; i++) {
		const struct ek_model_type *m = ek_models[i];

		fprintf(f, "  %-14s %s\n", m->name, m->description);
		for (k = 0; k < m->nr_params; k++)
			fprintf(f, "      %-16s %8lld %-9s %s\n", m->params[k].name,
				(long long)m->params[k].def, m->params[k].unit,
				m->params[k].help);
		model_capacity(f, m);
	}
	fprintf(f, "workloads:\n");
	for (i = 0; i < WL_NR; i++)
		fprintf(f, "  %-14s %s\n", sim_workload_name(i), sim_workload_help(i));
}

/*
 * The policy's own table is the one source of its tunables' names, defaults
 * and ranges: the kernel's sysfs files, the guest tests, README and
 * elvkit(7) are all checked against this output.
 */
int cli_tunables(FILE *f, const char *sched)
{
	const struct ek_policy *p = sim_find_policy(sched);
	ek_u32 k;

	if (!p) {
		fprintf(stderr, "elvkit-sim: --tunables: unknown scheduler '%s'\n", sched);
		return 2;
	}
	for (k = 0; k < p->nr_tunables; k++) {
		const struct ek_tunable *t = &p->tunables[k];

		fprintf(f, "%s %lld %lld %lld\n", t->name, (long long)t->def,
			(long long)t->min, (long long)t->max);
	}
	return 0;
}
