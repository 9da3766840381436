/* DESCRIPTION: anticipatory: once the read batch has run read_batch_expire, a queued write is not held back for the last reader: no wait starts, whether the reader's read is on the device or its think time has begun; the write goes as soon as the device is free */
#include "antic.h"

/* read_batch_expire, lowered from 500 ms so that the times stay small */
#define RBE 2

static struct th *setup(struct ek_pctx **p, struct ek_rq **a)
{
	struct th *th = th_new(&ek_anticipatory_policy, 16);

	th_preset(th, "read_batch_expire", RBE);
	th_start(th);
	*p = ah_pctx_new(th, 1);
	/* P's read at 0 starts the read batch; nothing else is queued. */
	*a = ah_read(th, *p, 1000, 8);
	th_expect(th, *a, "P's read");
	TH_CHECK(!th->timer_armed, "a timer with nothing queued");
	return th;
}

static void no_wait(struct th *th, const char *when)
{
	TH_CHECK(th_stat(th, "antic_started") == 0,
		 "%s: a wait for P started with the read batch over and a write queued",
		 when);
	TH_CHECK(th->timer_arms == 0, "%s: timer armed at %llu", when,
		 (unsigned long long)th->timer_when);
}

/* The write arrives after the batch's time, P's read still on the device. */
static void on_device(void)
{
	struct ek_pctx *p;
	struct ek_rq *a, *w;
	struct th *th = setup(&p, &a);

	th_advance(th, (RBE + 1) * MS);
	w = ah_write(th, NULL, 5000000, 8);
	TH_CHECK(!th_dispatch(th), "the write passed P's read on the device");
	no_wait(th, "write queued behind P's read");
	/* P's read is slow (a seek): when it completes, the write goes. */
	th_advance(th, 5 * MS);
	th_complete(th, a);
	no_wait(th, "P's read completed");
	th_expect(th, w, "the write at P's completion");
	th_complete(th, w);
	ah_check_stats(th);
	ah_end(th, p);
	printf("write queued at %d ms behind P's read: no wait, the write at P's completion\n",
	       RBE + 1);
}

/*
 * P's read completes at 1 ms; the write arrives write_at after the batch
 * started, in P's window (which runs to 7 ms). With batch time left, the
 * wait for P runs to the batch's end; after it, there is no wait.
 */
static void in_window(ek_u64 write_at)
{
	struct ek_pctx *p;
	struct ek_rq *a, *w;
	struct th *th = setup(&p, &a);

	th_advance(th, 1 * MS);
	th_complete(th, a);
	th_advance_to(th, write_at);
	w = ah_write(th, NULL, 5000000, 8);
	if (write_at < RBE * MS) {
		TH_CHECK(!th_dispatch(th) &&
			 th_stat(th, "antic_started") == 1,
			 "no wait for P with %llu us of the read batch left",
			 (unsigned long long)((RBE * MS - write_at) / US));
		ah_expect_timer(th, RBE * MS, "the read batch's end");
		ah_fire(th);
		th_expect(th, w, "the write at the batch's end");
		TH_CHECK(th_stat(th, "antic_aborted") == 1,
			 "antic_aborted %llu, want 1",
			 (unsigned long long)th_stat(th, "antic_aborted"));
	} else {
		/* P's window is open, but the batch is over: the write now. */
		th_expect(th, w, "the write at once, the read batch over");
		no_wait(th, "write queued in P's window");
	}
	th_complete(th, w);
	ah_check_stats(th);
	ah_end(th, p);
	printf("write queued at %llu us in P's window: %s\n",
	       (unsigned long long)(write_at / US),
	       write_at < RBE * MS ? "waited for P to the batch's end" :
	       "no wait, the write at once");
}

int main(void)
{
	on_device();
	in_window(1500 * US);
	in_window((RBE + 1) * MS);
	printf("ok\n");
	return 0;
}
