/* DESCRIPTION: anticipatory: read_expire, and write_expire within the read batch time, are still honoured while the policy keeps anticipating for fast readers */
#include "antic.h"

#define NSHOT 100
/*
 * A batch ends by time only, and the next one starts at its FIFO head, so
 * a write waits at most write_expire + read_batch_expire (it came just
 * before a write batch ended, behind the sweep), plus the service of older
 * expired requests: at most one seek per reader, one-off read, one-off
 * write, plus the one in service.
 */
#define SLACK(nreaders) (((nreaders) + 3) * 8 * MS)

/*
 * A read is due at its deadline, but expired reads go first at most once
 * per read_expire (as-iosched's limit on the seeks they cost), in FIFO
 * order, and a due read ends any wait. So past its deadline a read waits
 * for the older reads still queued (k), one interval each, and for one
 * interval of its own; an interval is read_expire, the write batches that
 * can start meanwhile (one per read_batch_expire of reading) and two far
 * services (the one on the disk, and the drain of a write batch).
 */
static ek_u64 read_late_limit(const struct th *th, const struct ek_rq *r,
			      ek_s64 rexp, ek_s64 rbatch, ek_s64 wbatch)
{
	ek_u64 interval = (ek_u64)(rexp + (rexp + rbatch - 1) / rbatch * wbatch) *
			  MS + 2 * 8 * MS;
	unsigned int i, k = 0;

	for (i = 0; i < th->pool_used; i++) {
		const struct ek_rq *o = &th->pool[i].rq;

		k += o->dir == EK_READ && o->arrival_ns < r->arrival_ns &&
		     (!o->dispatch_ns || o->dispatch_ns > r->deadline_ns);
	}
	return (k + 1) * interval;
}

static void run(ek_s64 rexp, ek_s64 wexp, ek_s64 rbatch, unsigned int nreaders)
{
	struct th *th = th_new(&ek_anticipatory_policy, 8192);
	struct ah_oneshot shots[NSHOT];
	struct ah_reader r[4];
	struct ah_loop l;
	ek_u64 maxw[2] = { 0, 0 }, lim[2], late = 0;
	unsigned long served[2] = { 0, 0 };
	unsigned int i;

	th_preset(th, "read_expire", rexp);
	th_preset(th, "write_expire", wexp);
	th_preset(th, "read_batch_expire", rbatch);
	th_start(th);
	memset(r, 0, sizeof(r));
	for (i = 0; i < nreaders; i++) {
		r[i].p = ah_pctx_new(th, 1 + i);
		r[i].next = 1000 + i * 40000000ULL;
		r[i].nr = 8;
		r[i].think = 1 * MS;
		r[i].issue_at = i * 100 * US;
	}
	/* far one-off reads every 40 ms and writes every 30 ms */
	for (i = 0; i < NSHOT; i++) {
		ek_u8 dir = i % 2 ? EK_WRITE : EK_READ;

		shots[i] = (struct ah_oneshot){ dir,
			(dir == EK_READ ? 200000000ULL : 300000000ULL) +
			(ek_u64)i * 9973 * 8,
			(ek_u64)(i / 2) * (dir == EK_READ ? 40 : 30) * MS, NULL };
	}
	ah_loop_init(&l, th, r, nreaders, shots, NSHOT);

	ah_run(&l, 1500 * MS);
	for (i = 0; i < NSHOT; i++) {
		struct ek_rq *rq = shots[i].rq;
		ek_u64 w;

		if (!rq)
			continue;
		w = (rq->dispatch_ns ? rq->dispatch_ns : th->now) - rq->arrival_ns;
		if (w > maxw[rq->dir])
			maxw[rq->dir] = w;
		served[rq->dir] += rq->dispatch_ns != 0;
	}
	for (i = 0; i < nreaders; i++)
		if (r[i].max_wait > maxw[EK_READ])
			maxw[EK_READ] = r[i].max_wait;
	/* every read, the readers' and the one-offs', against its own limit */
	for (i = 0; i < th->pool_used; i++) {
		struct ek_rq *rq = &th->pool[i].rq;
		ek_u64 end = rq->dispatch_ns ? rq->dispatch_ns : th->now;

		if (rq->dir != EK_READ || !rq->arrival_ns || end <= rq->deadline_ns)
			continue;
		lim[EK_READ] = read_late_limit(th, rq, rexp, rbatch, 125);
		if (end - rq->deadline_ns > late)
			late = end - rq->deadline_ns;
		TH_CHECK(end - rq->deadline_ns <= lim[EK_READ],
			 "a read was dispatched %.1f ms past its deadline > %.1f",
			 (end - rq->deadline_ns) / 1e6, lim[EK_READ] / 1e6);
	}
	lim[EK_WRITE] = (ek_u64)(wexp + rbatch) * MS + SLACK(nreaders);
	printf("limit write %.0f ms\n", lim[EK_WRITE] / 1e6);
	printf("%u readers, read_expire %lld, write_expire %lld, read_batch_expire %lld: max wait read %.1f ms (%.1f past its deadline), write %.1f ms; served %lu reads %lu writes; ",
	       nreaders, (long long)rexp, (long long)wexp, (long long)rbatch,
	       maxw[0] / 1e6, late / 1e6,
	       maxw[1] / 1e6, served[0], served[1]);
	ah_print_stats(th);
	TH_CHECK(th_stat(th, "antic_hits") >= 30,
		 "hardly anticipating: the test does not test anything");
	TH_CHECK(maxw[EK_WRITE] <= lim[EK_WRITE], "a write waited %.1f ms > %.1f",
		 maxw[EK_WRITE] / 1e6, lim[EK_WRITE] / 1e6);
	/* (unserved ones count with their wait so far in maxw) */
	TH_CHECK(served[EK_READ] >= 20 && served[EK_WRITE] >= 20,
		 "one-off requests starved");
	ah_check_stats(th);
	ah_loop_end(&l);
}

int main(void)
{
	run(125, 250, 500, 1);
	run(125, 250, 500, 2);
	run(125, 250, 100, 2);
	run(50, 80, 60, 2);
	run(20, 500, 500, 3);
	printf("ok\n");
	return 0;
}
