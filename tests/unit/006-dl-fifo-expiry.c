/* DESCRIPTION: deadline-read: a request the sweep would starve is served by read/write_expire plus one batch */
#include "testhost.h"

#define MS EK_NSEC_PER_MSEC
#define SVC (1 * MS)		/* simulated service time per request */
#define LONELY 99		/* owner of the request under test */

/*
 * A device of queue depth 1 serving each request in SVC. Each stream
 * keeps `depth` sequential requests outstanding just ahead of the sweep,
 * so sector order alone would never come back to the lonely request at a
 * low sector: only its deadline can get it out.
 */
struct stream {
	ek_u8 dir;
	ek_u64 next;
};

static void stream_issue(struct th *th, struct stream *s, unsigned int id)
{
	struct ek_rq *rq = th_add(th, s->dir, s->next, 8);

	rq->owner = id;
	s->next += 8;
}

/* Returns the lonely request's wait (dispatch - arrival). */
static ek_u64 run(const char *desc, ek_s64 expire_ms, ek_s64 fb, ek_u8 lonely_dir,
		  struct stream *streams, unsigned int nr_streams,
		  unsigned int batches)
{
	struct th *th = th_new(&ek_deadline_read_policy, 100000);
	struct ek_rq *busy = NULL, *lonely = NULL, *rq;
	ek_u64 done_at = 0, wait, limit;
	unsigned int i, j;

	th_preset(th, lonely_dir == EK_READ ? "read_expire" : "write_expire",
		  expire_ms);
	th_preset(th, "fifo_batch", fb);
	th_start(th);
	for (i = 0; i < nr_streams; i++)
		for (j = 0; j < 4; j++)
			stream_issue(th, &streams[i], i);

	while (th->now < 10000 * MS) {
		if (!lonely && th->now >= 10 * MS) {
			lonely = th_add(th, lonely_dir, 100, 8);
			lonely->owner = LONELY;
		}
		if (!busy && (rq = th_dispatch(th))) {
			busy = rq;
			done_at = th->now + SVC;
			if (rq->owner == LONELY)
				break;
		}
		TH_CHECK(busy, "device idle with streams running");
		th_advance_to(th, done_at);
		th_complete(th, busy);
		if (busy->owner != LONELY)
			stream_issue(th, &streams[busy->owner], busy->owner);
		busy = NULL;
	}
	TH_CHECK(lonely && lonely->dispatch_ns, "%s: lonely request starved",
		 desc);
	wait = lonely->dispatch_ns - lonely->arrival_ns;
	/*
	 * Its deadline, then the batches that may come first (the one under
	 * way; with both directions busy also one of the other direction),
	 * then the request in service.
	 */
	limit = (ek_u64)expire_ms * MS + ((ek_u64)batches * fb + 1) * SVC;
	TH_CHECK(wait <= limit, "%s: waited %llu ns, limit %llu ns", desc,
		 (unsigned long long)wait, (unsigned long long)limit);
	/* The stream really was in the way: the deadline did the rescue. */
	TH_CHECK(wait >= (ek_u64)expire_ms * MS,
		 "%s: served after %llu ns, before its deadline: scenario broken",
		 desc, (unsigned long long)wait);
	TH_CHECK(th_stat(th, "expired_batches") >= 1,
		 "%s: no expired batch counted", desc);
	if (busy)
		th_complete(th, busy);
	th_drain(th);
	th_finish(th);
	printf("%s: waited %.1f ms (deadline %lld ms, limit %.1f ms)\n", desc,
	       wait / 1e6, (long long)expire_ms, limit / 1e6);
	return wait;
}

int main(void)
{
	struct stream s[2];

	s[0] = (struct stream){ EK_READ, 1000000 };
	run("read, default read_expire", 125, 16, EK_READ, s, 1, 1);
	s[0] = (struct stream){ EK_READ, 1000000 };
	run("read, read_expire 20 ms, fifo_batch 4", 20, 4, EK_READ, s, 1, 1);
	s[0] = (struct stream){ EK_READ, 1000000 };
	run("read, read_expire 0", 0, 16, EK_READ, s, 1, 1);

	/* Reads and writes both streaming: a write batch may come first. */
	s[0] = (struct stream){ EK_READ, 1000000 };
	s[1] = (struct stream){ EK_WRITE, 5000000 };
	run("read among reads and writes", 125, 16, EK_READ, s, 2, 2);
	s[0] = (struct stream){ EK_READ, 1000000 };
	s[1] = (struct stream){ EK_WRITE, 5000000 };
	run("read among reads and writes, fifo_batch 8", 50, 8, EK_READ, s, 2,
	    2);

	s[0] = (struct stream){ EK_WRITE, 1000000 };
	run("write, default write_expire", 5000, 16, EK_WRITE, s, 1, 1);
	s[0] = (struct stream){ EK_WRITE, 1000000 };
	run("write, write_expire 300 ms, fifo_batch 64", 300, 64, EK_WRITE,
	    s, 1, 1);
	printf("ok\n");
	return 0;
}
