/* SPDX-License-Identifier: GPL-2.0 */
/* Results of one configuration over --runs seeds, and how they are shown. */
#ifndef ELVKIT_SIM_REPORT_H
#define ELVKIT_SIM_REPORT_H

#include "sim.h"

enum { M_RATE, M_READ, M_WRITE, M_IOPS, M_AVG, M_MAX, M_O2, M_O10, M_STARTUP,
	M_BGMAX, M_NR };

struct sim_row {
	const char *sched, *device;
	int workload;
	unsigned threads;
	int mixed;
	uint64_t block, size;
	uint64_t seed;
	unsigned runs;
	double mean[M_NR], pm[M_NR];	/* pm: (max - min) / 2 over runs */
	int truncated;
	uint64_t violations;
};

void row_fill(struct sim_row *row, const struct sim_result *r, unsigned n);
void report_table(FILE *f, const struct sim_row *rows, size_t n);
void report_wall(FILE *f, const struct sim_row *rows, size_t n);
void report_chart(FILE *f, const struct sim_row *rows, size_t n);
int json_write(const char *path, const struct sim_row *rows, size_t n);

#endif
