/* DESCRIPTION: elevator (Linux 2.4): no request is passed over by more than read_latency/16 (reads) or write_latency/16 (writes) later requests; read-latency2 lets reads ahead of a writer */
#include "simtest.h"

#define SLOTS (1u << 16)

/* Insert order and dispatch order of every request, by descriptor. */
struct passes {
	const struct ek_rq *key[SLOTS];
	uint64_t seq[SLOTS], at[SLOTS];	/* insert number; dispatches before it */
	uint64_t *disp;			/* insert numbers in dispatch order */
	uint64_t ndisp, cap, nins;
	uint64_t worst[2], n;
};

static unsigned slot(struct passes *p, const struct ek_rq *rq)
{
	unsigned h = (unsigned)(((uintptr_t)rq >> 4) * 2654435761u) & (SLOTS - 1);

	while (p->key[h] && p->key[h] != rq)
		h = (h + 1) & (SLOTS - 1);
	return h;
}

static void on_insert(void *arg, const struct ek_rq *rq, uint64_t now)
{
	struct passes *p = arg;
	unsigned h = slot(p, rq);

	(void)now;
	p->key[h] = rq;
	p->seq[h] = ++p->nins;
	p->at[h] = p->ndisp;
}

static void on_dispatch(void *arg, const struct ek_rq *rq, uint64_t now)
{
	struct passes *p = arg;
	unsigned h = slot(p, rq), i, j;
	uint64_t passed = 0, k;

	(void)now;
	if (!p->key[h]) {
		printf("FAIL: dispatched a request never inserted\n");
		exit(1);
	}
	for (k = p->at[h]; k < p->ndisp; k++)
		passed += p->disp[k] > p->seq[h];
	if (passed > p->worst[rq->dir & 1])
		p->worst[rq->dir & 1] = passed;
	p->n++;
	if (p->ndisp == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 4096;
		p->disp = realloc(p->disp, p->cap * sizeof(*p->disp));
	}
	p->disp[p->ndisp++] = p->seq[h];
	/* delete, keeping the probe chains intact */
	p->key[h] = NULL;
	for (i = (h + 1) & (SLOTS - 1); p->key[i]; i = (i + 1) & (SLOTS - 1)) {
		const struct ek_rq *k2 = p->key[i];
		uint64_t s = p->seq[i], a = p->at[i];

		p->key[i] = NULL;
		j = slot(p, k2);
		p->key[j] = k2;
		p->seq[j] = s;
		p->at[j] = a;
	}
}

static void bound(ek_s64 rlat, ek_s64 wlat, const char *wl, unsigned threads)
{
	static struct passes p;
	struct sim_config c;
	struct sim_result r;

	free(p.disp);
	memset(&p, 0, sizeof(p));
	st_config(&c, "elevator", "hdd", wl, threads);
	c.wbt = 0;	/* 2.4 had no writeback throttling: writes queue up as they did */
	c.bg = BG_WRITE;
	c.ios = 3000;
	c.size = 256ULL << 20;	/* read-ahead makes 128k requests: enough of them */
	c.time_limit_ns = 60ULL * 1000000000ULL;
	CHECK(!sim_config_tune(&c, "read_latency", rlat) &&
	      !sim_config_tune(&c, "write_latency", wlat), "tunables");
	c.hooks.arg = &p;
	c.hooks.on_insert = on_insert;
	c.hooks.on_dispatch = on_dispatch;
	st_run(&c, &r);
	printf("elevator, %s x%u + writer, read_latency %lld, write_latency %lld: %llu dispatches, "
	       "most passed over: read %llu (bound %lld), write %llu (bound %lld)\n", wl, threads,
	       (long long)rlat, (long long)wlat, (unsigned long long)p.n,
	       (unsigned long long)p.worst[0], (long long)(rlat + 15) / 16,
	       (unsigned long long)p.worst[1], (long long)(wlat + 15) / 16);
	CHECK(p.n > 1000, "too few dispatches (%llu)", (unsigned long long)p.n);
	CHECK(p.worst[0] <= (uint64_t)(rlat + 15) / 16, "a read was passed over %llu times",
	      (unsigned long long)p.worst[0]);
	CHECK(p.worst[1] <= (uint64_t)(wlat + 15) / 16, "a write was passed over %llu times",
	      (unsigned long long)p.worst[1]);
	free(p.disp);
	p.disp = NULL;
}

static uint64_t read_vs_write_max(const char *sched, double *mbs)
{
	struct sim_config c;
	struct sim_result r;

	st_config(&c, sched, "hdd-2002", "read-vs-write", 1);
	c.wbt = 0;	/* 2.4 had no writeback throttling */
	c.size = 16ULL << 20;
	c.time_limit_ns = 60ULL * 1000000000ULL;
	st_run(&c, &r);
	*mbs = r.read_bytes / 1e6 / st_secs(r.elapsed_ns);
	return r.lat_max_ns;
}

int main(void)
{
	double el, rl2;
	uint64_t el_max, rl2_max;

	bound(8192, 16384, "randread", 64);	/* 2.4's defaults */
	bound(256, 512, "randread", 64);	/* small: the bound bites */
	bound(64, 128, "seqread", 32);
	el_max = read_vs_write_max("elevator", &el);
	rl2_max = read_vs_write_max("read-latency2", &rl2);
	printf("hdd-2002, one reader against a writer: elevator %.2f MB/s (max %.0f ms), "
	       "read-latency2 %.2f MB/s (max %.0f ms)\n", el, el_max / 1e6, rl2, rl2_max / 1e6);
	CHECK(rl2 > el, "read-latency2 did not speed the reader up");
	return st_done();
}
