/* DESCRIPTION: fair-queue: the slot of a random reader that went quiet ends at its last read, not when the next request of anybody closes it: back beside a streamer, it is neither charged nor starved for its quiet minute, and it is raised as long idle */
#include "fq.h"

#define S (1000 * MS)

/*
 * A random reader reads alone for 200 ms, then nothing for quiet_ns; a
 * streamer (4 reads outstanding) starts, and the reader comes back 1 s
 * later. Returns the reader's share of the disk's time in the 10 s after
 * its return; *raises: raises from the streamer's start on.
 */
static double share_after_quiet(ek_u64 quiet_ns, int low_latency,
				ek_u64 *raises)
{
	struct th *th = th_new(&ek_fair_queue_policy, FQT_MAX_RQ);
	struct fqt_disk d = { .svc_base = 50 * US, .svc_per_sector = 5 * US,
			      .svc_seek = 15 * MS };
	struct fqt_proc pr[2];
	struct fqt_proc *seq = &pr[0], *rnd = &pr[1];
	ek_u64 busy0, raises0;
	double share;

	th_preset(th, "low_latency", low_latency);
	th_start(th);
	fqt_proc_init(th, seq, 1);
	fqt_proc_init(th, rnd, 2);
	seq->nr = 256;			/* 128 KiB sequential reads */
	rnd->nr = 8;			/* 4 KiB reads 1 GiB apart */
	rnd->next = 1ULL << 30;
	rnd->stride = 1ULL << 21;
	rnd->depth = 1;
	fqt_run(th, &d, pr, 2, 200 * MS);
	rnd->depth = 0;			/* quiet: its last read completes */
	fqt_run(th, &d, pr, 2, 300 * MS);
	th_advance_to(th, 300 * MS + quiet_ns);

	seq->depth = 4;
	seq->start_at = th->now;
	rnd->depth = 1;
	rnd->start_at = th->now + S;
	raises0 = th_stat(th, "raises");
	fqt_run(th, &d, pr, 2, rnd->start_at);
	busy0 = rnd->busy_ns;
	fqt_run(th, &d, pr, 2, th->now + 10 * S);
	share = (double)(rnd->busy_ns - busy0) / (double)(10 * S);
	*raises = th_stat(th, "raises") - raises0;
	printf("quiet %4llu s, low_latency %d: random reader's share %.3f, max wait %.0f ms, raises %llu\n",
	       (unsigned long long)(quiet_ns / S), low_latency, share,
	       rnd->max_wait / 1e6, (unsigned long long)*raises);
	fqt_finish(th, pr, 2);
	return share;
}

int main(void)
{
	ek_u64 raises;
	double brief, quiet;

	/* Weights alone: as after a short pause, about half the disk's time. */
	brief = share_after_quiet(S / 10, 0, &raises);
	quiet = share_after_quiet(60 * S, 0, &raises);
	TH_CHECK(quiet > 0.4 && quiet < 0.6,
		 "after a quiet minute the reader's share is %.3f, expected 0.4..0.6 (%.3f after 0.1 s)",
		 quiet, brief);

	/* Raising: the streamer as new, the reader as back after 2 s idle. */
	quiet = share_after_quiet(60 * S, 1, &raises);
	TH_CHECK(raises == 2, "raises %llu, expected 2 (streamer, reader)",
		 (unsigned long long)raises);
	TH_CHECK(quiet > 0.5, "raised, the reader's share is %.3f", quiet);
	printf("ok\n");
	return 0;
}
