/* DESCRIPTION: fair-queue: N = 2..32 sequential readers spread over the disk get equal bytes (Jain's index >= 0.98) on hdd and ssd */
#include "fq_share.h"

static struct fs_share sh;

int main(void)
{
	static const char *const devs[] = { "hdd", "ssd" };
	static const unsigned ns[] = { 2, 4, 8, 16, 32 };
	struct sim_config c;
	struct sim_result r;
	unsigned d, i;

	for (d = 0; d < 2; d++) {
		for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
			double j;

			st_config(&c, "fair-queue", devs[d], "seqread", ns[i]);
			/* more than the disk: regions from outer to inner zone */
			c.size = 1ULL << 40;
			fs_run(&c, &sh, 10, &r);
			j = fs_jain(&sh, ns[i]);
			printf("%s N=%u: Jain %.4f, %.1f MB/s\n", devs[d], ns[i], j,
			       fs_sum(&sh, 0, ns[i]) / 1e7);
			CHECK(j >= 0.98, "%s N=%u: Jain %.4f < 0.98", devs[d], ns[i], j);
		}
	}
	return st_done();
}
