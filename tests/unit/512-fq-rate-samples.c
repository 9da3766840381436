/* DESCRIPTION: fair-queue measures the device's rate (seen in a new queue's first budget) only on a synchronous sequential queue's slot that ended on its budget or its time: slow async writeback slots and slots that ended idle or empty leave it as it was, slow sync slots that ended on budget or time lower it */
#include "fq.h"

#define NR 32		/* sectors per request of a probe */

static ek_u32 next_owner = 1;

static void queue_rqs(struct th *th, struct fqt_proc *pr, unsigned n,
		      ek_u32 nr)
{
	while (n--) {
		struct ek_rq *rq = fqt_rq(th, pr, pr->next, nr);

		pr->next += nr;
		pr->outstanding++;
		th_insert(th, rq);
	}
}

/* The next request, svc on the device; whose it is must be pr's. */
static void serve(struct th *th, struct fqt_proc *pr, ek_u64 svc)
{
	struct ek_rq *rq = th_dispatch(th);

	TH_CHECK(rq && fqt_proc_of(rq) == pr, "the wrong process served");
	th_advance(th, svc);
	fqt_done(th, rq);
}

/*
 * pr's requests, svc each, until its slot ends: the first of its next
 * slot (a queue switch, though it is alone) completes at once.
 */
static unsigned serve_slot(struct th *th, struct fqt_proc *pr, ek_u64 svc)
{
	ek_u64 sw = th_stat(th, "queue_switches");
	struct ek_rq *rq;
	unsigned n = 0;

	for (;;) {
		rq = th_dispatch(th);
		TH_CHECK(rq && fqt_proc_of(rq) == pr, "the wrong process served");
		if (th_stat(th, "queue_switches") > sw + 1)
			break;
		th_advance(th, svc);
		fqt_done(th, rq);
		n++;
	}
	fqt_done(th, rq);
	return n;
}

/* pr exits; what it left is served at once (no time passes, no sample). */
static void leave(struct th *th, struct fqt_proc *pr)
{
	struct ek_rq *rq;

	fqt_exit(th, pr);
	while ((rq = th_dispatch(th)))
		fqt_done(th, rq);
	TH_CHECK(!th->queued, "%lu requests left", th->queued);
}

/*
 * A new sequential reader's first budget is the measured rate times the
 * slot (125 ms) over 8: how many sectors it reads before its first slot
 * ends (it is alone: the slot's end is a queue switch). Its slot takes
 * no time, so it measures nothing itself.
 */
static ek_u64 probe(struct th *th)
{
	struct fqt_proc p;
	struct ek_rq *rq;
	ek_u64 sw = th_stat(th, "queue_switches"), sectors = 0;

	fqt_proc_init(th, &p, next_owner++);
	queue_rqs(th, &p, 400, NR);
	for (;;) {
		rq = th_dispatch(th);
		TH_CHECK(rq && fqt_proc_of(rq) == &p, "the probe not served");
		fqt_done(th, rq);
		if (th_stat(th, "queue_switches") > sw + 1)
			break;	/* the first of its second slot */
		sectors += NR;
	}
	TH_CHECK(th_stat(th, "queue_switches") == sw + 2,
		 "%llu queue switches during the probe's first slot",
		 (unsigned long long)(th_stat(th, "queue_switches") - sw));
	leave(th, &p);
	fqt_maybe_free(&p);
	TH_CHECK(!p.p, "the probe's context was not freed");
	return sectors;
}

/* A process of its own, 256-sector requests from far away. */
static void start(struct th *th, struct fqt_proc *pr, int sync)
{
	fqt_proc_init(th, pr, next_owner++);
	pr->next = (ek_u64)next_owner << 24;
	if (!sync) {
		pr->sync = 0;
		pr->dir = EK_WRITE;
	}
}

/*
 * A new process's read, which ends the slot in service (at once, or when
 * its idle wait runs out: then 0), is served at once; the process exits.
 */
static int one_read(struct th *th)
{
	struct fqt_proc x;
	struct ek_rq *rq;
	int at_once = 1;

	start(th, &x, 1);
	queue_rqs(th, &x, 1, 8);
	rq = th_dispatch(th);
	if (!rq) {
		TH_CHECK(th->timer_armed, "nothing dispatched, no timer");
		th_advance_to(th, th->timer_when);
		th->timer_armed = 0;
		rq = th_dispatch(th);
		at_once = 0;
	}
	TH_CHECK(rq && fqt_proc_of(rq) == &x, "the new process's read not served");
	fqt_done(th, rq);
	leave(th, &x);
	TH_CHECK(!x.p, "its context was not freed");
	return at_once;
}

