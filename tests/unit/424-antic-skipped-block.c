/* DESCRIPTION: anticipatory: during a wait for P, another process's read of the block P's last read skipped (ending where it started, up to 1 MiB before) ends the wait as a hit and is served; one ending 2 MiB before does not */
#include "antic.h"

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 64);
	struct ek_pctx *p, *q, *r, *s;
	struct ek_rq *a, *far, *behind, *skipped;

	th_start(th);
	p = ah_pctx_new(th, 1);
	q = ah_pctx_new(th, 2);
	r = ah_pctx_new(th, 3);
	s = ah_pctx_new(th, 4);

	/* P reads alternate 128 KiB blocks: 0, then 2 (skipping block 1). */
	a = ah_read(th, p, 8192, 256);
	th_expect_done(th, a, "P's first read");
	th_advance(th, 100 * US);
	a = ah_read(th, p, 8192 + 512, 256);
	th_expect(th, a, "P's second read");
	far = ah_read(th, q, 50000000, 8);	/* a reason to wait */
	th_advance(th, 1 * MS);
	th_complete(th, a);
	TH_CHECK(!th_dispatch(th), "no wait for P");
	TH_CHECK(th_stat(th, "antic_started") == 1, "antic_started %llu",
		 (unsigned long long)th_stat(th, "antic_started"));

	/* S's read ends 2 MiB before P's last read started: the wait goes on. */
	th_advance(th, 100 * US);
	behind = ah_read(th, s, 8192 + 512 - 4096 - 256, 256);
	TH_CHECK(th_stat(th, "antic_hits") == 0 && !th_dispatch(th),
		 "a read 2 MiB behind P ended the wait");

	/* R reads block 1, the one P skipped: served at once. */
	th_advance(th, 100 * US);
	skipped = ah_read(th, r, 8192 + 256, 256);
	TH_CHECK(th_stat(th, "antic_hits") == 1,
		 "a read of the block P skipped did not end the wait as a hit");
	th_expect_done(th, skipped, "the skipped block");
	ah_drain(th);
	(void)far;
	(void)behind;
	ah_check_stats(th);
	ah_print_stats(th);
	th_finish(th);
	free(p);
	free(q);
	free(r);
	free(s);
	printf("ok\n");
	return 0;
}
