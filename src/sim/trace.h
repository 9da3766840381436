/* SPDX-License-Identifier: GPL-2.0 */
/* --trace: the requests of every run, as blkparse prints a blktrace (trace.c). */
#ifndef ELVKIT_SIM_TRACE_H
#define ELVKIT_SIM_TRACE_H

#include "sim.h"

struct sim_trace {
	FILE *f;
	unsigned long long seq;		/* blkparse's sequence number, per run */
};

/* Head the next run (c, its seed set) and hook its requests to t. */
void trace_run(struct sim_trace *t, struct sim_config *c);

#endif
