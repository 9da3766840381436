/* DESCRIPTION: pheap: random inserts and erases keep the minimum of a sorted reference (first inserted of equal keys), links stay consistent */
#include <string.h>

#include "elvkit/pheap.h"
#include "testhost.h"

#define N 3000

struct item {
	struct ek_ph_node node;
	uint64_t stamp;		/* insertion order: the tie-break the heap promises */
	int in;
};

static struct item items[N];
static struct item *ref[N];	/* the items in the heap */
static unsigned int nref;

static int item_less(const struct item *x, const struct item *y)
{
	return x->node.key < y->node.key ||
	       (x->node.key == y->node.key && x->stamp < y->stamp);
}

/* Nodes under n (n included), checking heap order and every back link. */
static unsigned int check_node(const struct ek_ph_node *n)
{
	const struct ek_ph_node *c, *prev = n;
	unsigned int count = 1;

	for (c = n->child; c; prev = c, c = c->next) {
		TH_CHECK(c->prev == prev, "bad prev link");
		TH_CHECK(c->key > n->key ||
			 (c->key == n->key && c->seq > n->seq),
			 "child below its parent");
		count += check_node(c);
	}
	return count;
}

static void validate(struct ek_ph_root *h)
{
	const struct item *min = NULL;
	unsigned int i;

	for (i = 0; i < nref; i++)
		if (!min || item_less(ref[i], min))
			min = ref[i];
	TH_CHECK(h->count == nref, "count %llu, expected %u",
		 (unsigned long long)h->count, nref);
	TH_CHECK(ek_ph_empty(h) == (nref == 0), "empty() wrong");
	TH_CHECK(ek_ph_first(h) == (min ? &min->node : NULL),
		 "first is not the minimum");
	if (h->root) {
		TH_CHECK(!h->root->prev && !h->root->next, "root has siblings");
		TH_CHECK(check_node(h->root) == nref, "nodes lost or duplicated");
	}
}

static void run(uint64_t seed, uint64_t keyspace, unsigned int ops)
{
	struct ek_ph_root h;
	ek_u64 rng = seed;
	uint64_t stamp = 0;
	unsigned int op, i;

	ek_ph_init(&h);
	memset(items, 0, sizeof(items));
	nref = 0;
	for (op = 0; op < ops; op++) {
		struct item *it = &items[ek_rand_below(&rng, N)];
		/* Drift between growing and shrinking to cover both. */
		int grow = (op / 5000) % 2 == 0;

		if (!it->in && ek_rand_below(&rng, 100) < (grow ? 70u : 30u)) {
			it->stamp = stamp++;
			ek_ph_insert(&h, &it->node, ek_rand_below(&rng, keyspace));
			it->in = 1;
			ref[nref++] = it;
		} else if (it->in) {
			/* Half the erases take the minimum, as a scheduler does. */
			if (ek_rand_below(&rng, 2))
				it = ek_ph_entry(ek_ph_first(&h), struct item, node);
			ek_ph_erase(&h, &it->node);
			it->in = 0;
			for (i = 0; i < nref && ref[i] != it; i++)
				;
			TH_CHECK(i < nref, "erased item not in the reference");
			ref[i] = ref[--nref];
		}
		if (op % 97 == 0)
			validate(&h);
	}
	validate(&h);
	while (nref) {
		i = (unsigned int)ek_rand_below(&rng, nref);
		ek_ph_erase(&h, &ref[i]->node);
		ref[i]->in = 0;
		ref[i] = ref[--nref];
		if (nref % 31 == 0)
			validate(&h);
	}
	TH_CHECK(ek_ph_empty(&h) && h.count == 0, "heap not empty at the end");
}

int main(void)
{
	/* Small key spaces force many duplicates, a huge one almost none. */
	run(1, 16, 60000);
	run(2, 700, 60000);
	run(3, EK_U64_MAX, 60000);
	run(4, 3, 20000);
	printf("ok\n");
	return 0;
}
