// SPDX-License-Identifier: GPL-2.0
/*
 * --trace FILE: every request's insert, dispatch and completion, one line
 * each in blkparse's default text format, so that what reads a kernel's
 * blktrace (the per-request awk a storage engineer already has, btt-like
 * sums) reads the simulator's too. A run begins with a "#" line naming
 * it. The device is 0,0 on CPU 0; the pid is the thread's number from 1
 * (the request's owner), the process "t<N>".
 */
#include "trace.h"

static void trace_line(void *arg, const struct ek_rq *rq, uint64_t now,
		       char action)
{
	struct sim_trace *t = arg;
	char rwbs[4];
	int n = 0;

	if (rq->kind == EK_KIND_FLUSH)
		rwbs[n++] = 'F';
	rwbs[n++] = rq->dir == EK_WRITE ? 'W' : 'R';
	if (rq->sync)
		rwbs[n++] = 'S';
	rwbs[n] = '\0';
	fprintf(t->f, "%3d,%-3d %2d %8llu %5llu.%09llu %5u  %c %3s %llu + %u [t%u]\n",
		0, 0, 0, ++t->seq, (unsigned long long)(now / 1000000000),
		(unsigned long long)(now % 1000000000), rq->owner, action, rwbs,
		(unsigned long long)rq->sector, rq->nr_sectors, rq->owner);
}

static void on_insert(void *arg, const struct ek_rq *rq, uint64_t now)
{
	trace_line(arg, rq, now, 'I');
}

static void on_dispatch(void *arg, const struct ek_rq *rq, uint64_t now)
{
	trace_line(arg, rq, now, 'D');
}

static void on_complete(void *arg, const struct ek_rq *rq, uint64_t now)
{
	trace_line(arg, rq, now, 'C');
}

void trace_run(struct sim_trace *t, struct sim_config *c)
{
	fprintf(t->f, "# elvkit-sim %s on %s: %s, %u threads, seed %llu\n",
		c->policy->name, c->model->name, sim_workload_name(c->workload),
		c->threads, (unsigned long long)c->seed);
	t->seq = 0;
	c->hooks.arg = t;
	c->hooks.on_insert = on_insert;
	c->hooks.on_dispatch = on_dispatch;
	c->hooks.on_complete = on_complete;
}
