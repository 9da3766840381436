/*
 * The random churn the container tests share (001 rbtree, 017 pheap):
 * CHURN_N items, each in the container or not, inserted with random keys
 * and erased at random, drifting between growing and shrinking phases,
 * then all erased in random order; the container is validated every so
 * many steps against ref[], the items inside. The test supplies the
 * container's side: insert, erase and validate.
 */
#ifndef ELVKIT_TEST_CHURN_H
#define ELVKIT_TEST_CHURN_H

#include <string.h>

#include "testhost.h"

#define CHURN_N 3000

struct churn {
	uint64_t key[CHURN_N];
	uint64_t seq[CHURN_N];		/* insertion stamp: order among equal keys */
	int in[CHURN_N];
	unsigned int ref[CHURN_N];	/* the items inside, in no order */
	unsigned int nref;
	ek_u64 rng;
	uint64_t keyspace;
	/* put item i (key[i], seq[i] set) in the container */
	void (*insert)(struct churn *c, unsigned int i);
	/* take item i out, or another the container chooses: which one */
	unsigned int (*erase)(struct churn *c, unsigned int i);
	void (*validate)(struct churn *c);
	void (*reset)(void);		/* empty the container */
	int (*is_empty)(void);		/* its own view: no node, count 0 */
};

static void churn_out(struct churn *c, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < c->nref && c->ref[k] != i; k++)
		;
	TH_CHECK(k < c->nref, "erased item %u not in the reference", i);
	c->in[i] = 0;
	c->ref[k] = c->ref[--c->nref];
}

/* ops steps over keys below keyspace, validating every `every` steps. */
static void churn_run(struct churn *c, uint64_t seed, uint64_t keyspace,
		      unsigned int ops, unsigned int every, unsigned int drain_every)
{
	uint64_t seq = 0;
	unsigned int op, i;

	memset(c->in, 0, sizeof(c->in));
	c->nref = 0;
	c->rng = seed;
	c->keyspace = keyspace;
	for (op = 0; op < ops; op++) {
		/* Drift between growing and shrinking to cover both. */
		int grow = (op / 5000) % 2 == 0;

		i = (unsigned int)ek_rand_below(&c->rng, CHURN_N);
		if (!c->in[i] && ek_rand_below(&c->rng, 100) < (grow ? 70u : 30u)) {
			c->seq[i] = seq++;
			c->key[i] = ek_rand_below(&c->rng, keyspace);
			c->insert(c, i);
			c->in[i] = 1;
			c->ref[c->nref++] = i;
		} else if (c->in[i]) {
			churn_out(c, c->erase(c, i));
		}
		if (op % every == 0)
			c->validate(c);
	}
	c->validate(c);
	while (c->nref) {
		i = c->ref[ek_rand_below(&c->rng, c->nref)];
		churn_out(c, c->erase(c, i));
		if (c->nref % drain_every == 0)
			c->validate(c);
	}
}

/*
 * The whole test: small key spaces force many duplicates, a huge one
 * almost none.
 */
static int churn_main(struct churn *c, unsigned int every, unsigned int drain_every)
{
	static const struct {
		uint64_t seed, keyspace;
		unsigned int ops;
	} runs[] = {
		{ 1, 16, 60000 }, { 2, 700, 60000 }, { 3, EK_U64_MAX, 60000 }, { 4, 3, 20000 },
	};
	unsigned int k;

	for (k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
		c->reset();
		churn_run(c, runs[k].seed, runs[k].keyspace, runs[k].ops, every, drain_every);
		TH_CHECK(c->is_empty(), "not empty at the end (run %u)", k);
	}
	printf("ok\n");
	return 0;
}

#endif
