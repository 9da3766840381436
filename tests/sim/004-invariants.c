/* DESCRIPTION: every policy under merges, requeues and mixed loads: each request dispatched once, nothing lost, has_work honest */
#include "simtest.h"

struct scenario {
	const char *dev, *workload;
	unsigned threads;
	uint64_t size, ios;
	unsigned requeue_pct;
	int bg;
	const char *dev_param;
	ek_s64 dev_value;
};

static const struct scenario scenarios[] = {
	/* random writes in a tiny region: back, front and request merges */
	{ "hdd", "randwrite", 1, 1 << 20, 20000, 0, BG_DEFAULT, NULL, 0 },
	{ "hdd", "randwrite", 4, 4 << 20, 20000, 10, BG_DEFAULT, NULL, 0 },
	{ "hdd", "read-vs-write", 32, 32 << 20, 0, 10, BG_DEFAULT, NULL, 0 },
	{ "hdd", "startup", 8, 0, 0, 5, BG_DEFAULT, NULL, 0 },
	{ "hdd", "think-read", 16, 16 << 20, 0, 10, BG_WRITE, "qd", 32 },
	{ "ssd", "randread", 256, 64 << 20, 5000, 10, BG_WRITE, NULL, 0 },
	{ "null", "seqwrite", 8, 64 << 20, 0, 20, BG_DEFAULT, NULL, 0 },
	{ "null", "randwrite", 2, 2 << 20, 20000, 30, BG_READ, "qd", 1 },
};

int main(void)
{
	int i;
	size_t k;

	for (i = 0; sim_policies[i]; i++) {
		const struct ek_policy *p = sim_policies[i];
		uint64_t front = 0, away = 0, requeues = 0, back = 0, inserted = 0;

		for (k = 0; k < sizeof(scenarios) / sizeof(scenarios[0]); k++) {
			const struct scenario *sc = &scenarios[k];
			struct sim_config c;
			struct sim_result r;

			st_config(&c, p->name, sc->dev, sc->workload, sc->threads);
			if (sc->size)
				c.size = sc->size;
			if (sc->ios)
				c.ios = sc->ios;
			c.requeue_pct = sc->requeue_pct;
			c.bg = sc->bg;
			c.startup_ios = 50;
			c.warmup_ns = 200000000ULL;
			c.time_limit_ns = 60ULL * 1000000000ULL;
			if (sc->dev_param)
				CHECK(!sim_config_dev(&c, sc->dev_param, sc->dev_value), "dev param");
			st_run(&c, &r);
			CHECK(r.inserted == r.completed + r.merged_away,
			      "%s/%s: %llu inserted != %llu completed + %llu merged away", p->name,
			      sc->workload, (unsigned long long)r.inserted,
			      (unsigned long long)r.completed, (unsigned long long)r.merged_away);
			CHECK(r.dispatched == r.completed + r.requeues,
			      "%s/%s: %llu dispatches != %llu completed + %llu requeued", p->name,
			      sc->workload, (unsigned long long)r.dispatched,
			      (unsigned long long)r.completed, (unsigned long long)r.requeues);
			CHECK(r.bios == r.bios_done && r.bios > 0, "%s/%s: bios %llu, done %llu",
			      p->name, sc->workload, (unsigned long long)r.bios,
			      (unsigned long long)r.bios_done);
			front += r.front_merges;
			back += r.back_merges;
			away += r.merged_away;
			requeues += r.requeues;
			inserted += r.inserted;
		}
		printf("%-14s %8llu requests, %7llu back merges, %6llu front merges, "
		       "%6llu requests merged away, %6llu requeues\n", p->name,
		       (unsigned long long)inserted, (unsigned long long)back,
		       (unsigned long long)front, (unsigned long long)away,
		       (unsigned long long)requeues);
		CHECK(back > 0 && requeues > 0, "%s: back merges or requeues not exercised",
		      p->name);
		/* request-to-request merges are found through front_merge_candidate */
		if (p->front_merge_candidate)
			CHECK(front > 0 && away > 0, "%s: front or request merges not exercised",
			      p->name);
	}
	return st_done();
}
