/* DESCRIPTION: fair-queue: RT takes the disk from BE, BE from IDLE, but a waiting lower class gets a slot at least every class_age_ms (+ one slot of the class above and one request); IDLE's worst wait stays within that bound; a slot of the class above longer than the age is cut at the age */
#include "fq.h"

/*
 * A new process of class lower starts while a backlogged one of class
 * upper holds the disk. Its first dispatch, and every later wait, must
 * come within class_age_ms + bound_slice_ms + two requests.
 */
static void aging(ek_u8 upper, ek_u8 lower, ek_u64 age_ms, ek_u64 slice_ms,
		  ek_u64 bound_slice_ms)
{
	struct th *th = th_new(&ek_fair_queue_policy, FQT_MAX_RQ);
	struct fqt_proc pr[2];
	struct fqt_disk d = { .svc_base = 1 * MS, .svc_per_sector = 10 * US };
	ek_u64 bound = (age_ms + bound_slice_ms) * MS + 2 * (1 * MS + 256 * 10 * US);
	double share;

	th_preset(th, "class_age_ms", (ek_s64)age_ms);
	th_preset(th, "slice_max_ms", (ek_s64)slice_ms);
	th_start(th);
	fqt_proc_init(th, &pr[0], 1);
	fqt_proc_init(th, &pr[1], 2);
	pr[0].cls = upper;
	pr[1].cls = lower;
	pr[0].depth = 2;
	pr[1].depth = 1;
	pr[1].next = 1ULL << 30;
	pr[1].start_at = 500 * MS;
	fqt_run(th, &d, pr, 2, 20000 * MS);
	share = (double)pr[0].bytes / (double)(pr[0].bytes + pr[1].bytes);
	printf("class %u over %u, class_age_ms %llu: upper share %.3f, lower waited at most %.1f ms (bound %.1f), first served after %.1f ms, %llu aged slots\n",
	       upper, lower, (unsigned long long)age_ms, share,
	       pr[1].max_wait / 1e6, bound / 1e6,
	       (pr[1].first_dispatch - pr[1].start_at) / 1e6,
	       (unsigned long long)th_stat(th, "aged_slots"));
	TH_CHECK(pr[1].ios > 0, "lower class never served");
	/* about one aged slot per request of the lower class (depth 1) */
	TH_CHECK(th_stat(th, "aged_slots") >= pr[1].ios / 2 &&
		 th_stat(th, "aged_slots") <= pr[1].ios,
		 "%llu aged slots for the lower class's %llu requests",
		 (unsigned long long)th_stat(th, "aged_slots"),
		 (unsigned long long)pr[1].ios);
	TH_CHECK(pr[1].max_wait <= bound, "lower class waited %.1f ms > %.1f",
		 pr[1].max_wait / 1e6, bound / 1e6);
	/* and it is still the lower class: one small slot per age */
	TH_CHECK(share >= 0.95, "upper class only got %.3f", share);
	fqt_finish(th, pr, 2);
}

int main(void)
{
	aging(EK_PRIO_RT, EK_PRIO_BE, 1000, 125, 125);
	aging(EK_PRIO_BE, EK_PRIO_IDLE, 1000, 125, 125);
	aging(EK_PRIO_RT, EK_PRIO_IDLE, 200, 125, 125);
	aging(EK_PRIO_BE, EK_PRIO_IDLE, 5000, 125, 125);
	/*
	 * Slots of up to 2 s, 1.3 s for one queue (target_latency_ms): the
	 * class above's slot is cut when the lower class has waited its age,
	 * not at the slot's end.
	 */
	aging(EK_PRIO_RT, EK_PRIO_BE, 100, 2000, 0);
	printf("ok\n");
	return 0;
}
