/* DESCRIPTION: fair-queue: a process returning after 2 s is raised only if it did no I/O for 2 s; not when the disk held its read that long, nor while a read of it is still on the disk */
#include "fq.h"

#define S (1000 * MS)

/*
 * B (class IDLE: never raised) reads once: A's slot, with nothing queued
 * and no idling (slice_idle_us 0), ends, so that A's next read makes it
 * busy again, when the raise is decided.
 */
static void end_a_slot(struct th *th, struct fqt_proc *b)
{
	struct ek_rq *rq = fqt_read_at(th, b, 1ull << 30);

	TH_CHECK(th_dispatch(th) == rq, "B's read not next");
	th_advance(th, MS);
	fqt_done(th, rq);
}

/*
 * A's read at sector, dispatched at once; 20 ms on its slot ends; the
 * read completes hold_ns after its dispatch, or then if that is later.
 */
static void read_held(struct th *th, struct fqt_proc *a, struct fqt_proc *b,
		      ek_u64 sector, ek_u64 hold_ns)
{
	struct ek_rq *rq = fqt_read_at(th, a, sector);
	ek_u64 t0 = th->now;

	TH_CHECK(th_dispatch(th) == rq, "A's read at %llu not dispatched",
		 (unsigned long long)sector);
	th_advance(th, 20 * MS);
	end_a_slot(th, b);
	if (t0 + hold_ns > th->now)
		th_advance_to(th, t0 + hold_ns);
	fqt_done(th, rq);
}

static ek_u64 raises(struct th *th)
{
	return th_stat(th, "raises");
}

int main(void)
{
	struct th *th = th_new(&ek_fair_queue_policy, 64);
	struct fqt_proc pr[2];
	struct fqt_proc *a = &pr[0], *b = &pr[1];
	struct ek_rq *r1, *r2;

	th_preset(th, "slice_idle_us", 0);
	th_start(th);
	fqt_proc_init(th, a, 1);
	fqt_proc_init(th, b, 2);
	b->cls = EK_PRIO_IDLE;

	/* New: raised. At 9 s a slot ends after its raise's 8 s: over. */
	read_held(th, a, b, 0, MS);
	TH_CHECK(raises(th) == 1, "a new process not raised");
	th_advance_to(th, 9 * S);
	read_held(th, a, b, 1 << 10, MS);
	TH_CHECK(raises(th) == 1, "raised again while raised");

	/* The disk holds its next read 3 s: A waited, it was not idle. */
	th_advance(th, 30 * MS);
	read_held(th, a, b, 1 << 20, 3 * S);
	th_advance(th, MS);
	read_held(th, a, b, 2 << 20, MS);
	printf("back 1 ms after a read the disk held 3 s: raises %llu\n",
	       (unsigned long long)raises(th));
	TH_CHECK(raises(th) == 1, "raised for the time the disk held its read");

	/* A read on the disk 3 s, and A asks again: not idle either. */
	th_advance(th, 30 * MS);
	r1 = fqt_read_at(th, a, 3 << 20);
	TH_CHECK(th_dispatch(th) == r1, "A's read not dispatched");
	th_advance(th, 20 * MS);
	end_a_slot(th, b);
	th_advance(th, 3 * S);
	r2 = fqt_read_at(th, a, 4 << 20);
	printf("a read 3 s on the disk, another comes: raises %llu\n",
	       (unsigned long long)raises(th));
	TH_CHECK(raises(th) == 1, "raised with a read still on the disk");
	TH_CHECK(th_dispatch(th) == r2, "A's second read not dispatched");
	th_advance(th, MS);
	fqt_done(th, r1);
	fqt_done(th, r2);
	end_a_slot(th, b);

	/* No I/O for 1.9 s: no raise; for 2.1 s: raised. */
	th_advance(th, 1900 * MS);
	read_held(th, a, b, 5 << 20, MS);
	TH_CHECK(raises(th) == 1, "raised after 1.9 s without I/O");
	th_advance(th, 2100 * MS);
	read_held(th, a, b, 6 << 20, MS);
	printf("back after 2.1 s without I/O: raises %llu\n",
	       (unsigned long long)raises(th));
	TH_CHECK(raises(th) == 2, "not raised after 2.1 s without I/O");

	fqt_finish(th, pr, 2);
	printf("ok\n");
	return 0;
}
