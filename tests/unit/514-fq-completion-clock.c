/* DESCRIPTION: fair-queue: a synchronous read's completion time (the host's stamp, else read from its clock) starts the idle window, so a reader whose slot began long ago still gets its slice_idle wait; async and flush completions, and stamped ones, do not read the clock at all */
#include "fq.h"

/* rq (dispatched) completes now: how many times the policy read the clock */
static unsigned long done_reads(struct th *th, struct ek_rq *rq)
{
	unsigned long before = th->now_reads;

	fqt_done(th, rq);
	return th->now_reads - before;
}

int main(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, 64);
	struct fqt_proc pr[3];
	struct fqt_proc *a = &pr[0], *b = &pr[1], *w = &pr[2];
	struct ek_rq *rq;
	unsigned long reads, a_reads = 0, sync_done = 0, other_done = 0;
	ek_u64 t_done, hits;
	int i;

	th_preset(th, "low_latency", 0);
	th_preset(th, "slice_idle_us", 8000);
	th_start(th);
	th->unstamped = 1;	/* a host without the completion's time */
	fqt_proc_init(th, a, 1);
	fqt_proc_init(th, b, 2);
	fqt_proc_init(th, w, 3);
	w->sync = 0;
	w->dir = EK_WRITE;

	/*
	 * A reads sequentially, 5 ms a read, B's read waits: A's slot runs
	 * 20 ms, more than slice_idle (8 ms) past its start.
	 */
	for (i = 0; i < 4; i++) {
		rq = fqt_read_at(th, a, 1000 + 8 * (ek_u64)i);
		if (!i)
			fqt_read_at(th, b, 1 << 24);
		th_expect(th, rq, "A's next read");
		th_advance(th, 5 * MS);
		a_reads += done_reads(th, rq);
	}
	t_done = th->now;

	/* The idle window starts at the completion, not at the slot's start. */
	TH_CHECK(!th_dispatch(th),
		 "B's read dispatched at once after A's read completed at %llu ms: no idle wait for A",
		 (unsigned long long)(t_done / MS));
	TH_CHECK(th->timer_armed, "idle wait without a timer");
	TH_CHECK(th->timer_when == t_done + 8 * MS,
		 "idle wait until %llu ns, expected the completion (%llu) + slice_idle (8 ms)",
		 (unsigned long long)th->timer_when,
		 (unsigned long long)t_done);

	/* 6 ms after the completion (26 ms into the slot) A reads again. */
	th_advance(th, 6 * MS);
	hits = th_stat(th, "idle_hits");
	rq = fqt_read_at(th, a, 1032);
	TH_CHECK(th_stat(th, "idle_hits") == hits + 1, "A's read was no idle hit");
	th_expect(th, rq, "A's read, 6 ms into the idle window");
	th_advance(th, 5 * MS);
	a_reads += done_reads(th, rq);
	printf("idle window from A's completion at %llu ms to %llu ms; A's read 6 ms after it served first\n",
	       (unsigned long long)(t_done / MS),
	       (unsigned long long)((t_done + 8 * MS) / MS));
	TH_CHECK(a_reads == 5,
		 "A's 5 read completions read the clock %lu times, not once each",
		 a_reads);

	/* A host handing the completion's stamp (the kernel's) reads no clock. */
	th->unstamped = 0;
	rq = fqt_read_at(th, a, 1036);
	th_expect(th, rq, "A's read after its last");
	th_advance(th, 5 * MS);
	t_done = th->now;
	TH_CHECK(done_reads(th, rq) == 0, "a stamped completion read the clock");
	TH_CHECK(!th_dispatch(th) && th->timer_when == t_done + 8 * MS,
		 "after a stamped completion, the idle wait is not until the stamp + slice_idle");
	th->unstamped = 1;

	/*
	 * An asynchronous write and a flush: their completions start no
	 * think time, so they need no clock (a clock read costs a tenth of
	 * a request in the kernel). A synchronous read needs it once.
	 */
	fqt_read_at(th, a, 1040);
	rq = fqt_rq(th, w, 1 << 26, 256);
	w->outstanding++;
	th_insert(th, rq);
	rq = fqt_rq(th, a, 0, 0);
	rq->kind = EK_KIND_FLUSH;
	rq->dir = EK_WRITE;
	TH_CHECK(rq->sync, "the flush is not marked synchronous");
	a->outstanding++;
	th_insert(th, rq);
	for (i = 0; i < 3; i++)
		fqt_exit(th, &pr[i]);
	while ((rq = th_dispatch(th))) {
		int sync_read = rq->sync && rq->kind == EK_KIND_NORMAL;
		const char *what = rq->kind == EK_KIND_FLUSH ? "a flush" :
				   !rq->sync ? "an async write" :
				   "a sync read";

		th_advance(th, MS);
		reads = done_reads(th, rq);
		TH_CHECK(reads == (sync_read ? 1u : 0u),
			 "%s completing read the clock %lu times, expected %u",
			 what, reads, sync_read ? 1u : 0u);
		if (sync_read)
			sync_done++;
		else
			other_done++;
	}
	TH_CHECK(sync_done == 2 && other_done == 2,
		 "%lu sync reads and %lu others completed, expected 2 and 2",
		 sync_done, other_done);
	printf("%lu sync read completions read the clock once each, an async write and a flush not at all\n",
	       sync_done);
	fqt_finish(th, pr, 3);
	printf("ok\n");
	return 0;
}
