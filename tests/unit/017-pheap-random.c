/* DESCRIPTION: pheap: random inserts, erases and pops keep the minimum of a sorted reference (first inserted of equal keys), links stay consistent */
#include "churn.h"
#include "elvkit/pheap.h"

static struct churn ch;
static struct ek_ph_root heap;
static struct ek_ph_node nodes[CHURN_N];

static unsigned int index_of(const struct ek_ph_node *n)
{
	return (unsigned int)(n - nodes);
}

static int item_less(const struct churn *c, unsigned int x, unsigned int y)
{
	return c->key[x] < c->key[y] ||
	       (c->key[x] == c->key[y] && c->seq[x] < c->seq[y]);
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

static void validate(struct churn *c)
{
	struct ek_ph_root *h = &heap;
	unsigned int i, min = CHURN_N;

	for (i = 0; i < c->nref; i++)
		if (min == CHURN_N || item_less(c, c->ref[i], min))
			min = c->ref[i];
	TH_CHECK(h->count == c->nref, "count %llu, expected %u",
		 (unsigned long long)h->count, c->nref);
	TH_CHECK(ek_ph_empty(h) == (c->nref == 0), "empty() wrong");
	TH_CHECK(ek_ph_first(h) == (min < CHURN_N ? &nodes[min] : NULL),
		 "first is not the minimum");
	if (h->root) {
		TH_CHECK(!h->root->prev && !h->root->next, "root has siblings");
		TH_CHECK(check_node(h->root) == c->nref, "nodes lost or duplicated");
	}
}

static void insert(struct churn *c, unsigned int i)
{
	ek_ph_insert(&heap, &nodes[i], c->key[i]);
}

/* Half the erases pop the minimum instead, as a scheduler does. */
static unsigned int erase(struct churn *c, unsigned int i)
{
	if (ek_rand_below(&c->rng, 2))
		return index_of(ek_ph_pop(&heap));
	ek_ph_erase(&heap, &nodes[i]);
	return i;
}

static void reset(void)
{
	ek_ph_init(&heap);
}

static int is_empty(void)
{
	return ek_ph_empty(&heap) && heap.count == 0;
}

int main(void)
{
	ch.insert = insert;
	ch.erase = erase;
	ch.validate = validate;
	ch.reset = reset;
	ch.is_empty = is_empty;
	return churn_main(&ch, 97, 31);
}
