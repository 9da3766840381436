// SPDX-License-Identifier: GPL-2.0
/*
 * One run: set up the host (device + policy) and the workload, then the
 * event loop. Events are thread wake-ups (the workload), device completions
 * and policy timers (the host); after each, the host feeds the device.
 */
#include <stdlib.h>
#include <string.h>
#include "sim_int.h"

static void run_loop(struct sim *s)
{
	const struct sim_config *c = s->cfg;
	struct event e;

	while (heap_pop(&s->heap, &e)) {
		if (e.t > c->time_limit_ns && !s->ended) {
			acct_block_time(s, c->time_limit_ns);
			s->now = c->time_limit_ns;
			s->res->truncated = wl_stop(s);
		}
		if (c->runtime_ns && e.t > c->runtime_ns && !s->stopping && !s->ended) {
			acct_block_time(s, c->runtime_ns);
			s->now = c->runtime_ns;
			wl_runtime_over(s);
		}
		acct_block_time(s, e.t);
		s->now = e.t > s->now ? e.t : s->now;
		s->res->events++;
		switch (e.type) {
		case EV_THREAD:
			wl_thread_run(s, e.p);
			break;
		case EV_DEV:
			host_dev_event(s, e.arg);
			break;
		case EV_TIMER:
			if (!host_timer_current(s, e.arg))
				continue;	/* re-armed or cancelled since */
			break;
		case EV_WBT:
			wbt_timer(s, e.arg);
			break;
		case EV_RQ_END:
			host_rq_end(s, e.p);
			break;
		case EV_REQUEUE:
			host_requeue_work(s, e.p);
			break;
		}
		host_run_queue(s);
	}
}

int sim_run(const struct sim_config *c, struct sim_result *res)
{
	struct sim *s = calloc(1, sizeof(*s));
	int ret = -1;

	if (!s)
		abort();
	memset(res, 0, sizeof(*res));
	s->cfg = c;
	s->res = res;
	s->rng = c->seed * 0x2545F4914F6CDD1DULL + 1;
	s->hops = &sim_block_layer;
	if (!host_setup(s) && !wl_build(s)) {
		run_loop(s);
		host_end_checks(s);
		acct_end_checks(s);
		if (!s->ended)
			sim_violation(s, "run did not finish");
		res->elapsed_ns = s->end_ns;
		/*
		 * fio's writer job is time-based too: its bandwidth is over
		 * its own run, to --runtime or its last write(2) after it,
		 * not over the readers' drain.
		 */
		res->app_write_ns = res->elapsed_ns;
		if (c->runtime_ns && c->runtime_ns < res->elapsed_ns)
			res->app_write_ns = res->app_write_end_ns > c->runtime_ns ?
					    res->app_write_end_ns : c->runtime_ns;
		acct_threads(s);
		acct_counters(s);
		acct_block_end(s);
		ret = 0;
	}
	host_teardown(s);
	wl_free(s);
	heap_free(&s->heap);
	free(s);
	return ret;
}
