/* DESCRIPTION: hdd read-ahead stops at its window: a sequential reader that comes back after the disk sat idle reads at the media rate, not at the interface rate as if the prefetch had read on all along */
#include "model_drive.h"

/* MB/s of n 128 KiB reads at QD1 from sector 8, after one 4 KiB read at 0 and idle_s idle. */
static double after_idle(struct md_dev *d, double idle_s, uint64_t n)
{
	struct ek_mrq first = { 0 };
	struct md_seq s = { 8, 256, 0 };
	uint64_t t0, end;

	md_start(d);
	first.sector = 0;
	first.nr_sectors = 8;
	first.tag = &first;
	d->type->submit(d->state, &first, d->now);
	md_wait(d, &first);
	d->now += (uint64_t)(idle_s * 1e9);
	t0 = d->now;
	end = md_loop(d, 1, n, md_seq_gen, &s, NULL);
	return (double)n * s.nr * 512 / 1e6 / ((double)(end - t0) / 1e9);
}

int main(void)
{
	const char *profiles[] = { "hdd", "hdd-laptop", "hdd-2002" };
	unsigned i;

	for (i = 0; i < 3; i++) {
		struct md_dev d;
		double media, bus, ra_mb, busy, idle;
		uint64_t n = 2000;	/* 256 MB: far more than the window */

		md_open(&d, profiles[i]);
		media = md_zone_mbs(&d, 0);
		bus = (double)*md_param(&d, "bus_mbs");
		ra_mb = (double)*md_param(&d, "ra_kb") * 1024 / 1e6;
		busy = after_idle(&d, 0, n);
		idle = after_idle(&d, 10, n);
		printf("%-10s 128k reads from the outer zone (media %.0f MB/s, bus %.0f): "
		       "%.1f MB/s at once, %.1f MB/s after 10 s idle\n",
		       profiles[i], media, bus, busy, idle);
		/* the window read ahead during the idle time is all the head start there is */
		CHECK(idle < media * (1 + ra_mb / (n * 0.131072)) * 1.02,
		      "%s: %.1f MB/s after idling, over the media rate %.1f", profiles[i], idle, media);
		CHECK(idle > 0.9 * busy, "%s: %.1f MB/s after idling against %.1f", profiles[i],
		      idle, busy);
		md_close(&d);
	}
	return st_done();
}
