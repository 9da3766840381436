/* DESCRIPTION: anticipatory: with more sequential readers than a read_expire can serve by seeking, an expired read goes first at most once per read_expire (as-iosched's limit), so readers take turns streaming instead of a seek per read */
#include "antic.h"

#define NREADERS 16
#define POOL (1 << 16)

static ek_u64 late[POOL];

static int cmp_u64(const void *a, const void *b)
{
	ek_u64 x = *(const ek_u64 *)a, y = *(const ek_u64 *)b;

	return x < y ? -1 : x > y;
}

int main(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, POOL);
	struct ah_reader r[NREADERS];
	struct ah_loop l;
	ek_u64 maxw = 0, lim, min_gap = EK_U64_MAX;
	unsigned long reads = 0, fifo = 0, i;
	double seek_share;

	th_start(th);
	memset(r, 0, sizeof(r));
	for (i = 0; i < NREADERS; i++) {
		r[i].p = ah_pctx_new(th, 1 + (ek_u32)i);
		r[i].next = 1000 + i * 40000000ULL;	/* a far seek apart */
		r[i].nr = 256;
		r[i].think = 100 * US;
		r[i].issue_at = i * 10 * US;
	}
	ah_loop_init(&l, th, r, NREADERS, NULL, 0);
	ah_run(&l, 5000 * MS);

	for (i = 0; i < NREADERS; i++) {
		reads += r[i].reads;
		if (r[i].max_wait > maxw)
			maxw = r[i].max_wait;
	}
	/* dispatches of an expired read, and how close together they came */
	for (i = 0; i < th->pool_used; i++) {
		struct ek_rq *rq = &th->pool[i].rq;

		if (rq->dispatch_ns && rq->dispatch_ns >= rq->deadline_ns)
			late[fifo++] = rq->dispatch_ns;
	}
	qsort(late, fifo, sizeof(late[0]), cmp_u64);
	for (i = 1; i < fifo; i++)
		if (late[i] - late[i - 1] < min_gap)
			min_gap = late[i] - late[i - 1];
	seek_share = (double)l.seeks / (double)reads;
	printf("%d readers: %lu reads, %lu seeks (%.3f), %lu expired reads served, closest %.1f ms apart; max wait %.0f ms; ",
	       NREADERS, reads, l.seeks, seek_share, fifo,
	       min_gap == EK_U64_MAX ? 0 : min_gap / 1e6, maxw / 1e6);
	ah_print_stats(th);
	ah_check_stats(th);

	/*
	 * Every reader's read expires while 15 others take their turn. With
	 * every due read going first, each read would be a seek (8 ms for
	 * 0.5 ms of streaming); with one per read_expire (125 ms), about one
	 * read in 250 is.
	 */
	TH_CHECK(seek_share < 0.05, "%.3f of the reads were seeks", seek_share);
	TH_CHECK(fifo >= 20, "only %lu expired reads served: the test tests nothing",
		 fifo);
	TH_CHECK(min_gap >= 125 * MS,
		 "two expired reads went first %.1f ms apart, under read_expire",
		 min_gap / 1e6);
	/* Each waits its turn: the 15 others, one read_expire and a seek each. */
	lim = NREADERS * (125 * MS + 8 * MS);
	TH_CHECK(maxw <= lim, "a reader waited %.0f ms > %.0f", maxw / 1e6,
		 lim / 1e6);
	for (i = 0; i < NREADERS; i++)
		TH_CHECK(r[i].reads > 100, "reader %lu read only %lu times", i,
			 r[i].reads);
	ah_loop_end(&l);
	printf("ok\n");
	return 0;
}
