// SPDX-License-Identifier: GPL-2.0
/*
 * ssd: flash. Reads go to one of `channels` independent channels, chosen by
 * address (stripe_kb striping); each channel serves one read at a time in
 * read_us plus transfer at chan_mbs. Writes land in a DRAM write buffer
 * (acknowledged after wbuf_us) that drains to flash at prog_mbs in the
 * background; a write that finds the buffer full waits until enough has
 * drained. Reads do not wait for the drain (simplification).
 */
#include "model.h"

enum { P_QD, P_READ, P_CHAN, P_CHAN_MBS, P_STRIPE, P_WBUF_US, P_WBUF_KB,
	P_PROG_MBS, P_CAP, P_NR };

#define SSD_MAX_CHANNELS 64

static const struct ek_model_param ssd_params[P_NR] = {
	[P_QD] = { "qd", "requests", "queue depth (NCQ/NVMe tags)", 32, 1, 1024 },
	[P_READ] = { "read_us", "us", "flash read latency per request", 80, 0, 100000 },
	[P_CHAN] = { "channels", "count", "internal parallelism", 8, 1, SSD_MAX_CHANNELS },
	[P_CHAN_MBS] = { "chan_mbs", "MB/s", "transfer rate of one channel", 200, 1, 100000 },
	[P_STRIPE] = { "stripe_kb", "KB", "address striping across channels", 64, 4, 1048576 },
	[P_WBUF_US] = { "wbuf_us", "us", "write latency into the buffer", 20, 0, 100000 },
	[P_WBUF_KB] = { "wbuf_kb", "KB", "write buffer size", 65536, 0, 16777216 },
	[P_PROG_MBS] = { "prog_mbs", "MB/s", "sustained flash program (drain) rate", 400, 1, 100000 },
	[P_CAP] = { "capacity_gb", "GB", "capacity", 500, 1, 1000000 },
};

struct ssd_dev {
	ek_u32 qd, channels;
	ek_u64 read_ns, wbuf_ns, stripe_sectors;
	ek_u64 chan_bps, prog_bps;	/* bytes per second */
	ek_u64 wbuf_bytes;
	ek_u64 cap;
	ek_u64 chan_free[SSD_MAX_CHANNELS];
	ek_u64 buf_fill;		/* bytes in the buffer at buf_time */
	ek_u64 buf_time;
	struct ek_list inflight;
};

static int ssd_init(void *m, const ek_s64 *v)
{
	struct ssd_dev *d = m;

	d->qd = (ek_u32)v[P_QD];
	d->read_ns = (ek_u64)v[P_READ] * 1000;
	d->channels = (ek_u32)v[P_CHAN];
	d->chan_bps = (ek_u64)v[P_CHAN_MBS] * 1000000;
	d->stripe_sectors = (ek_u64)v[P_STRIPE] * 2;
	d->wbuf_ns = (ek_u64)v[P_WBUF_US] * 1000;
	d->wbuf_bytes = (ek_u64)v[P_WBUF_KB] * 1024;
	d->prog_bps = (ek_u64)v[P_PROG_MBS] * 1000000;
	d->cap = (ek_u64)v[P_CAP] * 1000000000ULL / 512;
	ek_list_init(&d->inflight);
	return 0;
}

static ek_u32 ssd_qd(void *m) { return ((struct ssd_dev *)m)->qd; }
static int ssd_rot(void *m) { (void)m; return 0; }
static ek_u64 ssd_cap(void *m) { return ((struct ssd_dev *)m)->cap; }

static void ssd_submit(void *m, struct ek_mrq *r, ek_u64 now)
{
	struct ssd_dev *d = m;
	ek_u64 bytes = (ek_u64)r->nr_sectors * 512;

	r->submit_ns = now;
	if (r->dir == 0) {
		ek_u32 c = (ek_u32)((r->sector / d->stripe_sectors) % d->channels);

		r->start_ns = ek_max_u64(now, d->chan_free[c]);
		r->done_ns = r->start_ns + d->read_ns +
			     ek_muldiv(bytes, 1000000000ULL, d->chan_bps);
		d->chan_free[c] = r->done_ns;
	} else {
		/* drain the buffer up to now */
		ek_u64 drained = ek_muldiv(now - d->buf_time, d->prog_bps, 1000000000ULL);
		ek_u64 wait = 0;

		if (now > d->buf_time) {
			d->buf_fill = d->buf_fill > drained ? d->buf_fill - drained : 0;
			d->buf_time = now;
		}
		if (d->buf_fill + bytes > d->wbuf_bytes)
			wait = ek_muldiv(d->buf_fill + bytes - d->wbuf_bytes,
					 1000000000ULL, d->prog_bps);
		d->buf_fill += bytes;
		r->start_ns = now + wait;
		r->done_ns = r->start_ns + d->wbuf_ns;
	}
	ek_mrq_insert_sorted(&d->inflight, r);
}

static ek_u64 ssd_next(void *m)
{
	struct ssd_dev *d = m;
	struct ek_mrq *r = ek_list_first(&d->inflight, struct ek_mrq, link);

	return r ? r->done_ns : EK_U64_MAX;
}

static struct ek_mrq *ssd_complete(void *m, ek_u64 now)
{
	struct ssd_dev *d = m;
	struct ek_mrq *r = ek_list_first(&d->inflight, struct ek_mrq, link);

	if (!r || r->done_ns > now)
		return EK_NULL;
	ek_list_del(&r->link);
	return r;
}

const struct ek_model_type ek_model_ssd = {
	.name = "ssd",
	.description = "flash: channels in parallel, write buffer",
	.size = sizeof(struct ssd_dev),
	.params = ssd_params,
	.nr_params = P_NR,
	.init = ssd_init,
	.queue_depth = ssd_qd,
	.rotational = ssd_rot,
	.capacity = ssd_cap,
	.submit = ssd_submit,
	.next_done = ssd_next,
	.complete = ssd_complete,
};
