/* DESCRIPTION: fair-queue on a depth-1 disk: 4 equal backlogged readers' service never differs by more than two budgets; be:0 : be:7 bytes 8 : 1 and be:2 : be:4 3 : 2 within 5%; an async writer against an equal-weight reader gets a third of its sectors */
#include "fq.h"

#define BUDGET 4096	/* sectors: max_budget, the bound's unit */

struct spread {
	struct fqt_proc *pr;
	unsigned n;
	ek_u64 worst;
};

static void check_spread(struct th *th, struct ek_rq *rq, void *arg)
{
	struct spread *s = arg;
	ek_u64 lo = EK_U64_MAX, hi = 0;
	unsigned i;

	(void)th;
	(void)rq;
	for (i = 0; i < s->n; i++) {
		lo = s->pr[i].bytes < lo ? s->pr[i].bytes : lo;
		hi = s->pr[i].bytes > hi ? s->pr[i].bytes : hi;
	}
	if (hi - lo > s->worst)
		s->worst = hi - lo;
}

static struct th *start(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, FQT_MAX_RQ);

	th_preset(th, "max_budget", BUDGET);
	th_preset(th, "low_latency", 0);
	th_start(th);
	return th;
}

static void equal(void)
{
	struct th *th = start();
	struct fqt_proc pr[4];
	struct spread s = { pr, 4, 0 };
	struct fqt_disk d = { .svc_base = 100 * US, .svc_per_sector = 2 * US,
			      .on_complete = check_spread, .arg = &s };
	unsigned i;

	for (i = 0; i < 4; i++) {
		fqt_proc_init(th, &pr[i], i + 1);
		pr[i].depth = 2;
		pr[i].next = (ek_u64)i << 30;
	}
	fqt_run(th, &d, pr, 4, 20000 * MS);
	printf("4 equal readers: %.1f %.1f %.1f %.1f MB, worst spread %.2f MB\n",
	       pr[0].bytes / 1e6, pr[1].bytes / 1e6, pr[2].bytes / 1e6,
	       pr[3].bytes / 1e6, s.worst / 1e6);
	TH_CHECK(s.worst <= 2ULL * (BUDGET + 256) * 512,
		 "service spread %llu bytes over two budgets",
		 (unsigned long long)s.worst);
	fqt_finish(th, pr, 4);
}

static void ratio(ek_u8 c0, ek_u8 l0, ek_u8 c1, ek_u8 l1, int async1,
		  double want)
{
	struct th *th = start();
	struct fqt_proc pr[2];
	struct fqt_disk d = { .svc_base = 100 * US, .svc_per_sector = 2 * US };
	double r;

	fqt_proc_init(th, &pr[0], 1);
	fqt_proc_init(th, &pr[1], 2);
	pr[0].cls = c0;
	pr[0].lvl = l0;
	pr[1].cls = c1;
	pr[1].lvl = l1;
	pr[0].depth = 2;
	pr[1].depth = async1 ? 16 : 2;
	pr[1].next = 1ULL << 30;
	if (async1) {
		pr[1].dir = EK_WRITE;
		pr[1].sync = 0;
	}
	fqt_run(th, &d, pr, 2, 30000 * MS);
	r = (double)pr[0].bytes / (double)pr[1].bytes;
	printf("%u:%u vs %u:%u%s: bytes ratio %.3f (want %.3f)\n", c0, l0, c1,
	       l1, async1 ? " async" : "", r, want);
	TH_CHECK(r >= want * 0.95 && r <= want * 1.05, "ratio %.3f, want %.3f",
		 r, want);
	fqt_finish(th, pr, 2);
}

int main(void)
{
	equal();
	ratio(EK_PRIO_BE, 0, EK_PRIO_BE, 7, 0, 8.0);
	ratio(EK_PRIO_BE, 2, EK_PRIO_BE, 4, 0, 1.5);
	/* NONE counts as BE level 4 */
	ratio(EK_PRIO_NONE, 0, EK_PRIO_BE, 4, 0, 1.0);
	/* async is charged async_charge (3) times its sectors */
	ratio(EK_PRIO_BE, 4, EK_PRIO_BE, 4, 1, 3.0);
	printf("ok\n");
	return 0;
}
