// SPDX-License-Identifier: GPL-2.0
/*
 * A delay given by points of its quantile function (struct sim_delay):
 * a uniform draw in 0..100 % picks a segment and interpolates in it. The
 * kernel's wake and think delays are heavy-tailed (a median about half the
 * mean); a uniform 0..2 x mean, or a constant, is not.
 */
#include "sim_int.h"

/* The distribution's mean: each segment's share times its midpoint. */
uint64_t sim_delay_mean_us(const struct sim_delay *d)
{
	uint64_t sum = 0;	/* ppm x us x 2 */
	unsigned i;

	for (i = 1; i < d->n; i++)
		sum += (uint64_t)(d->ppm[i] - d->ppm[i - 1]) * ((uint64_t)d->us[i - 1] + d->us[i]);
	return (sum + 1000000) / 2000000;
}

uint64_t sim_delay_draw_ns(const struct sim_delay *d, ek_u64 *rng)
{
	uint64_t u = sim_rand(rng) % 1000000;	/* parts per million */
	uint64_t lo, hi, a, b;
	unsigned i = 1;

	while (i < d->n - 1 && u >= d->ppm[i])
		i++;
	lo = d->ppm[i - 1];
	hi = d->ppm[i];		/* > lo: cli_validate.c */
	a = d->us[i - 1] * 1000ULL;
	b = d->us[i] * 1000ULL;
	return a + (b - a) * (u - lo) / (hi - lo);
}
