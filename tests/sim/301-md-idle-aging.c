/* DESCRIPTION: mq-deadline: an idle-class reader beside 8 best-effort readers on the hdd waits prio_aging_expire per read (10 s, then 1 s), no longer */
#include "fq_share.h"

static struct fs_share sh;

int main(void)
{
	static const long aging_ms[] = { 10000, 1000 };
	struct sim_config c;
	struct sim_result r;
	unsigned k, i;

	for (k = 0; k < 2; k++) {
		double idle_share, wait_s;

		st_config(&c, "mq-deadline", "hdd", "seqread", 9);
		c.size = 1ULL << 40;
		CHECK(!sim_config_tune(&c, "prio_aging_expire", aging_ms[k]),
		      "prio_aging_expire");
		c.prio[0].cls = EK_PRIO_IDLE;
		c.prio[0].lvl = 0;
		for (i = 1; i < 9; i++)
			c.prio[i] = (struct sim_prio){ EK_PRIO_BE, 4 };
		c.nprio = 9;
		fs_run(&c, &sh, 25, &r);
		idle_share = sh.bytes[0] / fs_sum(&sh, 0, 9);
		wait_s = (double)sh.max_wait[0] / 1e9;
		printf("prio_aging_expire %ld ms: the idle reader's share %.4f, its longest wait %.3f s\n",
		       aging_ms[k], idle_share, wait_s);
		/* The best-effort readers always have reads on the disk. */
		CHECK(idle_share > 0 && idle_share < 0.01, "idle share %.4f", idle_share);
		/* Aged at the first dispatch after the tick that makes it old. */
		CHECK(wait_s >= aging_ms[k] / 1000.0 && wait_s < aging_ms[k] / 1000.0 + 0.1,
		      "longest wait %.3f s against prio_aging_expire %ld ms", wait_s,
		      aging_ms[k]);
	}
	return st_done();
}
