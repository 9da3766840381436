/* DESCRIPTION: fair-queue on a disk that seeks: two backlogged sequential readers far apart get budgets that grow to long slots, so the disk streams instead of seeking between them every request */
#include "fq.h"

int main(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, FQT_MAX_RQ);
	/* 100 MB/s when streaming, 8 ms for a seek */
	struct fqt_disk d = { .svc_base = 50 * US, .svc_per_sector = 5 * US,
			      .svc_seek = 8 * MS };
	struct fqt_proc pr[2];
	ek_u64 switches, busy;
	double seeking;
	int i;

	th_preset(th, "low_latency", 0);
	th_start(th);
	for (i = 0; i < 2; i++) {
		fqt_proc_init(th, &pr[i], (ek_u32)i + 1);
		pr[i].depth = 4;	/* backlogged */
		pr[i].nr = 256;		/* 128 KiB reads */
		pr[i].next = (ek_u64)i << 30;
	}
	fqt_run(th, &d, pr, 2, 10000 * MS);
	switches = th_stat(th, "queue_switches");
	busy = pr[0].busy_ns + pr[1].busy_ns;
	/* a seek per switch at most: the rest of the time streams */
	seeking = (double)(switches * d.svc_seek) / (double)busy;
	printf("%llu slots in 10 s, %llu + %llu MiB, at most %.1f%% of the disk time seeking\n",
	       (unsigned long long)switches,
	       (unsigned long long)pr[0].bytes >> 20,
	       (unsigned long long)pr[1].bytes >> 20, 100 * seeking);
	/*
	 * Slots of 125 ms (slice_max_ms) are 80 in 10 s; budgets stuck at
	 * their start (128 KiB) would switch at every request, some 1000.
	 */
	TH_CHECK(switches <= 200, "%llu slots in 10 s: budgets did not grow",
		 (unsigned long long)switches);
	TH_CHECK(seeking < 0.2, "%.1f%% of the disk time seeking", 100 * seeking);
	fqt_finish(th, pr, 2);
	printf("ok\n");
	return 0;
}
