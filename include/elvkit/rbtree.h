/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Intrusive red-black tree keyed by a 64-bit value (a sector, a virtual
 * time), for host-independent policy code. Duplicate keys are allowed:
 * an equal key goes to the right of existing ones, so iteration order is
 * key order and, among equal keys, insertion order.
 */
#ifndef ELVKIT_RBTREE_H
#define ELVKIT_RBTREE_H

#include "types.h"

struct ek_rb_node {
	struct ek_rb_node *parent, *left, *right;
	ek_u64 key;
	int red;
};

struct ek_rb_root {
	struct ek_rb_node *root;
	ek_u64 count;
};

#define EK_RB_ROOT_INIT { EK_NULL, 0 }

static inline void ek_rb_init(struct ek_rb_root *t)
{
	t->root = EK_NULL;
	t->count = 0;
}

static inline int ek_rb_empty(const struct ek_rb_root *t)
{
	return t->root == EK_NULL;
}

void ek_rb_insert(struct ek_rb_root *t, struct ek_rb_node *n, ek_u64 key);
void ek_rb_erase(struct ek_rb_root *t, struct ek_rb_node *n);
struct ek_rb_node *ek_rb_first(const struct ek_rb_root *t);
struct ek_rb_node *ek_rb_last(const struct ek_rb_root *t);
struct ek_rb_node *ek_rb_next(const struct ek_rb_node *n);
struct ek_rb_node *ek_rb_prev(const struct ek_rb_node *n);
/* First node with key >= key, or NULL. */
struct ek_rb_node *ek_rb_lower_bound(const struct ek_rb_root *t, ek_u64 key);
/* Some node with exactly this key (the first in order), or NULL. */
struct ek_rb_node *ek_rb_find(const struct ek_rb_root *t, ek_u64 key);

#define ek_rb_entry(ptr, type, member) ek_container_of(ptr, type, member)

#endif
