/* DESCRIPTION: fair-queue on a disk that seeks: a backlogged reader of small reads close together (not seeky by distance, but a seek each) is charged its slots' time as slow, and it and a backlogged sequential reader of the same weight share the disk's time, not its sectors */
#include "fq.h"

int main(void)
{
	/*
	 * 100 MB/s when streaming, 5 ms for any seek however short (a turn
	 * of the disk, mostly).
	 */
	struct fqt_disk d = { .svc_base = 50 * US, .svc_per_sector = 5 * US,
			      .svc_seek = 5 * MS };
	/* 4 KiB reads 256 KiB apart, 1 GiB in */
	double share = fqt_share_beside_streamer(&d, 1ULL << 21, 512);

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
	printf("ok\n");
	return 0;
}
