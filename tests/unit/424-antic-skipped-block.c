/* DESCRIPTION: anticipatory: during a wait for P, another process's read of the block P's last read skipped (ending where it started, up to 1 MiB before) ends the wait as a hit and is served; one ending 2 MiB before does not */
#include "antic.h"

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 64);
	struct ek_pctx *pr[4];
	struct ek_rq *a, *skipped;
	unsigned int i;

	th_start(th);
	for (i = 0; i < 4; i++)
		pr[i] = ah_pctx_new(th, i + 1);

	/* P reads alternate 128 KiB blocks: 0, then 2 (skipping block 1). */
	a = ah_read(th, pr[0], 8192, 256);
	th_expect_done(th, a, "P's first read");
	th_advance(th, 100 * US);
	a = ah_read(th, pr[0], 8192 + 512, 256);
	th_expect(th, a, "P's second read");
	ah_wait_after(th, pr[1], a);

	/* S's read ends 2 MiB before P's last read started: the wait goes on. */
	th_advance(th, 100 * US);
	ah_read(th, pr[3], 8192 + 512 - 4096 - 256, 256);
	TH_CHECK(th_stat(th, "antic_hits") == 0 && !th_dispatch(th),
		 "a read 2 MiB behind P ended the wait");

	/* R reads block 1, the one P skipped: served at once. */
	th_advance(th, 100 * US);
	skipped = ah_read(th, pr[2], 8192 + 256, 256);
	TH_CHECK(th_stat(th, "antic_hits") == 1,
		 "a read of the block P skipped did not end the wait as a hit");
	th_expect_done(th, skipped, "the skipped block");
	ah_drain(th);
	return ah_pass(th, pr, 4);
}
