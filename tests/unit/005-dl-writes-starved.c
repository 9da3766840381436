/* DESCRIPTION: deadline-read: under read pressure writes still go within writes_starved read batches */
#include "testhost.h"

#define MS EK_NSEC_PER_MSEC

/*
 * Reads never run out (a sequential stream, so read batches are always
 * full); writes trickle in at random sectors. Counting the reads dispatched
 * while a write waits (since it became pending or since the last write
 * went out): the batch in progress when the write arrived, plus
 * writes_starved full read batches, is the most allowed.
 */
static void run(uint64_t seed, ek_s64 ws, ek_s64 fb)
{
	struct th *th = th_new(&ek_deadline_read_policy, 40000);
	ek_u64 rng = seed;
	unsigned int i, reads_q = 0, writes_q = 0, waiting_reads = 0;
	unsigned int worst = 0, limit = (unsigned int)((ws + 1) * fb);
	struct ek_rq *rq;
	ek_u64 read_pos = 0;

	th_preset(th, "writes_starved", ws);
	th_preset(th, "fifo_batch", fb);
	/* Expiry out of the way: this is about starvation counting alone. */
	th_preset(th, "read_expire", 3600000);
	th_preset(th, "write_expire", 3600000);
	th_start(th);
	for (i = 0; i < 20000; i++) {
		while (reads_q < 8) {
			/* Ascending, so read batches are never cut short. */
			th_add(th, EK_READ, read_pos, 8);
			read_pos += 8;
			reads_q++;
		}
		if (ek_rand_below(&rng, 100) < 15) {
			if (!writes_q)
				waiting_reads = 0;
			th_add(th, EK_WRITE, ek_rand_below(&rng, 1u << 24), 8);
			writes_q++;
		}
		rq = th_dispatch(th);
		TH_CHECK(rq, "nothing dispatched with reads queued");
		if (rq->dir == EK_WRITE) {
			writes_q--;
			waiting_reads = 0;
		} else {
			reads_q--;
			if (writes_q && ++waiting_reads > worst)
				worst = waiting_reads;
			TH_CHECK(waiting_reads <= limit,
				 "ws=%lld fb=%lld: %u reads while a write waited (limit %u)",
				 (long long)ws, (long long)fb, waiting_reads, limit);
		}
		th_complete(th, rq);
		th_advance(th, 1 * MS);
	}
	/* And reads really are preferred: the allowance gets used. */
	TH_CHECK(worst >= (unsigned int)(ws * fb),
		 "ws=%lld fb=%lld: at most %u reads before a write, expected %lld",
		 (long long)ws, (long long)fb, worst, (long long)(ws * fb));
	th_drain(th);
	th_finish(th);
}

int main(void)
{
	static const ek_s64 ws[] = { 0, 1, 2, 3, 7 };
	static const ek_s64 fb[] = { 1, 3, 16 };
	unsigned int i, j;

	for (i = 0; i < sizeof(ws) / sizeof(ws[0]); i++)
		for (j = 0; j < sizeof(fb) / sizeof(fb[0]); j++)
			run(100 + i * 10 + j, ws[i], fb[j]);
	printf("ok\n");
	return 0;
}
