/* DESCRIPTION: anticipatory: during a wait for P, a bio that front-merges into another process's queued read, which then starts where P's last read ended, ends the wait as a hit (no insert announces it) */
#include "antic.h"

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 64);
	struct ek_pctx *pr[3];
	struct ek_rq *a = NULL, *ahead, *grown;
	ek_u64 sector = 8192;
	unsigned int i;

	th_start(th);
	for (i = 0; i < 3; i++)
		pr[i] = ah_pctx_new(th, i + 1);

	/* P reads three contiguous blocks: its mean seek is 0. */
	for (i = 0; i < 3; i++, sector += 256) {
		if (a) {
			th_complete(th, a);
			th_advance(th, 100 * US);
		}
		a = ah_read(th, pr[0], sector, 256);
		th_expect(th, a, "P's read");
	}
	ah_wait_after(th, pr[1], a);

	/* R's read one block past P's end is too far to end the wait. */
	th_advance(th, 100 * US);
	ahead = ah_read(th, pr[2], sector + 256, 256);
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
	return ah_pass(th, pr, 3);
}
