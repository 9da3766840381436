/* DESCRIPTION: anticipatory: during a wait for P, a bio that front-merges into another process's queued read, which then starts where P's last read ended, ends the wait as a hit (no insert announces it) */
#include "antic.h"

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 64);
	struct ek_pctx *p, *q, *r;
	struct ek_rq *a, *ahead, *grown;
	ek_u64 sector = 8192;
	int i;

	th_start(th);
	p = ah_pctx_new(th, 1);
	q = ah_pctx_new(th, 2);
	r = ah_pctx_new(th, 3);

	/* P reads three contiguous blocks: its mean seek is 0. */
	for (i = 0; i < 3; i++, sector += 256) {
		a = ah_read(th, p, sector, 256);
		th_expect(th, a, "P's read");
		if (i < 2) {
			th_complete(th, a);
			th_advance(th, 100 * US);
		}
	}
	ah_read(th, q, 50000000, 8);		/* a reason to wait */
	th_advance(th, 1 * MS);
	th_complete(th, a);
	TH_CHECK(!th_dispatch(th), "no wait for P");

	/* R's read one block past P's end is too far to end the wait. */
	th_advance(th, 100 * US);
	ahead = ah_read(th, r, sector + 256, 256);
	TH_CHECK(th_stat(th, "antic_hits") == 0 && !th_dispatch(th),
		 "a read 128 KiB past P's end ended the wait");

	/* P's next block arrives as a bio joining the front of R's read. */
	th_advance(th, 100 * US);
	grown = th_front_merge(th, EK_READ, sector, 256);
	TH_CHECK(grown == ahead, "P's bio did not join R's read");
	TH_CHECK(th_stat(th, "antic_hits") == 1,
		 "P's bio joining a queued read did not end the wait as a hit");
	th_expect_done(th, grown, "the grown read");
	ah_drain(th);
	ah_check_stats(th);
	ah_print_stats(th);
	th_finish(th);
	free(p);
	free(q);
	free(r);
	printf("ok\n");
	return 0;
}
