/* DESCRIPTION: fair-queue on a disk that seeks: a backlogged random reader is charged for its seeks, so it and a backlogged sequential reader of the same weight share the disk's time, not its sectors */
#include "fq.h"

int main(void)
{
	/*
	 * 100 MB/s when streaming, 15 ms for a seek: more than the seek the
	 * policy charges per request (8 ms), so the slot's time must count.
	 */
	struct fqt_disk d = { .svc_base = 50 * US, .svc_per_sector = 5 * US,
			      .svc_seek = 15 * MS };
	/* 4 KiB reads 1 GiB apart */
	double share = fqt_share_beside_streamer(&d, 1ULL << 30, 1ULL << 21);

	/*
	 * Charged its sectors only, the random reader would take nearly all
	 * the disk time (8 sectors per 15 ms against 256 per 1.3 ms); charged
	 * a seek per request but not its slot's time, about two thirds.
	 */
	TH_CHECK(share > 0.4 && share < 0.6,
		 "random reader's share of the disk time %.2f, expected 0.4..0.6",
		 share);
	printf("ok\n");
	return 0;
}
