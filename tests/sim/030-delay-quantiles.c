/* DESCRIPTION: --think and --tag-wake-us as PCT:US points: each delay is drawn from that quantile function (a trace's shape), not a constant or a uniform 0..2 x mean */
#include "simtest.h"

#define NDRAW 200000
#define NGAP 4000

/* 10 % under 200 us, half under 500, a tail to 10 ms: mean 1255 us (PCT in ppm) */
static const struct sim_delay heavy = {
	5, { 0, 100000, 500000, 900000, 1000000 }, { 100, 200, 500, 2000, 10000 },
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* the sorted sample's P % point, us */
static double pct_us(const uint64_t *v, size_t n, unsigned p)
{
	return (double)v[n * p / 100] / 1000;
}

static int near(double got, double want, double tol)
{
	return got > want * (1 - tol) && got < want * (1 + tol);
}

static void check_quantiles(const char *what, uint64_t *v, size_t n, double tol)
{
	static const unsigned p[] = { 10, 50, 90 };
	static const double want[] = { 200, 500, 2000 };
	double sum = 0;
	unsigned i;
	size_t j;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (j = 0; j < n; j++)
		sum += (double)v[j] / 1000;
	printf("%s: n %zu, p10 %.0f, median %.0f, p90 %.0f, mean %.0f us (points 200, 500, "
	       "2000, mean %llu)\n", what, n, pct_us(v, n, 10), pct_us(v, n, 50), pct_us(v, n, 90),
	       sum / (double)n, (unsigned long long)sim_delay_mean_us(&heavy));
	for (i = 0; i < 3; i++)
		CHECK(near(pct_us(v, n, p[i]), want[i], tol), "%s: p%u %.0f us, not %.0f", what,
		      p[i], pct_us(v, n, p[i]), want[i]);
	CHECK(near(sum / (double)n, 1255, tol), "%s: mean %.0f us, not 1255", what,
	      sum / (double)n);
}

/* one reader on the null device: the gap from each read's completion to its next request */
static uint64_t gaps[NGAP], last_done;
static size_t ngap;

static void on_complete(void *arg, const struct ek_rq *rq, uint64_t now)
{
	(void)arg;
	(void)rq;
	last_done = now;
}

static void on_insert(void *arg, const struct ek_rq *rq, uint64_t now)
{
	(void)arg;
	(void)rq;
	if (last_done && ngap < NGAP)
		gaps[ngap++] = now - last_done;
}

/* 8 random readers over 4 requests (as 026): the 4 busiest readers' share of the bytes */
static double share_of_top4(int64_t wake_us, const struct sim_delay *q)
{
	uint64_t bytes[8] = { 0 }, top = 0, all = 0;
	struct sim_result r;
	struct sim_config c;
	unsigned i, j;

	st_config(&c, "noop", "ssd", "randread", 8);
	c.nr_requests = 4;
	c.think_us = 0;
	c.ios = 1000;
	c.tag_wake_us = wake_us;
	if (q)
		c.tag_wake_q = *q;
	c.min_time_ns = c.time_limit_ns = 2000000000ULL;
	c.thread_bytes = bytes;
	st_run(&c, &r);
	for (i = 0; i < 8; i++) {
		for (j = i + 1; j < 8; j++)
			if (bytes[j] > bytes[i]) {
				uint64_t x = bytes[i];

				bytes[i] = bytes[j];
				bytes[j] = x;
			}
		all += bytes[i];
		top += i < 4 ? bytes[i] : 0;
	}
	return all ? (double)top / (double)all : 0;
}

int main(void)
{
	/* 95 % ask again at once, 5 % up to 20 ms later: a mean of 500 us */
	static const struct sim_delay mostly_now = { 3, { 0, 950000, 1000000 }, { 0, 0, 20000 } };
	/* 0.1 % from 1 to 101 ms: a mean of 1000 x 0.999 + 51000 x 0.001 = 1050 us */
	static const struct sim_delay fine_tail = { 3, { 0, 999000, 1000000 }, { 1000, 1000, 101000 } };
	static uint64_t draws[NDRAW];
	struct sim_result r;
	struct sim_config c;
	ek_u64 rng = 1;
	double uni, pts;
	size_t i, over;

	CHECK(sim_delay_mean_us(&heavy) == 1255, "mean of the points %llu us, not 1255",
	      (unsigned long long)sim_delay_mean_us(&heavy));
	CHECK(sim_delay_mean_us(&mostly_now) == 500, "mean of 95%% at 0 and 5%% to 20 ms: "
	      "%llu us, not 500", (unsigned long long)sim_delay_mean_us(&mostly_now));
	CHECK(sim_delay_mean_us(&fine_tail) == 1050, "mean with a 0.1%% tail to 101 ms: %llu us, "
	      "not 1050", (unsigned long long)sim_delay_mean_us(&fine_tail));
	for (i = 0, over = 0; i < NDRAW; i++)
		over += sim_delay_draw_ns(&fine_tail, &rng) > 1000000;
	printf("draws over 1 ms with a 0.1%% tail: %zu of %d\n", over, NDRAW);
	CHECK(over > NDRAW / 1000 * 0.8 && over < NDRAW / 1000 * 1.2,
	      "%zu of %d draws in the 0.1%% tail, not %d", over, NDRAW, NDRAW / 1000);
	for (i = 0; i < NDRAW; i++)
		draws[i] = sim_delay_draw_ns(&heavy, &rng);
	check_quantiles("draws", draws, NDRAW, 0.02);

	/* --think: every think time drawn (the device takes no time) */
	st_config(&c, "noop", "null", "think-read", 1);
	c.readahead = 0;
	c.size = 64ULL << 20;
	c.think_q = heavy;
	c.think_us = (int64_t)sim_delay_mean_us(&heavy);
	c.hooks.on_complete = on_complete;
	c.hooks.on_insert = on_insert;
	st_run(&c, &r);
	CHECK(ngap == NGAP, "only %zu reads", ngap);
	check_quantiles("--think gaps", gaps, ngap, 0.08);

	/*
	 * --tag-wake-us: a sleeper that mostly asks again at once competes with
	 * the reader whose read just completed; one woken 0..1 ms later (the
	 * same mean) finds the request taken, and 4 readers hold all 4.
	 */
	uni = share_of_top4(500, NULL);
	pts = share_of_top4(500, &mostly_now);
	printf("the 4 busiest of 8 readers over 4 requests: %.1f%% of the bytes woken "
	       "0..1 ms later, %.1f%% 95%% at once, 5%% to 20 ms\n", 100 * uni, 100 * pts);
	CHECK(uni > 0.90, "woken 0..1 ms later, the 4 holders got only %.1f%%", 100 * uni);
	CHECK(pts < 0.80, "woken mostly at once, the 4 holders still got %.1f%%", 100 * pts);
	return st_done();
}
