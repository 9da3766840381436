/* DESCRIPTION: hdd, hdd-laptop, hdd-2002: sequential reads and writes (write cache on, off with NCQ) run at each zone's datasheet rate within 10%; write cache off at QD1 loses a turn per request */
#include "model_drive.h"

/* Steady-state MB/s of n requests of 512 KiB from zone z's start. */
static double rate(struct md_dev *d, unsigned z, uint8_t dir, unsigned depth, uint64_t n)
{
	struct md_seq s = { 0, 1024, dir };
	uint64_t half = 0, end;

	md_start(d);
	s.start = md_zone_start(d, z);
	end = md_loop(d, depth, n, md_seq_gen, &s, &half);
	return (double)(n - n / 2) * s.nr * 512 / 1e6 / ((double)(end - half) / 1e9);
}

static void within(const char *what, double got, double want)
{
	printf("  %-44s %8.2f MB/s, expect %8.2f (%+.1f%%)\n", what, got, want,
	       100.0 * (got - want) / want);
	CHECK(got > 0.9 * want && got < 1.1 * want, "%s: %.2f MB/s not within 10%% of %.2f",
	      what, got, want);
}

static void profile(const char *name)
{
	struct md_dev d;
	unsigned nz, zs[3], i;
	/* enough to run through the write cache several times over */
	uint64_t n;

	md_open(&d, name);
	nz = (unsigned)*md_param(&d, "zones");
	n = 8 * (uint64_t)*md_param(&d, "cache_kb") / 512 + 400;
	zs[0] = 0;
	zs[1] = nz / 2;
	zs[2] = nz - 1;
	printf("%s (%u zones, %lld KiB cache):\n", name, nz, (long long)*md_param(&d, "cache_kb"));
	for (i = 0; i < 3; i++) {
		double zr = md_zone_mbs(&d, zs[i]);
		double turn = 60.0 / (double)*md_param(&d, "rpm");
		double xfer = 512.0 * 1024 / (zr * 1e6);
		char what[64];

		*md_param(&d, "wce") = 1;
		snprintf(what, sizeof(what), "zone %u read, QD1", zs[i]);
		within(what, rate(&d, zs[i], 0, 1, 400), zr);
		snprintf(what, sizeof(what), "zone %u write, cache on, QD1", zs[i]);
		within(what, rate(&d, zs[i], 1, 1, n), zr);
		*md_param(&d, "wce") = 0;
		if (*md_param(&d, "qd") > 1) {
			snprintf(what, sizeof(what), "zone %u write, cache off, QD%lld", zs[i],
				 (long long)*md_param(&d, "qd"));
			within(what, rate(&d, zs[i], 1, (unsigned)*md_param(&d, "qd"), 400), zr);
		}
		/* each request arrives just after its sector passed: one turn lost */
		snprintf(what, sizeof(what), "zone %u write, cache off, QD1", zs[i]);
		within(what, rate(&d, zs[i], 1, 1, 400), 512.0 * 1024 / 1e6 / (turn + xfer));
	}
	md_close(&d);
}

int main(void)
{
	profile("hdd");
	profile("hdd-laptop");
	profile("hdd-2002");
	return st_done();
}
