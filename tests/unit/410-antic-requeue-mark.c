/* DESCRIPTION: anticipatory: "requeued" belongs to the request: a requeue the host does not follow with an insert leaves no mark on the next request that reuses its descriptor */
#include "elvkit/dlq.h"
#include "antic.h"

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 16);
	struct ek_pctx *p;
	struct ek_rq *a, *b, *far;

	th_start(th);
	p = ah_pctx_new(th, 1);
	a = ah_read(th, p, 1000, 8);
	TH_CHECK(th_dispatch(th) == a, "a not dispatched");

	/*
	 * The device gives a back, and the request goes to it again without
	 * passing the policy (the kernel's RQF_DONTPREP path), then completes.
	 */
	th->pol->requeue(th->sd, a, th->now);
	th_advance(th, 1 * MS);
	th_complete(th, a);

	/* The shim hands a's descriptor to the next request (per-tag). */
	b = th_rq_recycle(th, a, EK_READ, 5000, 8);
	b->pctx = p;
	b->owner = p->owner;
	b->sync = 1;
	th_insert(th, b);
	far = ah_read(th, NULL, 900000, 8);
	TH_CHECK(!ek_dlq_is_special(b),
		 "a new request on a requeued request's descriptor was filed as special (unsorted, no deadline)");
	TH_CHECK(b->deadline_ns == th->now + 125 * MS, "b's deadline %llu",
		 (unsigned long long)b->deadline_ns);

	/* A requeue followed by its insert still goes first, as special. */
	TH_CHECK(th_dispatch(th) == b, "b, close to p's last read, not next");
	th_requeue(th, b);
	TH_CHECK(ek_dlq_is_special(b), "a re-inserted requeue is not special");
	TH_CHECK(th_dispatch(th) == b, "requeued b not first");
	th_complete(th, b);
	TH_CHECK(th_dispatch(th) == far, "far not dispatched");
	th_complete(th, far);
	ah_pctx_exit(th, p);
	th_drain(th);
	th_finish(th);
	free(p);
	printf("ok\n");
	return 0;
}
