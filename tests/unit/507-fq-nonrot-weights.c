/* DESCRIPTION: fair-queue on flash: two readers of one weight alternate without idle waits; of weights 80 and 10 (levels 0, 7), the policy idles and the heavy one gets several times the service */
#include "fq.h"

/*
 * Two synchronous readers, one request outstanding each, 20 us of think
 * time, on a non-rotational disk of queue depth 1 (100 us a request): for
 * 2 s of service. Returns the bytes of the first over the second's; the
 * counters say how often the policy waited.
 */
static double run(ek_u8 lvl_a, ek_u8 lvl_b, ek_u64 *waits, ek_u64 *arms)
{
	struct th *th = th_new(&ek_fair_queue_policy, FQT_MAX_RQ);
	struct fqt_disk disk = { .svc_base = 100 * US };
	struct fqt_proc pr[2];
	double ratio;
	int i;

	th->host.dev.rotational = 0;
	th_preset(th, "low_latency", 0);	/* weights only, no raising */
	th_start(th);
	for (i = 0; i < 2; i++) {
		fqt_proc_init(th, &pr[i], (ek_u32)i + 1);
		pr[i].depth = 1;
		pr[i].nr = 8;
		pr[i].think = 20 * US;
		pr[i].next = (ek_u64)i << 30;
	}
	pr[0].lvl = lvl_a;
	pr[1].lvl = lvl_b;
	fqt_run(th, &disk, pr, 2, 2000 * MS);
	*waits = th_stat(th, "idle_hits") + th_stat(th, "idle_timeouts");
	*arms = th->timer_arms;
	ratio = (double)pr[0].bytes / (double)(pr[1].bytes ? pr[1].bytes : 1);
	printf("levels %u/%u: %llu / %llu KiB, ratio %.2f, idle waits %llu, timer arms %llu\n",
	       lvl_a, lvl_b, (unsigned long long)pr[0].bytes >> 10,
	       (unsigned long long)pr[1].bytes >> 10, ratio,
	       (unsigned long long)*waits, (unsigned long long)*arms);
	fqt_finish(th, pr, 2);
	return ratio;
}

int main(void)
{
	ek_u64 waits, arms;
	double ratio;

	/* Equal weights: idling would only cost time, and nobody waits. */
	ratio = run(4, 4, &waits, &arms);
	TH_CHECK(waits == 0 && arms == 0,
		 "equal weights on flash: %llu idle waits, %llu timer arms",
		 (unsigned long long)waits, (unsigned long long)arms);
	TH_CHECK(ratio > 0.8 && ratio < 1.25, "equal weights: ratio %.2f", ratio);

	/*
	 * Weights 80 and 10: without waiting for the heavy reader's next
	 * request, each would get every other request whatever its weight.
	 */
	ratio = run(0, 7, &waits, &arms);
	TH_CHECK(waits > 0, "weights 80/10 on flash: the policy never idled");
	TH_CHECK(ratio > 3, "weights 80/10 on flash: ratio %.2f, expected over 3",
		 ratio);
	printf("ok\n");
	return 0;
}
