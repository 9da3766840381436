/* DESCRIPTION: fair-queue: two readers of interleaved blocks are served in disk order (a close cooperator instead of an idle wait), not every other block per slot; the pair shares one slot, so a third reader still gets as many bytes as each of them; off with cooperate=0 */
#include "fq.h"

/*
 * Step by step: A reads blocks 0, 2, 4, ... and B blocks 1, 3, 5, ...
 * of 8 sectors each, one at a time. With A in service and its read done,
 * B's read of the next block waits: it is served at once, where an idle
 * wait for A would leave it waiting for A's slot to end.
 */
static void steps(int cooperate)
{
	struct th *th = th_new(&ek_fair_queue_policy, 64);
	struct fqt_proc pr[2];
	struct fqt_proc *a = &pr[0], *b = &pr[1];
	struct ek_rq *ra, *rb, *rq;

	th_preset(th, "low_latency", 0);
	th_preset(th, "cooperate", cooperate);
	th_start(th);
	fqt_proc_init(th, a, 1);
	fqt_proc_init(th, b, 2);

	ra = fqt_read_at(th, a, 0);
	rb = fqt_read_at(th, b, 8);
	TH_CHECK(th_dispatch(th) == ra, "A's first read not first");
	/* A's read on the device: B waits, whatever it is (one at a time) */
	TH_CHECK(!th_dispatch(th), "B's read went while A's was on the device");
	th_advance(th, MS);
	fqt_done(th, ra);
	rq = th_dispatch(th);
	if (cooperate) {
		TH_CHECK(rq == rb, "cooperate=1: B's read of the next block waits for an idle wait for A");
		TH_CHECK(th_stat(th, "coop_switches") == 1, "coop_switches %llu",
			 (unsigned long long)th_stat(th, "coop_switches"));
		/* A's next read, 16, is the next block after B's: back to A */
		th_advance(th, MS);
		ra = fqt_read_at(th, a, 16);
		fqt_done(th, rb);
		TH_CHECK(th_dispatch(th) == ra, "A's read after B's not served");
		fqt_done(th, ra);
	} else {
		TH_CHECK(!rq, "cooperate=0: no idle wait for A");
		TH_CHECK(th_stat(th, "coop_switches") == 0, "a cooperator with cooperate=0");
		th_advance(th, MS);
		ra = fqt_read_at(th, a, 16);
		TH_CHECK(th_dispatch(th) == ra, "A's read did not end the wait");
		fqt_done(th, ra);
	}
	fqt_finish(th, pr, 2);
	printf("steps, cooperate=%d: ok\n", cooperate);
}

/*
 * On a disk that pays 8 ms for every jump: A and B read alternate 4 KiB
 * blocks of one region with 100 us of thought, C streams 128 KiB reads
 * elsewhere (4 outstanding), all of one weight, for 20 s. Returns the
 * pair's bytes; *c_share: C's share of all bytes.
 */
static ek_u64 three(int cooperate, double *c_share, ek_u64 *c_wait)
{
	struct th *th = th_new(&ek_fair_queue_policy, FQT_MAX_RQ);
	struct fqt_disk d = { .svc_base = 50 * US, .svc_per_sector = 5 * US,
			      .svc_seek = 8 * MS };
	struct fqt_proc pr[3];
	struct fqt_proc *a = &pr[0], *b = &pr[1], *c = &pr[2];
	ek_u64 pair;
	int i;

	th_preset(th, "low_latency", 0);
	th_preset(th, "cooperate", cooperate);
	th_start(th);
	for (i = 0; i < 3; i++)
		fqt_proc_init(th, &pr[i], (ek_u32)i + 1);
	a->nr = b->nr = 8;
	a->stride = b->stride = 16;
	b->next = 8;
	a->depth = b->depth = 1;
	a->think = b->think = 100 * US;
	c->nr = 256;
	c->next = 1ULL << 30;
	c->depth = 4;
	fqt_run(th, &d, pr, 3, 20000 * MS);
	pair = a->bytes + b->bytes;
	*c_share = (double)c->bytes / (double)(pair + c->bytes);
	*c_wait = c->max_wait;
	printf("cooperate=%d: pair %llu MiB (A %llu, B %llu), C %llu MiB, C's share of the bytes %.3f, C's longest wait %.0f ms, coop_switches %llu\n",
	       cooperate, (unsigned long long)pair >> 20,
	       (unsigned long long)a->bytes >> 20,
	       (unsigned long long)b->bytes >> 20,
	       (unsigned long long)c->bytes >> 20, *c_share, c->max_wait / 1e6,
	       (unsigned long long)th_stat(th, "coop_switches"));
	TH_CHECK(a->bytes * 10 > b->bytes * 9 && b->bytes * 10 > a->bytes * 9,
		 "cooperate=%d: A and B did not share alike", cooperate);
	fqt_finish(th, pr, 3);
	return pair;
}

int main(void)
{
	ek_u64 on, off, won, woff;
	double son, soff;

	steps(1);
	steps(0);
	on = three(1, &son, &won);
	off = three(0, &soff, &woff);
	TH_CHECK(on > 2 * off, "the pair read %llu MiB cooperating, %llu not: not twice",
		 (unsigned long long)on >> 20, (unsigned long long)off >> 20);
	/*
	 * One slot for the pair: C, charged in sectors as they are, gets at
	 * least a third of the bytes (without cooperation, nearly all: the
	 * pair's reads each pay a seek).
	 */
	TH_CHECK(son >= 1.0 / 3, "C's share of the bytes %.3f cooperating (%.3f not)",
		 son, soff);
	TH_CHECK(won <= woff + 200 * MS, "C waited %.0f ms cooperating against %.0f",
		 won / 1e6, woff / 1e6);
	printf("ok\n");
	return 0;
}
