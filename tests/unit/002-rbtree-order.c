/* DESCRIPTION: rbtree: sequential and duplicate keys keep order, height stays logarithmic */
#include "testhost.h"

#define N 100000

struct item {
	struct ek_rb_node node;
	unsigned int idx;
};

static struct item items[N];

static unsigned int height(const struct ek_rb_node *n)
{
	/* Recursion depth is the height: fine for a test. */
	unsigned int l, r;

	if (!n)
		return 0;
	l = height(n->left);
	r = height(n->right);
	return 1 + (l > r ? l : r);
}

static struct item *item_of(struct ek_rb_node *n)
{
	return n ? ek_rb_entry(n, struct item, node) : NULL;
}

int main(void)
{
	struct ek_rb_root t;
	struct ek_rb_node *n;
	unsigned int i, h;

	/* Empty tree queries. */
	ek_rb_init(&t);
	TH_CHECK(ek_rb_empty(&t) && !ek_rb_first(&t) && !ek_rb_last(&t) &&
		 !ek_rb_lower_bound(&t, 0) && !ek_rb_find(&t, 0),
		 "empty tree returned a node");

	/* Ascending keys: the worst case for an unbalanced tree. */
	for (i = 0; i < N; i++) {
		items[i].idx = i;
		ek_rb_insert(&t, &items[i].node, i * 2ULL);
	}
	h = height(t.root);
	TH_CHECK(h <= 34, "height %u for %u ascending keys", h, N);
	TH_CHECK(item_of(ek_rb_lower_bound(&t, 7))->idx == 4, "lower_bound(7)");
	TH_CHECK(!ek_rb_find(&t, 7), "find(7) found an odd key");
	TH_CHECK(item_of(ek_rb_find(&t, 8))->idx == 4, "find(8)");
	TH_CHECK(!ek_rb_lower_bound(&t, 2ULL * N), "lower_bound past the end");
	/* Erase by always taking the first: the dispatch pattern. */
	for (i = 0; i < N; i++) {
		n = ek_rb_first(&t);
		TH_CHECK(item_of(n)->idx == i, "first is %u, expected %u",
			 item_of(n)->idx, i);
		ek_rb_erase(&t, n);
	}
	TH_CHECK(ek_rb_empty(&t) && t.count == 0, "not empty after erasing all");

	/* Descending keys, erased from the back. */
	for (i = 0; i < N; i++)
		ek_rb_insert(&t, &items[i].node, (ek_u64)(N - i));
	h = height(t.root);
	TH_CHECK(h <= 34, "height %u for %u descending keys", h, N);
	for (i = 0; i < N; i++) {
		n = ek_rb_last(&t);
		TH_CHECK(item_of(n)->idx == i, "last is %u, expected %u",
			 item_of(n)->idx, i);
		ek_rb_erase(&t, n);
	}

	/* All keys equal: iteration is insertion order, find gives the first. */
	for (i = 0; i < 1000; i++)
		ek_rb_insert(&t, &items[i].node, 42);
	for (i = 0, n = ek_rb_first(&t); n; n = ek_rb_next(n), i++)
		TH_CHECK(item_of(n)->idx == i, "equal keys out of order at %u", i);
	TH_CHECK(i == 1000, "iterated %u of 1000", i);
	/* Erase every other one; the rest keep their order. */
	for (i = 0; i < 1000; i += 2)
		ek_rb_erase(&t, &items[i].node);
	for (i = 1, n = ek_rb_first(&t); n; n = ek_rb_next(n), i += 2)
		TH_CHECK(item_of(n)->idx == i, "order broken after erase at %u", i);
	TH_CHECK(item_of(ek_rb_find(&t, 42))->idx == 1, "find not the first");
	/* Re-inserted equal keys go after the existing ones. */
	ek_rb_insert(&t, &items[0].node, 42);
	TH_CHECK(item_of(ek_rb_last(&t)) == &items[0], "re-insert not last");
	TH_CHECK(t.count == 501, "count %llu", (unsigned long long)t.count);
	TH_CHECK(item_of(ek_rb_prev(ek_rb_first(&t))) == NULL &&
		 item_of(ek_rb_next(ek_rb_last(&t))) == NULL,
		 "iteration does not stop at the ends");
	printf("ok\n");
	return 0;
}
