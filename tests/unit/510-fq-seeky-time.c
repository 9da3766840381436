/* DESCRIPTION: fair-queue on a disk that seeks: a backlogged random reader is charged for its seeks, so it and a backlogged sequential reader of the same weight share the disk's time, not its sectors */
#include "fq.h"

int main(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, FQT_MAX_RQ);
	/*
	 * 100 MB/s when streaming, 15 ms for a seek: more than the seek the
	 * policy charges per request (8 ms), so the slot's time must count.
	 */
	struct fqt_disk d = { .svc_base = 50 * US, .svc_per_sector = 5 * US,
			      .svc_seek = 15 * MS };
	struct fqt_proc pr[2];
	struct fqt_proc *seq = &pr[0], *rnd = &pr[1];
	double share;
	int i;

	th_preset(th, "low_latency", 0);	/* weights only, no raising */
	th_start(th);
	for (i = 0; i < 2; i++) {
		fqt_proc_init(th, &pr[i], (ek_u32)i + 1);
		pr[i].depth = 4;	/* both always backlogged */
	}
	seq->nr = 256;			/* 128 KiB sequential reads */
	rnd->nr = 8;			/* 4 KiB reads 1 GiB apart */
	rnd->next = 1ULL << 30;
	rnd->stride = 1ULL << 21;
	fqt_run(th, &d, pr, 2, 20000 * MS);

	share = (double)rnd->busy_ns / (double)(seq->busy_ns + rnd->busy_ns);
	printf("disk time: sequential %.0f ms (%llu MiB), random %.0f ms (%llu reads): random's share %.2f\n",
	       seq->busy_ns / 1e6, (unsigned long long)seq->bytes >> 20,
	       rnd->busy_ns / 1e6, (unsigned long long)rnd->ios, share);
	/*
	 * Charged its sectors only, the random reader would take nearly all
	 * the disk time (8 sectors per 15 ms against 256 per 1.3 ms); charged
	 * a seek per request but not its slot's time, about two thirds.
	 */
	TH_CHECK(share > 0.4 && share < 0.6,
		 "random reader's share of the disk time %.2f, expected 0.4..0.6",
		 share);
	fqt_finish(th, pr, 2);
	printf("ok\n");
	return 0;
}
