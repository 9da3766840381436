/* DESCRIPTION: deadline-read: tunable table as specified, presets and runtime changes take effect */
#include <string.h>

#include "testhost.h"

#define MS EK_NSEC_PER_MSEC

struct want {
	const char *name;
	ek_s64 def, min, max;
};

static const struct want want[] = {
	{ "read_expire", 125, 0, 3600000 },
	{ "write_expire", 5000, 0, 3600000 },
	{ "writes_starved", 2, 0, 1000000 },
	{ "fifo_batch", 16, 1, 1000000 },
	{ "front_merges", 1, 0, 1 },
	{ "async_depth", 0, 0, 65536 },
};

/* Read-only files after the tunables, in this order. */
static const char *const counters[] = {
	"dispatched_reads", "dispatched_writes", "dispatched_other",
	"expired_batches", "starved_batches",
};

static void check_table(const struct ek_policy *pol)
{
	unsigned int i, nw = sizeof(want) / sizeof(want[0]);
	unsigned int nc = sizeof(counters) / sizeof(counters[0]);

	TH_CHECK(!strcmp(pol->name, "deadline-read"), "name %s", pol->name);
	TH_CHECK(strlen(pol->name) <= EK_POLICY_NAME_MAX, "name too long");
	TH_CHECK(pol->description && *pol->description, "no description");
	TH_CHECK(pol->nr_tunables == nw, "%u tunables", pol->nr_tunables);
	for (i = 0; i < pol->nr_tunables; i++) {
		const struct ek_tunable *t = &pol->tunables[i];

		TH_CHECK(t->name && *t->name && t->unit && *t->unit &&
			 t->help && *t->help, "tunable %u lacks name/unit/help", i);
		TH_CHECK(!strcmp(t->name, want[i].name),
			 "tunable %u is %s, expected %s", i, t->name,
			 want[i].name);
		TH_CHECK(t->def == want[i].def && t->min == want[i].min &&
			 t->max == want[i].max && !t->flags,
			 "%s: def/min/max/flags wrong", t->name);
		TH_CHECK(t->min <= t->def && t->def <= t->max,
			 "%s: default out of range", t->name);
	}
	TH_CHECK(pol->nr_counters == nc && pol->nr_counters <= EK_MAX_COUNTERS,
		 "%u counters", pol->nr_counters);
	for (i = 0; i < pol->nr_counters; i++) {
		const struct ek_counter *c = &pol->counters[i];

		TH_CHECK(c->unit && *c->unit && c->help && *c->help,
			 "counter %u lacks unit/help", i);
		TH_CHECK(c->name && !strcmp(c->name, counters[i]),
			 "counter %u is %s, expected %s", i, c->name, counters[i]);
	}
	TH_CHECK(pol->read_counter && pol->set_tunable,
		 "no read_counter/set_tunable");
}

/* Drain; return the dispatch order as sectors / 8 in a string of digits. */
static void order(struct th *th, char *buf)
{
	struct ek_rq *rq;
	unsigned int n = 0;

	while ((rq = th_dispatch(th))) {
		buf[n++] = (char)('0' + rq->sector / 8 % 10);
		th_complete(th, rq);
	}
	buf[n] = 0;
}

