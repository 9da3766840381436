// SPDX-License-Identifier: GPL-2.0
/* null: every request takes a fixed latency; up to qd in parallel. */
#include "model.h"

enum { P_LAT, P_QD, P_CAP, P_NR };

static const struct ek_model_param null_params[P_NR] = {
	[P_LAT] = { "lat_us", "us", "service time of every request", 100, 0, 10000000 },
	[P_QD] = { "qd", "requests", "queue depth", 32, 1, 1024 },
	[P_CAP] = { "capacity_gb", "GB", "capacity", 1000, 1, 1000000 },
};

struct null_dev {
	ek_u64 lat_ns;
	ek_u32 qd;
	ek_u64 cap;
	struct ek_list inflight;	/* sorted by done_ns */
};

static int null_init(void *m, const ek_s64 *v)
{
	struct null_dev *d = m;

	d->lat_ns = (ek_u64)v[P_LAT] * 1000;
	d->qd = (ek_u32)v[P_QD];
	d->cap = (ek_u64)v[P_CAP] * 1000000000ULL / 512;
	ek_list_init(&d->inflight);
	return 0;
}

static ek_u32 null_qd(void *m) { return ((struct null_dev *)m)->qd; }
static int null_rot(void *m) { (void)m; return 0; }
static ek_u64 null_cap(void *m) { return ((struct null_dev *)m)->cap; }

static void null_submit(void *m, struct ek_mrq *r, ek_u64 now)
{
	struct null_dev *d = m;

	r->submit_ns = r->start_ns = now;
	r->done_ns = now + d->lat_ns;
	ek_mrq_insert_sorted(&d->inflight, r);
}

static ek_u64 null_next(void *m)
{
	struct null_dev *d = m;
	struct ek_mrq *r = ek_list_first(&d->inflight, struct ek_mrq, link);

	return r ? r->done_ns : EK_U64_MAX;
}

static struct ek_mrq *null_complete(void *m, ek_u64 now)
{
	struct null_dev *d = m;
	struct ek_mrq *r = ek_list_first(&d->inflight, struct ek_mrq, link);

	if (!r || r->done_ns > now)
		return EK_NULL;
	ek_list_del(&r->link);
	return r;
}

const struct ek_model_type ek_model_null = {
	.name = "null",
	.description = "fixed latency, parallel up to qd",
	.size = sizeof(struct null_dev),
	.params = null_params,
	.nr_params = P_NR,
	.init = null_init,
	.queue_depth = null_qd,
	.rotational = null_rot,
	.capacity = null_cap,
	.submit = null_submit,
	.next_done = null_next,
	.complete = null_complete,
};
