/* DESCRIPTION: anticipatory: no waiting for a process whose next read cannot be submitted because the reads held fill nr_requests */
#include "antic.h"

/* P's read on the disk, `others` far reads queued; P's read completes. */
static int waits_after_completion(unsigned int others, int *waited_before)
{
	struct th *th = th_new(&ek_anticipatory_policy, 64);
	struct ek_pctx *p;
	struct ek_rq *a, *rq;
	unsigned int i;
	int waited;

	th->host.dev.nr_requests = 4;
	th_start(th);
	p = ah_pctx_new(th, 1);
	a = ah_read(th, p, 1000, 8);
	TH_CHECK(th_dispatch(th) == a, "P's read not dispatched");
	for (i = 0; i < others; i++)
		ah_read(th, NULL, 50000000 + 1000000 * i, 8);
	/* Its slot may be P's again: wait while its read is on the disk. */
	*waited_before = !th_dispatch(th);
	th_advance(th, 1 * MS);
	th_complete(th, a);
	rq = th_dispatch(th);
	waited = !rq;
	if (rq)
		th_complete(th, rq);
	while (th->queued) {
		th_advance(th, 10 * MS);
		th->timer_armed = 0;
		while ((rq = th_dispatch(th)))
			th_complete(th, rq);
	}
	ah_check_stats(th);
	th_finish(th);
	free(p);
	return waited;
}

int main(void)
{
	int before;

	/* 1 in flight + 3 queued = 4 = nr_requests; after completion 3 < 4 */
	TH_CHECK(waits_after_completion(3, &before), "no wait with a free slot");
	TH_CHECK(before, "no wait while P's read was on the disk");
	/* 4 queued besides P's: after its completion the reads still fill it */
	TH_CHECK(!waits_after_completion(4, &before),
		 "waited for a process that cannot submit");
	TH_CHECK(before, "no wait while P's read was on the disk");
	printf("ok\n");
	return 0;
}
