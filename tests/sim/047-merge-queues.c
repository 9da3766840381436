/* DESCRIPTION: as in the kernel, a bio joins a queued request of another process (deadline-read) but never one of another I/O priority; under fair-queue (EK_POLICY_SAME_QUEUE_MERGES, bfq's allow_merge) only one of its own queue: same process when synchronous, any when both are writeback */
#include "simtest.h"
#include "sim_int.h"

static struct sim_config cfg;
static struct sim_result res;
static struct sim s;
static struct sthread th[3];
static struct sbio bios[3];

/* The block layer on an idle hdd with nothing run yet: no event is handled. */
static void setup(const char *sched)
{
	memset(&s, 0, sizeof(s));
	memset(th, 0, sizeof(th));
	memset(bios, 0, sizeof(bios));
	st_config(&cfg, sched, "hdd", "seqwrite", 3);
	s.cfg = &cfg;
	s.res = &res;
	s.rng = 1;
	s.hops = &sim_block_layer;
	if (host_setup(&s)) {
		printf("FAIL: %s: host setup failed\n", sched);
		exit(1);
	}
	s.threads = th;
	s.nthreads = 3;
	th[0].id = 0, th[1].id = 1, th[2].id = 2;
	th[0].sync = th[1].sync = 1;	/* two direct writers; th[2] writes back */
	th[0].prio = th[1].prio = th[2].prio = (struct sim_prio){ EK_PRIO_BE, 4 };
}

/* A 4 KiB write of t at sector; whether it merged into a queued request. */
static int write_at(unsigned i, struct sthread *t, uint64_t sector)
{
	uint64_t before = res.back_merges + res.front_merges;
	struct sbio *b = &bios[i];

	b->sector = sector;
	b->nr = 8;
	b->dir = EK_WRITE;
	b->t = b->owner = t;
	b->submit_ns = s.now;
	CHECK(s.hops->submit_bio(&s, b), "%s: write at %llu was not taken",
	      cfg.policy->name, (unsigned long long)sector);
	return res.back_merges + res.front_merges > before;
}

/*
 * Hand out what is queued and complete it, so that the policy can go;
 * time passes for a policy that waits for a process's next request.
 */
static void teardown(void)
{
	struct ek_rq *rq;
	int i;

	for (i = 0; i < 100 && s.held; i++, s.now += 100000000ULL) {
		while ((rq = s.pol->dispatch(s.sd, s.now))) {
			s.held--;
			s.pol->completed(s.sd, rq, s.now);
		}
	}
	CHECK(!s.held, "%s: %llu requests stuck", cfg.policy->name,
	      (unsigned long long)s.held);
	s.hops->task_exit(&s, &th[0]);
	s.hops->task_exit(&s, &th[1]);
	s.hops->task_exit(&s, &th[2]);
	host_teardown(&s);
	heap_free(&s.heap);
	CHECK(!res.violations, "%s: %s", cfg.policy->name, res.violation);
}

int main(void)
{
	/* the kernel's rules: any process, one I/O priority */
	setup("deadline-read");
	write_at(0, &th[0], 0);
	CHECK(write_at(1, &th[1], 8), "deadline-read: another process's write did not merge");
	th[2].sync = 1;
	th[2].prio.lvl = 5;
	CHECK(!write_at(2, &th[2], 16), "deadline-read: a write of another priority merged");
	teardown();

	/* fair-queue: a process's own sync request only */
	setup("fair-queue");
	write_at(0, &th[0], 0);
	CHECK(!write_at(1, &th[1], 8), "fair-queue: another process's sync write merged");
	CHECK(write_at(2, &th[1], 16), "fair-queue: the process's own write did not merge");
	teardown();

	/* fair-queue: writeback shares one queue per class; sync stays apart */
	setup("fair-queue");
	th[1].sync = 0;
	write_at(0, &th[2], 0);
	CHECK(write_at(1, &th[1], 8), "fair-queue: writeback of two processes did not merge");
	CHECK(!write_at(2, &th[0], 16), "fair-queue: a sync write joined writeback");
	teardown();

	if (!st_failed)
		printf("PASS\n");
	return st_failed;
}
