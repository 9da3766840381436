/* DESCRIPTION: anticipatory: a wait arms the host's timer once per wake time: other processes' far reads, other completions, a tunable write and has_work calls during it do not re-arm it, and a wait with nothing to wake for arms none */
#include "antic.h"

/* The timer was armed `arms` times in all, the last for `when`. */
#define ARMED(th, arms, when, what)					\
	TH_CHECK((th)->timer_arms == (arms) && (th)->timer_armed &&	\
		 (th)->timer_when == (when),				\
		 "%s: timer armed %lu times (want %d), %s at %llu (want %llu)",\
		 (what), (th)->timer_arms, (arms),			\
		 (th)->timer_armed ? "armed" : "not armed",		\
		 (unsigned long long)(th)->timer_when,			\
		 (unsigned long long)(when))

/*
 * A wait for P whose wake time is first the far read's deadline (P's read
 * on the device), then P's window's end: two arms, whatever else happens.
 */
static void unrelated_events(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 32);
	struct ek_pctx *p, *q, *r, *s;
	struct ek_rq *x, *a, *qr, *rr, *sr;
	ek_u64 due, end;

	th_start(th);
	p = ah_pctx_new(th, 1);
	q = ah_pctx_new(th, 2);
	r = ah_pctx_new(th, 3);
	s = ah_pctx_new(th, 4);

	/* A read of nobody's, then P's, both on the device. */
	x = ah_read(th, NULL, 3000, 8);
	th_expect(th, x, "the read without a context");
	a = ah_read(th, p, 1000, 8);
	th_expect(th, a, "P's read");
	TH_CHECK(th->timer_arms == 0, "timer armed with nothing queued");

	/* Q's far read: a wait for P, until Q's read is due. */
	th_advance(th, 100 * US);
	qr = ah_read(th, q, 50000000, 8);
	TH_CHECK(!th_dispatch(th) && th_stat(th, "antic_started") == 1,
		 "no wait for P");
	due = qr->arrival_ns + 125 * MS;
	ARMED(th, 1, due, "the wait started");

	th_advance(th, 200 * US);
	th_complete(th, x);
	ARMED(th, 1, due, "the other read completed");
	th_advance(th, 100 * US);
	rr = ah_read(th, r, 60000000, 8);
	ARMED(th, 1, due, "R's far read arrived");
	TH_CHECK(!th_dispatch(th), "R's far read ended the wait");
	ARMED(th, 1, due, "has_work asked");

	/* P's completion opens its window: the one new wake time. */
	th_advance(th, 600 * US);
	th_complete(th, a);
	end = th->now + 6 * MS;
	ARMED(th, 2, end, "P's read completed");

	th_advance(th, 1 * MS);
	sr = ah_read(th, s, 70000000, 8);
	ARMED(th, 2, end, "S's far read arrived");
	th_advance(th, 1 * MS);
	TH_CHECK(th_set(th, "write_expire", 300) == 0, "set refused");
	ARMED(th, 2, end, "write_expire written");
	th_advance(th, 1 * MS);
	TH_CHECK(!th_dispatch(th), "the wait ended early");
	ARMED(th, 2, end, "has_work asked");
	TH_CHECK(th->timer_cancels == 0, "timer cancelled %lu times",
		 th->timer_cancels);

	/* The timer fires: Q's read (first up from P's end) goes. */
	ah_fire(th);
	th_expect(th, qr, "Q's read at the timeout");
	TH_CHECK(th_stat(th, "antic_timeouts") == 1 &&
		 th_stat(th, "antic_started") == 2,
		 "antic_timeouts %llu, antic_started %llu, want 1 and 2 (a wait for Q)",
		 (unsigned long long)th_stat(th, "antic_timeouts"),
		 (unsigned long long)th_stat(th, "antic_started"));
	/* The wait for Q, behind its read: R's read is due first. */
	ARMED(th, 3, rr->arrival_ns + 125 * MS, "the wait for Q started");
	th_advance(th, 8 * MS);
	th_complete(th, qr);
	end = th->now + 6 * MS;
	ARMED(th, 4, end, "Q's read completed");
	ah_fire(th);
	th_expect(th, rr, "R's read at the timeout");
	th_complete(th, rr);
	th_advance_to(th, th->timer_armed ? th->timer_when : th->now);
	th->timer_armed = 0;	/* fired */
	th_expect(th, sr, "S's read");
	th_complete(th, sr);
	ah_check_stats(th);
	ah_print_stats(th);
	printf("timer armed %lu times, cancelled %lu\n", th->timer_arms,
	       th->timer_cancels);
	ah_pctx_exit(th, q);
	ah_pctx_exit(th, r);
	ah_pctx_exit(th, s);
	ah_end(th, p);
	free(q);
	free(r);
	free(s);
}

/*
 * The wait for P goes on (P's read on the device) after the far read that
 * gave a reason to wait is absorbed: nothing can end it but P's read, and
 * no timer is armed for it (the one armed earlier may stay).
 */
static void nothing_due(void)
{
	struct th *th = th_new(&ek_anticipatory_policy, 16);
	struct ek_pctx *p, *q;
	struct ek_rq *a, *qr;
	ek_u64 end;

	th_start(th);
	p = ah_pctx_new(th, 1);
	q = ah_pctx_new(th, 2);
	a = ah_read(th, p, 1000, 8);
	th_expect(th, a, "P's read");
	th_advance(th, 100 * US);
	qr = ah_read(th, q, 50000000, 8);
	TH_CHECK(!th_dispatch(th) && th_stat(th, "antic_started") == 1,
		 "no wait for P");
	ARMED(th, 1, qr->arrival_ns + 125 * MS, "the wait started");

	/* Q's read is absorbed by a request the host cannot name. */
	th_advance(th, 100 * US);
	th_merge_requests(th, qr, qr);
	TH_CHECK(!th_dispatch(th), "dispatch with nothing queued");
	TH_CHECK(th->timer_arms == 1 && th->timer_when != EK_U64_MAX,
		 "nothing to wake for: timer armed %lu times, at %llu",
		 th->timer_arms, (unsigned long long)th->timer_when);

	th_advance(th, 800 * US);
	th_complete(th, a);
	end = th->now + 6 * MS;
	ARMED(th, 2, end, "P's read completed");
	ah_fire(th);
	TH_CHECK(!th_dispatch(th), "dispatch with nothing queued");
	TH_CHECK(th_stat(th, "antic_timeouts") == 1, "antic_timeouts %llu",
		 (unsigned long long)th_stat(th, "antic_timeouts"));
	ah_check_stats(th);
	printf("a wait with nothing to wake for: timer armed %lu times\n",
	       th->timer_arms);
	ah_pctx_exit(th, q);
	ah_end(th, p);
	free(q);
}

int main(void)
{
	unrelated_events();
	nothing_due();
	printf("ok\n");
	return 0;
}
