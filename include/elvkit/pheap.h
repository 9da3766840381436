/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intrusive pairing heap keyed by a 64-bit value, for host-independent
 * policy code that needs the minimum more than order: insert is O(1),
 * first is O(1), erase (of any node) is O(log n) amortized. Among equal
 * keys the first inserted is the minimum, as in the rbtree, so the two
 * pick the same node.
 *
 * Why not the rbtree: a scheduler that takes the minimum and later puts
 * the node back (fair-queue's eligible queues, one per process, every
 * queue switch) paid a full descent and a rebalance on every insert; here
 * an insert is one or two comparisons.
 */
#ifndef ELVKIT_PHEAP_H
#define ELVKIT_PHEAP_H

#include "types.h"

struct ek_ph_node {
	/* first child; next sibling; previous sibling, or parent if first */
	struct ek_ph_node *child, *next, *prev;
	ek_u64 key;
	ek_u64 seq;			/* insertion stamp: order among equal keys */
};

struct ek_ph_root {
	struct ek_ph_node *root;
	struct ek_ph_node *last;	/* bottom of the latest run of inserts */
	ek_u64 seq;
	ek_u64 count;
};

static inline void ek_ph_init(struct ek_ph_root *h)
{
	h->root = EK_NULL;
	h->last = EK_NULL;
	h->seq = 0;
	h->count = 0;
}

static inline int ek_ph_empty(const struct ek_ph_root *h)
{
	return h->root == EK_NULL;
}

/* The minimum (the first inserted of equal keys), or NULL. */
static inline struct ek_ph_node *ek_ph_first(const struct ek_ph_root *h)
{
	return h->root;
}

void ek_ph_insert_slow(struct ek_ph_root *h, struct ek_ph_node *n, ek_u64 key);
void ek_ph_erase_slow(struct ek_ph_root *h, struct ek_ph_node *n);
struct ek_ph_node *ek_ph_pop_slow(struct ek_ph_root *h);

/*
 * The cases of a heap of one node are inline: where every request is a
 * queue switch between a few queues (fair-queue), its heaps hold one
 * queue or none, and a call into another module cost more than the
 * operation.
 */
static inline void ek_ph_insert(struct ek_ph_root *h, struct ek_ph_node *n,
				ek_u64 key)
{
	if (h->root) {
		ek_ph_insert_slow(h, n, key);
		return;
	}
	/* an empty heap has no bottom of a run: h->last went with its node */
	n->key = key;
	n->seq = h->seq++;
	n->child = EK_NULL;
	n->next = EK_NULL;
	n->prev = EK_NULL;
	h->root = n;
	h->last = n;
	h->count++;
}

/*
 * Take the root, which has no child, off the heap: it is empty then. A
 * root has no siblings, and h->last is it or nothing.
 */
static inline void ek_ph_take_lone(struct ek_ph_root *h)
{
	h->root = EK_NULL;
	h->last = EK_NULL;
	h->count--;
}

/* Remove n, which is in the heap. */
static inline void ek_ph_erase(struct ek_ph_root *h, struct ek_ph_node *n)
{
	if (n == h->root && !n->child)
		ek_ph_take_lone(h);
	else
		ek_ph_erase_slow(h, n);
}

/* Take the minimum off the heap and return it, or NULL if empty. */
static inline struct ek_ph_node *ek_ph_pop(struct ek_ph_root *h)
{
	struct ek_ph_node *n = h->root;

	if (!n || n->child)
		return ek_ph_pop_slow(h);
	ek_ph_take_lone(h);
	return n;
}

#define ek_ph_entry(ptr, type, member) ek_container_of(ptr, type, member)

#endif
