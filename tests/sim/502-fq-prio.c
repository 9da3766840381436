/* DESCRIPTION: fair-queue: be:0 against be:7 readers share bytes 8:1 (within 10% on hdd, 15% on ssd QD32); one RT reader gets >= 90% against 8 BE readers */
#include "fq_share.h"

static struct fs_share sh;

static void prio(struct sim_config *c, unsigned i, uint8_t cls, uint8_t lvl)
{
	c->prio[i].cls = cls;
	c->prio[i].lvl = lvl;
	if (c->nprio < i + 1)
		c->nprio = i + 1;
}

int main(void)
{
	static const char *const devs[] = { "hdd", "ssd" };
	static const double tol[] = { 0.10, 0.15 };
	struct sim_config c;
	struct sim_result r;
	unsigned d, i;

	for (d = 0; d < 2; d++) {
		double ratio, share;

		st_config(&c, "fair-queue", devs[d], "seqread", 2);
		c.size = 1ULL << 40;
		prio(&c, 0, EK_PRIO_BE, 0);
		prio(&c, 1, EK_PRIO_BE, 7);
		fs_run(&c, &sh, 10, &r);
		/* weights 10 * (8 - level): 80 and 10 */
		ratio = sh.bytes[0] / sh.bytes[1];
		printf("%s: be:0 / be:7 bytes %.2f (weights 8)\n", devs[d], ratio);
		CHECK(ratio >= 8 * (1 - tol[d]) && ratio <= 8 * (1 + tol[d]),
		      "%s: be:0/be:7 %.2f not within %.0f%% of 8", devs[d], ratio,
		      tol[d] * 100);

		st_config(&c, "fair-queue", devs[d], "seqread", 9);
		c.size = 1ULL << 40;
		prio(&c, 0, EK_PRIO_RT, 4);
		for (i = 1; i < 9; i++)
			prio(&c, i, EK_PRIO_BE, 4);
		fs_run(&c, &sh, 10, &r);
		share = sh.bytes[0] / fs_sum(&sh, 0, 9);
		printf("%s: RT reader's share against 8 BE readers %.3f\n", devs[d],
		       share);
		CHECK(share >= 0.90, "%s: RT share %.3f < 0.90", devs[d], share);
		/* BE is not starved: class_age_ms gives it slots */
		CHECK(fs_sum(&sh, 1, 9) > 0, "%s: BE readers starved", devs[d]);
	}
	return st_done();
}
