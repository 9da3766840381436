/* DESCRIPTION: rbtree: random inserts and erases match a sorted reference, red-black rules hold */
#include <string.h>

#include "testhost.h"

#define N 3000

struct item {
	struct ek_rb_node node;
	uint64_t seq;		/* insertion stamp: order among equal keys */
	int in;
};

static struct item items[N];
static struct item *ref[N];	/* the items in the tree, sorted */
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

static void validate(struct ek_rb_root *t, ek_u64 *rng, uint64_t keyspace)
{
	struct ek_rb_node *n;
	unsigned int i, maxdepth = 0;

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
		uint64_t k = ek_rand_below(rng, keyspace + 2);
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

static void run(uint64_t seed, uint64_t keyspace, unsigned int ops)
{
	struct ek_rb_root t = EK_RB_ROOT_INIT;
	ek_u64 rng = seed;
	uint64_t seq = 0;
	unsigned int op, i;

	memset(items, 0, sizeof(items));
	nref = 0;
	for (op = 0; op < ops; op++) {
		struct item *it = &items[ek_rand_below(&rng, N)];
		/* Drift between growing and shrinking to cover both. */
		int grow = (op / 5000) % 2 == 0;

		if (!it->in && ek_rand_below(&rng, 100) < (grow ? 70u : 30u)) {
			it->seq = seq++;
			ek_rb_insert(&t, &it->node, ek_rand_below(&rng, keyspace));
			it->in = 1;
			ref[nref++] = it;
		} else if (it->in) {
			ek_rb_erase(&t, &it->node);
			it->in = 0;
			for (i = 0; i < nref && ref[i] != it; i++)
				;
			ref[i] = ref[--nref];
		}
		if (op % 997 == 0)
			validate(&t, &rng, keyspace);
	}
	validate(&t, &rng, keyspace);
	/* Empty it in random order. */
	while (nref) {
		i = (unsigned int)ek_rand_below(&rng, nref);
		ek_rb_erase(&t, &ref[i]->node);
		ref[i]->in = 0;
		ref[i] = ref[--nref];
		if (nref % 311 == 0)
			validate(&t, &rng, keyspace);
	}
	TH_CHECK(ek_rb_empty(&t) && t.count == 0, "tree not empty at the end");
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
