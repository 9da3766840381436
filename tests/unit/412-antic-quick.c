/* DESCRIPTION: anticipatory with anticipation off (non-rotational, or antic_expire 0): has_work answers as dispatch does through drains and batch ends, and a completion that ends a drain, taken without the host's lock, gets the queue run */
#include "antic.h"

#define NPROC 4
#define DEPTH 6
#define STEPS 40000

static struct ek_rq *flight[DEPTH];
static ek_u64 flight_done[DEPTH];

static int restart;

/*
 * The queue runs as blk-mq runs it: after an insert, on a kick, when the
 * timer fires, and on a completion only if the last run stopped at a full
 * device (SCHED_RESTART); not because the policy found nothing. A
 * dispatch that disagrees with has_work fails in th_dispatch().
 */
static void run_queue(struct th *th, ek_u64 *seed)
{
	unsigned int i;
	struct ek_rq *rq;

	restart = 0;
	for (i = 0; i < DEPTH; i++)
		if (!flight[i]) {
			rq = th_dispatch(th);
			if (!rq)
				return;
			flight[i] = rq;
			flight_done[i] = th->now + 50 * US +
					 ek_rand_below(seed, 2 * MS);
		}
	restart = 1;
}

static void run(ek_u64 seed0, int rotational)
{
	ek_u64 seed = seed0;
	struct th *th = th_new(&ek_anticipatory_policy, STEPS * 2);
	struct ek_pctx *p[NPROC];
	unsigned long kicks, drains = 0;
	unsigned int i, step, busy;
	struct ek_rq *rq;
	ek_u64 r;

	th->host.dev.rotational = (ek_u8)rotational;
	th->host.dev.queue_depth = DEPTH;
	if (rotational)
		th_preset(th, "antic_expire", 0);
	/* short batches, so that they end while requests are in flight */
	th_preset(th, "read_batch_expire", 3);
	th_preset(th, "write_batch_expire", 2);
	th_start(th);
	for (i = 0; i < NPROC; i++)
		p[i] = ah_pctx_new(th, i + 1);
	memset(flight, 0, sizeof(flight));
	restart = 0;

	for (step = 0; step < STEPS; step++) {
		r = ek_rand_below(&seed, 100);
		if (r < 25) {
			ah_read(th, p[ek_rand_below(&seed, NPROC)],
				ek_rand_below(&seed, 1 << 20) * 8, 8);
			run_queue(th, &seed);
		} else if (r < 40) {
			ah_write(th, p[ek_rand_below(&seed, NPROC)],
				 ek_rand_below(&seed, 1 << 20) * 8, 8);
			run_queue(th, &seed);
		} else if (r < 41) {
			rq = th_rq_new(th, EK_WRITE, 0, 0);
			rq->kind = EK_KIND_FLUSH;
			th_insert(th, rq);
			run_queue(th, &seed);
		} else {
			th_advance(th, ek_rand_below(&seed, 400 * US));
			for (i = 0; i < DEPTH; i++) {
				if (!flight[i] || flight_done[i] > th->now)
					continue;
				kicks = th->kicks;
				th_complete(th, flight[i]);
				flight[i] = NULL;
				if (th->kicks != kicks)
					drains++;
				if (th->kicks != kicks || restart)
					run_queue(th, &seed);
			}
		}
		TH_CHECK(!th->timer_armed, "a timer without anticipation");
		for (i = 0, busy = 0; i < DEPTH; i++)
			busy += flight[i] != NULL;
		TH_CHECK(busy || !th->queued,
			 "seed %llu step %u: %lu queued, device idle, no kick",
			 (unsigned long long)seed0, step, th->queued);
	}
	for (i = 0; i < DEPTH; i++)
		if (flight[i])
			th_complete(th, flight[i]);
	th_drain(th);
	TH_CHECK(th_stat(th, "antic_started") == 0, "waited");
	TH_CHECK(drains > 100, "only %lu drains ended: the test misses its point",
		 drains);
	/* no contexts without anticipation: all but none take the quick way */
	TH_CHECK(th->completed_unlocked == th->completed,
		 "%lu of %lu completions took the lock",
		 th->completed - th->completed_unlocked, th->completed);
	printf("seed %llu rot %d: %lu dispatched, %lu drains ended by a completion\n",
	       (unsigned long long)seed0, rotational, th->dispatched, drains);
	th_finish(th);
	for (i = 0; i < NPROC; i++)
		free(p[i]);
}

int main(void)
{
	ek_u64 seed;

	for (seed = 1; seed <= 4; seed++) {
		run(seed, 0);
		run(seed, 1);
	}
	printf("ok\n");
	return 0;
}
