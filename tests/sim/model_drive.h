/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Drive a device model directly, without the simulator's host: a closed
 * loop keeps `depth` requests outstanding, each new one from a generator.
 * For physics tests that need a place on the disk (a zone) or request
 * flags that no workload produces.
 */
#ifndef ELVKIT_MODEL_DRIVE_H
#define ELVKIT_MODEL_DRIVE_H

#include "simtest.h"

#define MD_MAX_DEPTH 64

struct md_dev {
	const struct ek_model_type *type;
	ek_s64 v[SIM_MAX_PARAMS];
	void *state;
	uint64_t now;
};

static inline ek_s64 *md_param(struct md_dev *d, const char *name)
{
	ek_u32 i;

	for (i = 0; i < d->type->nr_params; i++)
		if (!strcmp(d->type->params[i].name, name))
			return &d->v[i];
	printf("FAIL: %s has no parameter %s\n", d->type->name, name);
	exit(1);
}

/* A model by name with its defaults; md_param() may change them before md_start. */
static inline void md_open(struct md_dev *d, const char *name)
{
	ek_u32 i;

	memset(d, 0, sizeof(*d));
	d->type = sim_find_model(name);
	if (!d->type) {
		printf("FAIL: no device %s\n", name);
		exit(1);
	}
	for (i = 0; i < d->type->nr_params; i++)
		d->v[i] = d->type->params[i].def;
}

static inline void md_start(struct md_dev *d)
{
	free(d->state);
	d->state = calloc(1, d->type->size);
	d->now = 0;
	if (!d->state || d->type->init(d->state, d->v)) {
		printf("FAIL: %s refused its parameters\n", d->type->name);
		exit(1);
	}
}

static inline void md_close(struct md_dev *d)
{
	free(d->state);
	d->state = NULL;
}

/* Run the device until r is back; returns its completion time. */
static inline uint64_t md_wait(struct md_dev *d, struct ek_mrq *want)
{
	for (;;) {
		struct ek_mrq *r;
		uint64_t t = d->type->next_done(d->state);

		if (t == EK_U64_MAX) {
			printf("FAIL: device idle with a request outstanding\n");
			exit(1);
		}
		d->now = t > d->now ? t : d->now;
		while ((r = d->type->complete(d->state, d->now)))
			if (r == want)
				return r->done_ns;
	}
}

/* Generator: fill in sector, nr_sectors, dir, flags of the i-th request. */
typedef void (*md_gen)(void *arg, uint64_t i, struct ek_mrq *r);

/*
 * Closed loop: n requests, depth outstanding. Returns the time of the last
 * completion; *half_ns gets the time at which the first half had completed
 * (steady-state rates skip the start, e.g. a write cache filling up).
 */
static inline uint64_t md_loop(struct md_dev *d, unsigned depth, uint64_t n, md_gen gen,
			       void *arg, uint64_t *half_ns)
{
	struct ek_mrq rq[MD_MAX_DEPTH];
	uint64_t issued = 0, done = 0;
	unsigned k;

	memset(rq, 0, sizeof(rq));
	for (k = 0; k < depth && issued < n; k++, issued++) {
		gen(arg, issued, &rq[k]);
		rq[k].tag = &rq[k];
		d->type->submit(d->state, &rq[k], d->now);
	}
	while (done < n) {
		struct ek_mrq *r;
		uint64_t t = d->type->next_done(d->state);

		if (t == EK_U64_MAX) {
			printf("FAIL: device idle with %llu requests outstanding\n",
			       (unsigned long long)(issued - done));
			exit(1);
		}
		d->now = t > d->now ? t : d->now;
		while ((r = d->type->complete(d->state, d->now))) {
			done++;
			if (half_ns && done == n / 2)
				*half_ns = d->now;
			if (issued < n) {
				gen(arg, issued++, r);
				d->type->submit(d->state, r, d->now);
			}
		}
	}
	return d->now;
}

/* Generator of back-to-back requests of nr sectors from start, all dir. */
struct md_seq {
	uint64_t start;
	uint32_t nr;
	uint8_t dir;
};

static inline void md_seq_gen(void *arg, uint64_t i, struct ek_mrq *r)
{
	const struct md_seq *s = arg;

	r->sector = s->start + i * s->nr;
	r->nr_sectors = s->nr;
	r->dir = s->dir;
	r->flags = 0;
}

/* Zone z's media rate in MB/s, as the model lays zones out. */
static inline double md_zone_mbs(struct md_dev *d, unsigned z)
{
	double outer = (double)*md_param(d, "outer_mbs"), inner = (double)*md_param(d, "inner_mbs");
	double nz = (double)*md_param(d, "zones");

	return nz > 1 ? outer - (outer - inner) * z / (nz - 1) : outer;
}

/* Zone z's first sector: zones have equal track counts, capacity ~ rate. */
static inline uint64_t md_zone_start(struct md_dev *d, unsigned z)
{
	double nz = (double)*md_param(d, "zones"), sum = 0, before = 0;
	unsigned i;

	for (i = 0; i < (unsigned)nz; i++) {
		if (i < z)
			before += md_zone_mbs(d, i);
		sum += md_zone_mbs(d, i);
	}
	return (uint64_t)((double)d->type->capacity(d->state) * before / sum) + 4096;
}

#endif
