/* DESCRIPTION: rbtree: random inserts and erases match a sorted reference, red-black rules hold */
#include <stdlib.h>

#include "churn.h"

struct item {
	struct ek_rb_node node;
	uint64_t seq;		/* insertion stamp: order among equal keys */
};

static struct churn ch;
static struct ek_rb_root tree;
static struct item items[CHURN_N];
static struct item *ref[CHURN_N];	/* the items in the tree, sorted */
static unsigned int nref;

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = *(struct item *const *)a;
	const struct item *y = *(struct item *const *)b;

	if (x->node.key != y->node.key)
		return x->node.key < y->node.key ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Black height of the subtree, checking every rule on the way down. */
static int check_node(const struct ek_rb_node *n, const struct ek_rb_node *parent,
		      unsigned int depth, unsigned int *maxdepth)
{
	int lh, rh;

	if (!n) {
		if (depth > *maxdepth)
			*maxdepth = depth;
		return 1;
	}
	TH_CHECK(n->parent == parent, "bad parent pointer");
	if (n->red)
		TH_CHECK(!(n->left && n->left->red) &&
			 !(n->right && n->right->red), "red node with red child");
	if (n->left)
		TH_CHECK(n->left->key <= n->key, "left child key too big");
	if (n->right)
		TH_CHECK(n->right->key >= n->key, "right child key too small");
	lh = check_node(n->left, n, depth + 1, maxdepth);
	rh = check_node(n->right, n, depth + 1, maxdepth);
	TH_CHECK(lh == rh, "black heights differ: %d vs %d", lh, rh);
	return lh + !n->red;
}

static unsigned int log2_ceil(unsigned int n)
{
	unsigned int l = 0;

	while ((1u << l) < n)
		l++;
	return l;
}

static void validate(struct churn *c)
{
	struct ek_rb_root *t = &tree;
	struct ek_rb_node *n;
	unsigned int i, maxdepth = 0;

	for (nref = 0; nref < c->nref; nref++) {
		ref[nref] = &items[c->ref[nref]];
		ref[nref]->seq = c->seq[c->ref[nref]];
	}
	qsort(ref, nref, sizeof(ref[0]), cmp_item);
	TH_CHECK(t->count == nref, "count %llu, expected %u",
		 (unsigned long long)t->count, nref);
	TH_CHECK(ek_rb_empty(t) == (nref == 0), "empty() wrong");
	TH_CHECK(!t->root || !t->root->red, "red root");
	check_node(t->root, NULL, 0, &maxdepth);
	TH_CHECK(maxdepth <= 2 * log2_ceil(nref + 1),
		 "height %u too big for %u nodes", maxdepth, nref);

	for (i = 0, n = ek_rb_first(t); n; n = ek_rb_next(n), i++)
		TH_CHECK(i < nref && n == &ref[i]->node,
			 "forward iteration differs at %u", i);
	TH_CHECK(i == nref, "forward iteration gave %u of %u", i, nref);
	for (i = nref, n = ek_rb_last(t); n; n = ek_rb_prev(n))
		TH_CHECK(i > 0 && n == &ref[--i]->node,
			 "backward iteration differs at %u", i);
	TH_CHECK(i == 0, "backward iteration stopped early");

	for (i = 0; i < 64; i++) {
		uint64_t k = ek_rand_below(&c->rng, c->keyspace + 2);
		unsigned int lo = 0, hi = nref;
		struct ek_rb_node *lb = ek_rb_lower_bound(t, k);
		struct ek_rb_node *f = ek_rb_find(t, k);

		while (lo < hi) {
			unsigned int mid = (lo + hi) / 2;

			if (ref[mid]->node.key < k)
				lo = mid + 1;
			else
				hi = mid;
		}
		TH_CHECK(lb == (lo < nref ? &ref[lo]->node : NULL),
			 "lower_bound(%llu) wrong", (unsigned long long)k);
		TH_CHECK(f == (lo < nref && ref[lo]->node.key == k ?
			       &ref[lo]->node : NULL),
			 "find(%llu) wrong", (unsigned long long)k);
	}
}

static void insert(struct churn *c, unsigned int i)
{
	ek_rb_insert(&tree, &items[i].node, c->key[i]);
}

static unsigned int erase(struct churn *c, unsigned int i)
{
	(void)c;
	ek_rb_erase(&tree, &items[i].node);
	return i;
}

static void reset(void)
{
	ek_rb_init(&tree);
}

static int is_empty(void)
{
	return ek_rb_empty(&tree) && tree.count == 0;
}

int main(void)
{
	ch.insert = insert;
	ch.erase = erase;
	ch.validate = validate;
	ch.reset = reset;
	ch.is_empty = is_empty;
	return churn_main(&ch, 997, 311);
}
