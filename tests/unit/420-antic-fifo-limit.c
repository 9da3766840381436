/* DESCRIPTION: anticipatory: the FIFO limit counts read_expire (write_expire) from the last expired FIFO head dispatched, at or after its deadline, or from the start of a batch of its direction; not from a head dispatched in order before its deadline, nor from an expired request behind the head; and a pick remembered from before a head fell due is not reused after */
#include "antic.h"

#define NR 300

/*
 * A disk serving one request per ms, at queue depth 1: until want is
 * dispatched; returns when that was.
 */
static ek_u64 serve_until(struct th *th, struct ek_rq **cur, struct ek_rq *want)
{
	for (;;) {
		th_advance(th, 1 * MS);
		th_complete(th, *cur);
		*cur = th_dispatch(th);
		TH_CHECK(*cur, "nothing dispatched at %.1f ms with %lu queued",
			 th->now / 1e6, th->queued);
		if (*cur == want)
			return th->now;
	}
}

static void finish(struct th *th, struct ek_rq *cur)
{
	th_complete(th, cur);
	th_drain(th);
	th_finish(th);
}

/* Reads without a process context: nothing to wait for, only the FIFO. */
static struct ek_rq *rd(struct th *th, ek_u64 sector)
{
	return ah_read(th, NULL, sector, 8);
}

/*
 * The FIFO head A goes in sector order at 20 ms, 105 ms before its
 * deadline: not an expired head, so Y, queued behind it and far below
 * the elevator's way, is due at its own deadline (136 ms), not at 145.
 */
static void head_in_order(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, NR + 8);
	struct ek_rq *cur, *a, *y;
	ek_u64 t;
	int i;

	th_start(th);
	cur = rd(th, 600);
	th_expect(th, cur, "the first read");
	th_advance_to(th, 10 * MS);
	a = rd(th, 1000);
	th_advance_to(th, 11 * MS);
	y = rd(th, 500);
	th_advance_to(th, 12 * MS);
	for (i = 0; i < NR; i++)
		rd(th, 2000 + 8 * (ek_u64)i);
	th_advance_to(th, 20 * MS);
	th_complete(th, cur);
	cur = th_expect(th, a, "A, the FIFO head, next in sector order");
	t = serve_until(th, &cur, y);
	printf("head in order: Y (deadline 136 ms) dispatched at %.1f ms\n",
	       t / 1e6);
	TH_CHECK(t == 136 * MS,
		 "Y dispatched at %.1f ms, want its deadline 136 ms: the FIFO head dispatched in order before its deadline counted as an expired one",
		 t / 1e6);
	finish(th, cur);
}

/*
 * H, the FIFO head, goes at 125 ms, exactly its deadline: an expired head.
 * D, behind it, falls due read_expire later (250 ms), not at its own
 * deadline (126 ms), and not later for the expired reads behind it that
 * go in sector order meanwhile.
 */
static void expired_behind_head(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, NR + 8);
	struct ek_rq *cur, *h, *d;
	ek_u64 t;
	int i;

	th_start(th);
	cur = rd(th, 100);		/* a slow read: 125 ms on the device */
	th_expect(th, cur, "the first read");
	h = rd(th, 1000);
	th_advance_to(th, 1 * MS);
	d = rd(th, 500);
	th_advance_to(th, 2 * MS);
	for (i = 0; i < NR; i++)
		rd(th, 2000 + 8 * (ek_u64)i);
	th_advance_to(th, 125 * MS);
	th_complete(th, cur);
	cur = th_expect(th, h, "H, due at its deadline");
	t = serve_until(th, &cur, d);
	printf("expired head at its deadline: D (deadline 126 ms) dispatched at %.1f ms\n",
	       t / 1e6);
	TH_CHECK(t >= 250 * MS,
		 "D dispatched at %.1f ms, under read_expire after H, an expired head dispatched at its deadline (125 ms)",
		 t / 1e6);
	TH_CHECK(t == 250 * MS,
		 "D dispatched at %.1f ms, want 250 ms (read_expire after H): expired reads behind the head, served in order, moved the limit",
		 t / 1e6);
	finish(th, cur);
}

/*
 * A read batch starts at 10 ms with R1, not expired: the limit counts from
 * there, so Y (deadline 127 ms) is due at 135 ms.
 */
static void batch_start(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, NR + 8);
	struct ek_rq *cur, *r1, *y;
	ek_u64 t;
	int i;

	th_start(th);
	cur = ah_write(th, NULL, 9000000, 8);
	th_expect(th, cur, "the write");
	th_advance_to(th, 1 * MS);
	r1 = rd(th, 1000);
	th_advance_to(th, 2 * MS);
	y = rd(th, 500);
	th_advance_to(th, 3 * MS);
	for (i = 0; i < NR; i++)
		rd(th, 1008 + 8 * (ek_u64)i);
	TH_CHECK(!th_dispatch(th), "a read passed the write on the device");
	th_advance_to(th, 10 * MS);
	th_complete(th, cur);
	cur = th_expect(th, r1, "R1, the read batch's first");
	t = serve_until(th, &cur, y);
	printf("batch start: Y (deadline 127 ms) dispatched at %.1f ms\n",
	       t / 1e6);
	TH_CHECK(t == 135 * MS,
		 "Y dispatched at %.1f ms, want 135 ms: read_expire after its read batch started (10 ms)",
		 t / 1e6);
	finish(th, cur);
}

/*
 * In a write batch the pick at 249 ms (W2, next in sector order) holds
 * only until W0 falls due at 250 ms: at 251 ms W0 goes.
 */
static void memo_until_due(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 16);
	struct ek_rq *w1, *w0, *w2;

	th_start(th);
	w1 = ah_write(th, NULL, 1000, 8);
	th_expect(th, w1, "W1");
	w0 = ah_write(th, NULL, 500, 8);
	w2 = ah_write(th, NULL, 2000, 8);
	th_advance_to(th, 249 * MS);
	th_complete(th, w1);
	th_advance_to(th, 251 * MS);
	th_expect(th, w0, "W0, due at 250 ms, after the pick made at 249 ms");
	printf("memo: W0 (due 250 ms) dispatched at 251.0 ms, before W2\n");
	th_complete(th, w0);
	th_expect(th, w2, "W2");
	th_complete(th, w2);
	th_finish(th);
}

int main(void)
{
	head_in_order();
	expired_behind_head();
	batch_start();
	memo_until_due();
	printf("ok\n");
	return 0;
}