int main(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, FQT_MAX_RQ);
	struct fqt_proc w, r, s, t;
	ek_u64 b0, b1, b2, b2e, b3, b4, sw;
	unsigned i, n;

	th_preset(th, "low_latency", 0);	/* no raise caps the budgets */
	th_start(th);
	b0 = probe(th);

	/*
	 * Writeback: 20 writes of 256 sectors, 10 ms each (25 sectors/ms,
	 * an eighth of the starting rate). The async queue's slots end on
	 * their budget, 5 and 9 writes, 50 and 90 ms: they measure nothing.
	 */
	start(th, &w, 0);
	queue_rqs(th, &w, 20, 256);
	sw = th_stat(th, "queue_switches");
	for (i = 0; i < 20; i++)
		serve(th, &w, 10 * MS);
	TH_CHECK(th_stat(th, "queue_switches") - sw >= 3,
		 "the async queue's slots did not end on their budget");
	leave(th, &w);
	TH_CHECK(one_read(th), "an idle wait for the async queue");
	b1 = probe(th);

	/*
	 * A synchronous reader's slot that ends idle (3 reads, 5 ms each,
	 * then the 8 ms idle wait runs out), and one that ends empty (no
	 * idling at all): both lasted over 2 ms, neither measures the rate.
	 */
	start(th, &r, 1);
	queue_rqs(th, &r, 3, 256);
	for (i = 0; i < 3; i++)
		serve(th, &r, 5 * MS);
	TH_CHECK(!one_read(th), "no idle wait");
	TH_CHECK(th_stat(th, "idle_timeouts") == 1,
		 "%llu idle timeouts, expected the reader's slot to end on one",
		 (unsigned long long)th_stat(th, "idle_timeouts"));
	b2 = probe(th);
	TH_CHECK(th_set(th, "slice_idle_us", 0) == 0, "slice_idle_us 0 refused");
	queue_rqs(th, &r, 3, 256);
	for (i = 0; i < 3; i++)
		serve(th, &r, 5 * MS);
	TH_CHECK(one_read(th), "an idle wait with slice_idle_us 0");
	b2e = probe(th);
	TH_CHECK(th_set(th, "slice_idle_us", 8000) == 0, "slice_idle_us refused");
	leave(th, &r);

	/*
	 * A sequential reader's slot that ends on its budget: 256 sectors
	 * per 5 ms (51 sectors/ms), a measure; the rate falls, and with it
	 * the next queue's budget.
	 */
	start(th, &s, 1);
	queue_rqs(th, &s, 40, 256);
	n = serve_slot(th, &s, 5 * MS);
	TH_CHECK(n * 5 * MS < 125 * MS, "its slot ended on its time, not budget");
	leave(th, &s);
	b3 = probe(th);

	/* One that ends on its time (125 ms): 256 sectors per 50 ms. */
	start(th, &t, 1);
	queue_rqs(th, &t, 10, 256);
	n = serve_slot(th, &t, 50 * MS);
	TH_CHECK(n * 256 + NR <= b3, "its slot ended on its budget, not time");
	leave(th, &t);
	b4 = probe(th);

	printf("a new queue's first budget, sectors: %llu at the start, %llu after writeback slots, %llu after a slot that ended idle, %llu after one that ended empty, %llu after a sync slot that ended on its budget, %llu after one that ended on its time\n",
	       (unsigned long long)b0, (unsigned long long)b1,
	       (unsigned long long)b2, (unsigned long long)b2e,
	       (unsigned long long)b3, (unsigned long long)b4);
	TH_CHECK(b1 == b0,
		 "async writeback slots changed the measured rate: first budget %llu, was %llu",
		 (unsigned long long)b1, (unsigned long long)b0);
	TH_CHECK(b2 == b0,
		 "a slot that ended idle changed the measured rate: first budget %llu, was %llu",
		 (unsigned long long)b2, (unsigned long long)b0);
	TH_CHECK(b2e == b0,
		 "a slot that ended empty changed the measured rate: first budget %llu, was %llu",
		 (unsigned long long)b2e, (unsigned long long)b0);
	TH_CHECK(b3 < b0 * 9 / 10,
		 "a slow sync slot that ended on its budget did not lower the measured rate: first budget %llu, was %llu",
		 (unsigned long long)b3, (unsigned long long)b0);
	TH_CHECK(b4 < b3 * 9 / 10,
		 "a slow sync slot that ended on its time did not lower the measured rate: first budget %llu, was %llu",
		 (unsigned long long)b4, (unsigned long long)b3);
	th_finish(th);
	printf("ok\n");
	return 0;
}
