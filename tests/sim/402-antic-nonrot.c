/* DESCRIPTION: anticipatory on ssd and null devices does not wait (same schedule as antic_expire=0) unless antic_nonrot=1 */
#include "simtest.h"

static uint64_t hash;

static void on_dispatch(void *arg, const struct ek_rq *rq, uint64_t now)
{
	(void)arg;
	hash = (hash ^ (rq->sector + 31 * now)) * 0x100000001b3ULL;
}

static uint64_t run(const char *dev, const char *wl, ek_s64 antic, ek_s64 nonrot,
		    struct sim_result *r)
{
	struct sim_config c;

	st_config(&c, "anticipatory", dev, wl, 4);
	if (sim_config_tune(&c, "antic_expire", antic) ||
	    sim_config_tune(&c, "antic_nonrot", nonrot)) {
		printf("FAIL: tunables refused\n");
		exit(1);
	}
	c.hooks.on_dispatch = on_dispatch;
	hash = 0xcbf29ce484222325ULL;
	st_run(&c, r);
	return hash;
}

int main(void)
{
	static const char *const devs[] = { "ssd", "null" };
	static const char *const wls[] = { "think-read", "read-vs-write" };
	struct sim_result r0, r1, r2;
	unsigned int d, w;

	for (d = 0; d < 2; d++)
		for (w = 0; w < 2; w++) {
			uint64_t h_def = run(devs[d], wls[w], 6, 0, &r0);
			uint64_t h_off = run(devs[d], wls[w], 0, 0, &r1);
			uint64_t h_on = run(devs[d], wls[w], 6, 1, &r2);

			printf("%s %s: elapsed default %.3f ms, antic off %.3f ms, antic_nonrot=1 %.3f ms\n",
			       devs[d], wls[w], r0.elapsed_ns / 1e6,
			       r1.elapsed_ns / 1e6, r2.elapsed_ns / 1e6);
			CHECK(h_def == h_off && r0.elapsed_ns == r1.elapsed_ns,
			      "%s %s: default differs from antic_expire=0", devs[d], wls[w]);
			CHECK(h_on != h_def, "%s %s: antic_nonrot=1 changed nothing",
			      devs[d], wls[w]);
		}
	return st_done();
}
