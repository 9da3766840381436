/* DESCRIPTION: fair-queue: a process that read for seconds as best-effort and comes back as real-time brings no best-effort finish time into RT's virtual time: it shares the disk with an RT reader at once instead of waiting for RT to catch up */
#include "fq.h"

int main(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, FQT_MAX_RQ);
	/* 128 KiB in 1.33 ms: some 96 MB/s */
	struct fqt_disk d = { .svc_base = 50 * US, .svc_per_sector = 5 * US };
	struct fqt_proc pr[2];
	struct fqt_proc *q = &pr[0], *a = &pr[1];
	ek_u64 q_bytes, a_bytes, t0;
	double share;

	th_preset(th, "low_latency", 0);	/* weights only, no raising */
	th_start(th);
	fqt_proc_init(th, q, 1);
	fqt_proc_init(th, a, 2);

	/* Q reads alone as best-effort for 3 s: BE's virtual time runs far. */
	q->depth = 4;
	fqt_run(th, &d, pr, 2, 3000 * MS);
	/* Q stops; what it had queued is served, its idle wait runs out. */
	q->depth = 0;
	fqt_run(th, &d, pr, 2, th->now + 100 * MS);
	TH_CHECK(!th->queued, "%lu left queued", th->queued);
	q_bytes = q->bytes;
	printf("Q read %llu MiB as best-effort\n",
	       (unsigned long long)q_bytes >> 20);

	/*
	 * A reads as real-time from a fresh start; 200 ms later Q reads
	 * again, now real-time too, with the same level (weight).
	 */
	t0 = th->now;
	a->cls = EK_PRIO_RT;
	a->depth = 4;
	a->next = 1ULL << 30;
	a->start_at = t0;
	q->cls = EK_PRIO_RT;
	q->depth = 4;
	q->start_at = t0 + 200 * MS;
	q->max_wait = 0;
	q->first_dispatch = 0;
	fqt_run(th, &d, pr, 2, t0 + 3200 * MS);

	q_bytes = q->bytes - q_bytes;
	a_bytes = a->bytes;
	share = (double)q_bytes / (double)(q_bytes + a_bytes);
	printf("as RT, 3.2 s, Q from 0.2 s on: Q %llu MiB (first read %.1f ms after it asked, longest wait %.1f ms), A %llu MiB: Q's share %.2f\n",
	       (unsigned long long)q_bytes >> 20,
	       q->first_dispatch ?
	       (q->first_dispatch - q->start_at) / 1e6 : -1.0,
	       q->max_wait / 1e6, (unsigned long long)a_bytes >> 20, share);
	/* A's slot in service when Q arrives is at most slice_max_ms */
	TH_CHECK(q->first_dispatch &&
		 q->first_dispatch - q->start_at <= 130 * MS,
		 "Q's first RT read waited %.1f ms (A's slot is at most 125 ms)",
		 q->first_dispatch ?
		 (q->first_dispatch - q->start_at) / 1e6 : 3000.0);
	/* equal weights: about half (A read alone for the first 0.2 s) */
	TH_CHECK(share > 0.4 && share < 0.6,
		 "Q's share as RT %.2f, expected about half", share);
	fqt_finish(th, pr, 2);
	printf("ok\n");
	return 0;
}
