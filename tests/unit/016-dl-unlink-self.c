/* DESCRIPTION: deadline-read and anticipatory: merged_requests(rq, rq) (the host knows rq is gone, not what took it) unlinks rq and keeps everything else */
#include "elvkit/dlq.h"
#include "testhost.h"

static void check(const struct ek_policy *pol)
{
	struct th *th = th_new(pol, 16);
	struct ek_rq *a, *b, *c;

	th_start(th);
	a = th_add(th, EK_READ, 100, 8);
	b = th_add(th, EK_READ, 200, 8);
	c = th_add(th, EK_WRITE, 300, 8);
	th_merge_requests(th, b, b);
	TH_CHECK(!ek_dlq_is_sorted(b) && !ek_dlq_is_special(b),
		 "%s: b still queued", pol->name);
	TH_CHECK(th_dispatch(th) == a, "%s: a not first", pol->name);
	th_complete(th, a);
	TH_CHECK(th_dispatch(th) == c, "%s: c not next", pol->name);
	th_complete(th, c);
	TH_CHECK(!th_dispatch(th), "%s: something left", pol->name);
	th_finish(th);
}

int main(void)
{
	check(&ek_deadline_read_policy);
	check(&ek_anticipatory_policy);
	printf("ok\n");
	return 0;
}