int main(void)
{
	struct th *th;
	char got[64];
	unsigned int i;

	check_table(&ek_deadline_read_policy);

	/* Out-of-range values are the host's to refuse. */
	th = th_new(&ek_deadline_read_policy, 200);
	th_start(th);
	TH_CHECK(th_set(th, "fifo_batch", 0) == -1 &&
		 th_set(th, "read_expire", -1) == -1 &&
		 th_set(th, "read_expire", 3600001) == -1 &&
		 th_set(th, "dispatched_reads", 1) == -1,
		 "bad value accepted by the table's ranges");

	/*
	 * read_expire 0: every read is expired on arrival, so each batch
	 * starts at the FIFO head; with fifo_batch 1 the order is arrival
	 * order, not sector order.
	 */
	TH_CHECK(th_set(th, "read_expire", 0) == 0 &&
		 th_set(th, "fifo_batch", 1) == 0, "set refused");
	for (i = 0; i < 5; i++)
		th_add(th, EK_READ, (ek_u64)(5 - i) * 8, 8);	/* 5 4 3 2 1 */
	th_advance(th, 1);
	order(th, got);
	TH_CHECK(!strcmp(got, "54321"), "read_expire 0: got %s", got);
	TH_CHECK(th_stat(th, "expired_batches") == 5, "expired_batches %llu",
		 (unsigned long long)th_stat(th, "expired_batches"));

	/*
	 * Back to the default: sector order again, continuing from where
	 * the last read (sector 8) ended, then wrapping to the FIFO head.
	 */
	TH_CHECK(th_set(th, "read_expire", 125) == 0, "set refused");
	for (i = 0; i < 5; i++)
		th_add(th, EK_READ, (ek_u64)(5 - i) * 8, 8);
	order(th, got);
	TH_CHECK(!strcmp(got, "23451"), "read_expire 125: got %s", got);

	/* write_expire 0 does the same for writes. */
	TH_CHECK(th_set(th, "write_expire", 0) == 0, "set refused");
	for (i = 0; i < 5; i++)
		th_add(th, EK_WRITE, (ek_u64)(5 - i) * 8, 8);
	th_advance(th, 1);
	order(th, got);
	TH_CHECK(!strcmp(got, "54321"), "write_expire 0: got %s", got);

	/* writes_starved 3 at runtime: three read batches per write batch. */
	TH_CHECK(th_set(th, "writes_starved", 3) == 0, "set refused");
	TH_CHECK(th_set(th, "write_expire", 5000) == 0, "set refused");
	for (i = 0; i < 4; i++)
		th_add(th, EK_WRITE, 1000 + i * 8ULL, 8);
	for (i = 0; i < 8; i++)
		th_add(th, EK_READ, i * 8ULL, 8);
	{
		struct ek_rq *rq;
		unsigned int n = 0;

		while ((rq = th_dispatch(th))) {
			got[n++] = rq->dir == EK_READ ? 'R' : 'W';
			th_complete(th, rq);
		}
		got[n] = 0;
	}
	TH_CHECK(!strcmp(got, "RRRWRRRWRRWW"), "writes_starved 3: got %s", got);
	th_finish(th);

	/* Presets reach init: fifo_batch 2 from the start. */
	th = th_new(&ek_deadline_read_policy, 100);
	th_preset(th, "fifo_batch", 2);
	th_preset(th, "writes_starved", 0);
	th_start(th);
	for (i = 0; i < 4; i++)
		th_add(th, EK_READ, i * 8ULL, 8);
	for (i = 0; i < 4; i++)
		th_add(th, EK_WRITE, 1000 + i * 8ULL, 8);
	th_drain(th);
	TH_CHECK(th_stat(th, "dispatched_reads") == 4 &&
		 th_stat(th, "dispatched_writes") == 4 &&
		 /* ws 0: both write batches went ahead of waiting reads */
		 th_stat(th, "starved_batches") == 2,
		 "statistics: %llu reads %llu writes %llu starved",
		 (unsigned long long)th_stat(th, "dispatched_reads"),
		 (unsigned long long)th_stat(th, "dispatched_writes"),
		 (unsigned long long)th_stat(th, "starved_batches"));
	th_finish(th);

	/* writes_starved 1: one read batch, then one write batch. */
	th = th_new(&ek_deadline_read_policy, 100);
	th_preset(th, "fifo_batch", 2);
	th_preset(th, "writes_starved", 1);
	th_start(th);
	for (i = 0; i < 6; i++)
		th_add(th, EK_READ, i * 8ULL, 8);
	for (i = 0; i < 4; i++)
		th_add(th, EK_WRITE, 1000 + i * 8ULL, 8);
	{
		struct ek_rq *rq;
		unsigned int n = 0;

		while ((rq = th_dispatch(th))) {
			got[n++] = rq->dir == EK_READ ? 'R' : 'W';
			th_complete(th, rq);
		}
		got[n] = 0;
	}
	TH_CHECK(!strcmp(got, "RRWWRRWWRR"), "fifo_batch 2, ws 1: got %s", got);
	TH_CHECK(th_stat(th, "starved_batches") == 2, "starved_batches %llu",
		 (unsigned long long)th_stat(th, "starved_batches"));
	th_finish(th);
	printf("ok\n");
	return 0;
}
