/* DESCRIPTION: fair-queue on a disk that seeks: a backlogged reader of small reads close together (not seeky by distance, but a seek each) is charged its slots' time as slow, and it and a backlogged sequential reader of the same weight share the disk's time, not its sectors */
#include "fq.h"

int main(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, FQT_MAX_RQ);
	/*
	 * 100 MB/s when streaming, 5 ms for any seek however short (a turn
	 * of the disk, mostly).
	 */
	struct fqt_disk d = { .svc_base = 50 * US, .svc_per_sector = 5 * US,
			      .svc_seek = 5 * MS };
	struct fqt_proc pr[2];
	struct fqt_proc *seq = &pr[0], *near = &pr[1];
	double share;
	int i;

	th_preset(th, "low_latency", 0);	/* weights only, no raising */
	th_start(th);
	for (i = 0; i < 2; i++) {
		fqt_proc_init(th, &pr[i], (ek_u32)i + 1);
		pr[i].depth = 4;	/* both always backlogged */
	}
	seq->nr = 256;			/* 128 KiB sequential reads */
	near->nr = 8;			/* 4 KiB reads 256 KiB apart, 1 GiB in */
	near->next = 1ULL << 21;
	near->stride = 512;
	fqt_run(th, &d, pr, 2, 20000 * MS);

	share = (double)near->busy_ns / (double)(seq->busy_ns + near->busy_ns);
	printf("disk time: sequential %.0f ms (%llu MiB), near %.0f ms (%llu reads): near's share %.2f\n",
	       seq->busy_ns / 1e6, (unsigned long long)seq->bytes >> 20,
	       near->busy_ns / 1e6, (unsigned long long)near->ios, share);
	/*
	 * Its mean seek (504 sectors) is far under the seeky threshold (1
	 * MiB): charged its sectors only, 8 per 5 ms against 256 per 1.3 ms,
	 * it would take nearly all the disk's time (0.98). Charged its time
	 * at a rate its own slots measured too (taken for sequential ones:
	 * not seeky), it would still take 0.6.
	 */
	TH_CHECK(share > 0.45 && share < 0.55,
		 "near reader's share of the disk time %.2f, expected 0.45..0.55",
		 share);
	fqt_finish(th, pr, 2);
	printf("ok\n");
	return 0;
}
