/* DESCRIPTION: hdd, hdd-laptop, hdd-2002: 4k random reads over the disk match the datasheet: QD1 at 1/(overhead + avg seek + half turn), QD32 at what serving the nearest of 32 queued requests gives on the datasheet's seek curve (computed independently), within 10% */
#include <math.h>
#include "model_drive.h"

struct rnd {
	uint64_t cap, x;
};

static void rnd_gen(void *arg, uint64_t i, struct ek_mrq *r)
{
	struct rnd *s = arg;

	(void)i;
	s->x = s->x * 6364136223846793005ULL + 1442695040888963407ULL;
	r->sector = ((s->x >> 20) % (s->cap / 8 - 1)) * 8;
	r->nr_sectors = 8;
	r->dir = 0;
	r->flags = 0;
}

static double iops(struct md_dev *d, unsigned depth, uint64_t n)
{
	struct rnd s = { 0, 12345 };
	uint64_t end;

	*md_param(d, "qd") = depth;
	md_start(d);
	s.cap = d->type->capacity(d->state);
	end = md_loop(d, depth, n, rnd_gen, &s, NULL);
	return (double)n / ((double)end / 1e9);
}

/* The datasheet's seek curve, as hdd.c fits it: seconds for fraction x. */
static double seek_s(struct md_dev *d, double x)
{
	double t2t = *md_param(d, "t2t_us") / 1e6, full = *md_param(d, "full_seek_us") / 1e6 - t2t;
	double var = *md_param(d, "avg_seek_us") / 1e6 - t2t;
	double a = 5 * var - 5 * full / 3, b = full - a;

	return x <= 0 ? 0 : t2t + a * sqrt(x) + b * x;
}

static double unif(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(*x >> 11) / 9007199254740992.0;
}

/*
 * The expectation, computed independently of the model: continuous
 * geometry in floating point, the datasheet's seek curve and rotation,
 * n requests at uniformly random places and angles always queued, the
 * disk serving the one it can reach first (overhead overlaps when queued)
 * plus the 4k transfer at the mean media rate.
 */
static double satf_iops(struct md_dev *d, unsigned n)
{
	double turn = 60.0 / *md_param(d, "rpm"), t = 0, h = 0.5, pos[64], ang[64];
	double xfer = 4096 / (0.5 * (*md_param(d, "outer_mbs") + *md_param(d, "inner_mbs")) * 1e6);
	uint64_t x = 99;
	unsigned i, k, ops = 20000;

	for (i = 0; i < n; i++) {
		pos[i] = unif(&x);
		ang[i] = unif(&x);
	}
	for (k = 0; k < ops; k++) {
		double best = 1e9;
		unsigned b = 0;

		for (i = 0; i < n; i++) {
			double s = seek_s(d, fabs(h - pos[i]));
			double w = ang[i] - fmod((t + s) / turn, 1.0);

			s += (w < 0 ? w + 1 : w) * turn;
			if (s < best) {
				best = s;
				b = i;
			}
		}
		t += best + xfer;
		h = pos[b];
		pos[b] = unif(&x);
		ang[b] = unif(&x);
	}
	return ops / t;
}

static void within(const char *what, double got, double want)
{
	printf("  %-30s %7.1f IOPS, expect %7.1f (%+.1f%%)\n", what, got, want,
	       100.0 * (got - want) / want);
	CHECK(got > 0.9 * want && got < 1.1 * want, "%s: %.1f IOPS not within 10%% of %.1f",
	      what, got, want);
}

static void profile(const char *name)
{
	struct md_dev d;
	double qd1;

	md_open(&d, name);
	qd1 = 1 / (*md_param(&d, "overhead_us") / 1e6 + *md_param(&d, "avg_seek_us") / 1e6 +
		   30.0 / *md_param(&d, "rpm"));
	printf("%s:\n", name);
	within("4k random read, QD1", iops(&d, 1, 3000), qd1);
	within("4k random read, QD32", iops(&d, 32, 6000), satf_iops(&d, 32));
	md_close(&d);
}

int main(void)
{
	profile("hdd");
	profile("hdd-laptop");
	profile("hdd-2002");	/* QD32 as if it had NCQ: the curve is the same physics */
	return st_done();
}
