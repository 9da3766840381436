/* DESCRIPTION: fair-queue: an exited process's queue in service whose last queued request is merged away leaves service, so its context, freed with its last request, is never touched again */
#include "fq.h"

int main(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, 64);
	struct fqt_proc pr[2];
	struct fqt_proc *a = &pr[0], *b = &pr[1];
	struct ek_rq *a1, *a2, *b1, *rq;

	th_preset(th, "low_latency", 0);
	th_start(th);
	fqt_proc_init(th, a, 1);
	fqt_proc_init(th, b, 2);

	/* A's queue is taken into service with a2 still queued behind a1. */
	a1 = fqt_read_at(th, a, 0);
	a2 = fqt_read_at(th, a, 1000);
	rq = th_dispatch(th);
	TH_CHECK(rq == a1, "dispatched %p, expected A's first read", (void *)rq);
	b1 = fqt_read_at(th, b, 992);

	/* A exits with a2 queued: its queue stays in service for it. */
	fqt_exit(th, a);
	TH_CHECK(a->p, "A's context freed with two requests holding it");

	/* B's read absorbs a2: A's queue has nothing queued any more. */
	th_merge_requests(th, b1, a2);
	a->outstanding--;
	fqt_release(a2);

	/* A's last request completes: its context goes (ASan watches it). */
	th_advance(th, EK_NSEC_PER_MSEC);
	fqt_done(th, a1);
	TH_CHECK(!a->p, "A's context not freed after its last request");

	rq = th_dispatch(th);
	TH_CHECK(rq == b1, "dispatched %p, expected B's merged read", (void *)rq);
	fqt_done(th, rq);
	fqt_finish(th, pr, 2);
	printf("ok\n");
	return 0;
}
