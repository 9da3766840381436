// SPDX-License-Identifier: GPL-2.0
/*
 * Pairing heap for host-independent policy code (see
 * include/elvkit/pheap.h). Iterative throughout, so stack use is constant
 * in the kernel.
 */
#include "elvkit/pheap.h"

static int ph_less(const struct ek_ph_node *a, const struct ek_ph_node *b)
{
	return a->key < b->key || (a->key == b->key && a->seq < b->seq);
}

/* Make b (next and prev unused) the first child of a. */
static void ph_add_child(struct ek_ph_node *a, struct ek_ph_node *b)
{
	b->prev = a;
	b->next = a->child;
	if (a->child)
		a->child->prev = b;
	a->child = b;
}

/* Link two roots (next and prev unused): the larger becomes a child. */
static struct ek_ph_node *ph_link(struct ek_ph_node *a, struct ek_ph_node *b)
{
	struct ek_ph_node *t;

	if (ph_less(b, a)) {
		t = a;
		a = b;
		b = t;
	}
	ph_add_child(a, b);
	return a;
}

/*
 * One heap of a sibling list: link neighbours in pairs left to right,
 * then fold the pairs right to left (the two passes that give the
 * amortized bound). The pairs are stacked through their next pointers.
 */
static struct ek_ph_node *ph_merge_pairs(struct ek_ph_node *first)
{
	struct ek_ph_node *a, *b, *stack = EK_NULL, *acc;

	if (!first)
		return EK_NULL;
	/*
	 * One or two: what chains of rising inserts mostly leave. The same
	 * result as the passes below, without their stack.
	 */
	b = first->next;
	if (!b || !b->next) {
		acc = b ? ph_link(first, b) : first;
		acc->next = EK_NULL;
		acc->prev = EK_NULL;
		return acc;
	}
	while (first) {
		a = first;
		b = a->next;
		first = b ? b->next : EK_NULL;
		if (b)
			a = ph_link(a, b);
		a->next = stack;
		stack = a;
	}
	if (!stack)
		return EK_NULL;
	acc = stack;
	stack = stack->next;
	while (stack) {
		a = stack;
		stack = stack->next;
		acc = ph_link(acc, a);
	}
	acc->next = EK_NULL;
	acc->prev = EK_NULL;
	return acc;
}

/*
 * Where a new node goes. Linked with the root, every node inserted since
 * the last pop would be a child of the root, and each pop re-pairs them
 * all. But a scheduler's keys mostly rise with time (a queue's finish is
 * the virtual time now plus a slot), so n goes under the bottom of the
 * run the previous inserts built (h->last) when its key is at least that
 * one's: the run is a chain and a pop has one child to re-pair. A key
 * between the bottom's and its parent's goes in between, so that one
 * outlier at the bottom (a queue put back with a long slot) does not
 * break the chain. n is the newest, so among equal keys it is the larger.
 * Heap order holds whichever way: the minimum is the same.
 */
void ek_ph_insert_slow(struct ek_ph_root *h, struct ek_ph_node *n, ek_u64 key)
{
	struct ek_ph_node *t = h->last, *p = t ? t->prev : EK_NULL;

	n->key = key;
	n->seq = h->seq++;
	n->child = EK_NULL;
	n->next = EK_NULL;
	n->prev = EK_NULL;
	if (t && t->key <= key) {
		ph_add_child(t, n);
		h->last = n;
	} else if (p && p->child == t && p->key <= key) {
		/* n takes t's place as p's first child; t, the only child of n */
		n->prev = p;
		n->next = t->next;
		if (t->next)
			t->next->prev = n;
		p->child = n;
		n->child = t;
		t->prev = n;
		t->next = EK_NULL;
	} else {
		h->root = h->root ? ph_link(h->root, n) : n;
		h->last = n;
	}
	h->count++;
}

static void ph_detached(struct ek_ph_root *h, struct ek_ph_node *n)
{
	if (h->last == n)
		h->last = EK_NULL;
	h->count--;
	n->child = EK_NULL;
	n->next = EK_NULL;
	n->prev = EK_NULL;
}

struct ek_ph_node *ek_ph_pop_slow(struct ek_ph_root *h)
{
	struct ek_ph_node *n = h->root;

	if (n) {
		h->root = ph_merge_pairs(n->child);
		ph_detached(h, n);
	}
	return n;
}

void ek_ph_erase_slow(struct ek_ph_root *h, struct ek_ph_node *n)
{
	struct ek_ph_node *sub;

	if (n == h->root) {
		h->root = ph_merge_pairs(n->child);
	} else {
		/* Cut n (with its children) out of its sibling list. */
		if (n->prev->child == n)
			n->prev->child = n->next;
		else
			n->prev->next = n->next;
		if (n->next)
			n->next->prev = n->prev;
		sub = ph_merge_pairs(n->child);
		if (sub)
			h->root = ph_link(h->root, sub);
	}
	ph_detached(h, n);
}
