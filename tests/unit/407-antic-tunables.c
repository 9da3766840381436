/* DESCRIPTION: anticipatory: tunable names, defaults and ranges; antic_expire 0 and non-rotational devices turn waiting off unless antic_nonrot, and only then is a tick's time enough (host tick_time) */
#include "antic.h"

/*
 * A new process P reads, a far read queues, P's read completes: did the
 * policy wait? (A new process each time: one that came back after 50 ms
 * would have a think time too long to wait for.)
 */
static int waits(struct th *th, ek_u64 base)
{
	struct ek_pctx *p = ah_pctx_new(th, (ek_u32)base);
	struct ek_rq *a = ah_read(th, p, base, 8), *far, *rq;
	int waited;

	TH_CHECK(th_dispatch(th) == a, "P's read not dispatched");
	far = ah_read(th, NULL, base + 50000000, 8);
	th_advance(th, 1 * MS);
	th_complete(th, a);
	rq = th_dispatch(th);
	waited = !rq;
	if (waited) {
		TH_CHECK(th->timer_armed, "waiting without a timer");
		ah_fire(th);
		rq = th_dispatch(th);
	}
	TH_CHECK(rq == far, "far read not dispatched");
	th_complete(th, rq);
	ah_pctx_exit(th, p);
	free(p);
	th_advance(th, 50 * MS);
	return waited;
}

int main(void)
{
	static const struct { const char *name; ek_s64 def, min, max; } want[] = {
		{ "antic_expire", 6, 0, 1000 },
		{ "read_expire", 125, 1, 60000 },
		{ "write_expire", 250, 1, 60000 },
		{ "read_batch_expire", 500, 0, 60000 },
		{ "write_batch_expire", 125, 0, 60000 },
		{ "antic_nonrot", 0, 0, 1 },
		{ "async_depth", 0, 0, 65536 },
	};
	static const char *const stats[] = {
		"antic_started", "antic_hits", "antic_timeouts", "antic_aborted",
		"dispatched_reads", "dispatched_writes",
	};
	const struct ek_policy *pol = &ek_anticipatory_policy;
	struct th *th;
	struct ek_pctx *p;
	struct ek_rq *a, *far;
	unsigned long kicks;
	unsigned int i;

	TH_CHECK(pol->nr_tunables == 7 && pol->nr_counters == 6,
		 "%u tunables, %u counters", pol->nr_tunables, pol->nr_counters);
	for (i = 0; i < 7; i++) {
		const struct ek_tunable *t = &pol->tunables[i];

		TH_CHECK(!strcmp(t->name, want[i].name) && t->def == want[i].def &&
			 t->min == want[i].min && t->max == want[i].max &&
			 !t->flags,
			 "tunable %u: %s %lld [%lld, %lld]", i, t->name,
			 (long long)t->def, (long long)t->min, (long long)t->max);
	}
	for (i = 0; i < 6; i++)
		TH_CHECK(!strcmp(pol->counters[i].name, stats[i]),
			 "counter %u is %s", i, pol->counters[i].name);
	TH_CHECK(!strcmp(pol->name, "anticipatory") && pol->pctx_size > 0,
		 "name or pctx_size");

	/* Rotational: waits by default; antic_expire 0 turns it off. */
	th = th_new(pol, 64);
	th_start(th);
	p = ah_pctx_new(th, 1);
	TH_CHECK(th_set(th, "antic_expire", 1001) < 0 &&
		 th_set(th, "antic_expire", -1) < 0 &&
		 th_set(th, "read_expire", 0) < 0 &&
		 th_set(th, "antic_nonrot", 2) < 0 &&
		 th_set(th, "antic_hits", 0) < 0, "bad value accepted");
	TH_CHECK(waits(th, 1000), "no wait on a rotational disk");
	TH_CHECK(!th->host.tick_time, "tick_time while waits are on");
	TH_CHECK(th_set(th, "antic_expire", 0) == 0, "set refused");
	TH_CHECK(th->host.tick_time, "no tick_time with antic_expire 0");
	TH_CHECK(!waits(th, 2000), "waited with antic_expire 0");
	TH_CHECK(th_set(th, "antic_expire", 6) == 0, "set refused");
	TH_CHECK(!th->host.tick_time, "tick_time after antic_expire back to 6");
	TH_CHECK(waits(th, 3000), "no wait after antic_expire back to 6");

	/* Tunables changed during a wait: the timer moves, or the wait ends. */
	a = ah_read(th, p, 4000, 8);
	TH_CHECK(th_dispatch(th) == a, "P's read not dispatched");
	far = ah_read(th, NULL, 90000000, 8);
	th_advance(th, 1 * MS);
	th_complete(th, a);
	TH_CHECK(!th_dispatch(th) && th->timer_when == th->now + 6 * MS,
		 "not waiting 6 ms");
	TH_CHECK(th_set(th, "antic_expire", 20) == 0, "set refused");
	ah_expect_timer(th, th->now + 20 * MS, "the completion + 20 ms");
	th_advance(th, 10 * MS);
	TH_CHECK(!th_dispatch(th), "wait did not grow to 20 ms");
	kicks = th->kicks;
	TH_CHECK(th_set(th, "antic_expire", 0) == 0, "set refused");
	TH_CHECK(th->kicks > kicks && !th->timer_armed,
		 "switching off during a wait: no kick or timer left");
	TH_CHECK(th_stat(th, "antic_aborted") == 1, "abort not counted");
	TH_CHECK(th_dispatch(th) == far, "far read not dispatched");
	th_complete(th, far);
	ah_check_stats(th);
	th_finish(th);
	free(p);

	/* Non-rotational: no waits unless antic_nonrot. */
	th = th_new(pol, 64);
	th->host.dev.rotational = 0;
	th_start(th);
	p = ah_pctx_new(th, 1);
	TH_CHECK(th->host.tick_time, "no tick_time on a non-rotational device");
	TH_CHECK(!waits(th, 1000), "waited on a non-rotational device");
	TH_CHECK(th_set(th, "antic_nonrot", 1) == 0, "set refused");
	TH_CHECK(!th->host.tick_time, "tick_time with antic_nonrot 1");
	TH_CHECK(waits(th, 2000), "no wait with antic_nonrot 1");
	TH_CHECK(th_set(th, "antic_nonrot", 0) == 0, "set refused");
	TH_CHECK(th->host.tick_time, "no tick_time after antic_nonrot 0");
	TH_CHECK(!waits(th, 3000), "waited after antic_nonrot 0");
	th_finish(th);
	free(p);

	th = th_new(pol, 64);
	th->host.dev.rotational = 0;
	th_preset(th, "antic_nonrot", 1);
	th_start(th);
	p = ah_pctx_new(th, 1);
	TH_CHECK(waits(th, 1000), "no wait with antic_nonrot preset");
	th_finish(th);
	free(p);
	printf("ok\n");
	return 0;
}
