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

void ek_ph_insert(struct ek_ph_root *h, struct ek_ph_node *n, ek_u64 key);
void ek_ph_erase(struct ek_ph_root *h, struct ek_ph_node *n);
/* Take the minimum off the heap and return it, or NULL if empty. */
struct ek_ph_node *ek_ph_pop(struct ek_ph_root *h);

#define ek_ph_entry(ptr, type, member) ek_container_of(ptr, type, member)

#endif
