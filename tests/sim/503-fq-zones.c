/* DESCRIPTION: fair-queue on hdd: a reader in the outer zone and one in the inner zone (half its media rate) get bytes within 10% */
#include "fq_share.h"

static struct fs_share sh;

int main(void)
{
	static const char *const devs[] = { "hdd", "hdd-laptop", "hdd-2002" };
	struct sim_config c;
	struct sim_result r;
	unsigned d;

	for (d = 0; d < 3; d++) {
		uint64_t cap;
		double ratio;

		st_config(&c, "fair-queue", devs[d], "seqread", 2);
		cap = (uint64_t)st_param(&c, "capacity_gb") * 1000000000ULL;
		/* thread 1's region: the last GiB of the disk */
		c.size = 2 * (cap - (1ULL << 30));
		fs_run(&c, &sh, 10, &r);
		ratio = sh.bytes[0] / sh.bytes[1];
		printf("%s: outer %.1f MB/s, inner %.1f MB/s, ratio %.3f\n", devs[d],
		       sh.bytes[0] / 1e7, sh.bytes[1] / 1e7, ratio);
		CHECK(ratio >= 0.9 && ratio <= 1.1, "%s: outer/inner %.3f", devs[d],
		      ratio);
	}
	return st_done();
}
