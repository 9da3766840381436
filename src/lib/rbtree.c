// SPDX-License-Identifier: GPL-2.0
/*
 * Red-black tree for host-independent policy code (see
 * include/elvkit/rbtree.h).
 *
 * Classic parent-pointer red-black tree with NULL leaves. Everything is
 * iterative so that stack use is constant in the kernel. Equal keys go to
 * the right, which makes in-order iteration stable (insertion order among
 * equal keys) and lets lower_bound/find return the first of equal keys.
 */
#include "elvkit/rbtree.h"

static inline int is_red(const struct ek_rb_node *n)
{
	/* NULL leaves are black. */
	return n && n->red;
}

/* Make v take u's place under u's parent (v may be NULL). */
static void replace_child(struct ek_rb_root *t, struct ek_rb_node *u,
			  struct ek_rb_node *v)
{
	struct ek_rb_node *p = u->parent;

	if (!p)
		t->root = v;
	else if (p->left == u)
		p->left = v;
	else
		p->right = v;
	if (v)
		v->parent = p;
}

static void rotate_left(struct ek_rb_root *t, struct ek_rb_node *x)
{
	struct ek_rb_node *y = x->right;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	replace_child(t, x, y);
	y->left = x;
	x->parent = y;
}

static void rotate_right(struct ek_rb_root *t, struct ek_rb_node *x)
{
	struct ek_rb_node *y = x->left;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	replace_child(t, x, y);
	y->right = x;
	x->parent = y;
}

void ek_rb_insert(struct ek_rb_root *t, struct ek_rb_node *n, ek_u64 key)
{
	struct ek_rb_node *p = EK_NULL, **link = &t->root;
	struct ek_rb_node *g, *u;

	while (*link) {
		p = *link;
		/* ">=" goes right: equal keys stay in insertion order. */
		link = key < p->key ? &p->left : &p->right;
	}
	n->key = key;
	n->parent = p;
	n->left = EK_NULL;
	n->right = EK_NULL;
	n->red = 1;
	*link = n;
	t->count++;

	/* Repair a red parent; p is red so it is not the root and g exists. */
	while ((p = n->parent) && p->red) {
		g = p->parent;
		if (p == g->left) {
			u = g->right;
			if (is_red(u)) {
				/* Recolour and push the problem upwards. */
				p->red = 0;
				u->red = 0;
				g->red = 1;
				n = g;
				continue;
			}
			if (n == p->right) {
				rotate_left(t, p);
				n = p;
				p = n->parent;
			}
			p->red = 0;
			g->red = 1;
			rotate_right(t, g);
		} else {
			u = g->left;
			if (is_red(u)) {
				p->red = 0;
				u->red = 0;
				g->red = 1;
				n = g;
				continue;
			}
			if (n == p->left) {
				rotate_right(t, p);
				n = p;
				p = n->parent;
			}
			p->red = 0;
			g->red = 1;
			rotate_left(t, g);
		}
	}
	t->root->red = 0;
}

/*
 * x (possibly a NULL leaf, hence the explicit parent xp) carries one black
 * too few after a black node was removed above it.
 */
static void erase_fixup(struct ek_rb_root *t, struct ek_rb_node *x,
			struct ek_rb_node *xp)
{
	struct ek_rb_node *w;

	while (x != t->root && !is_red(x)) {
		/*
		 * The sibling w exists: its side has black height >= 1 because
		 * the removed black node's side had.
		 */
		if (x == xp->left) {
			w = xp->right;
			if (w->red) {
				w->red = 0;
				xp->red = 1;
				rotate_left(t, xp);
				w = xp->right;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->red = 1;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (!is_red(w->right)) {
				w->left->red = 0;
				w->red = 1;
				rotate_right(t, w);
				w = xp->right;
			}
			w->red = xp->red;
			xp->red = 0;
			w->right->red = 0;
			rotate_left(t, xp);
		} else {
			w = xp->left;
			if (w->red) {
				w->red = 0;
				xp->red = 1;
				rotate_right(t, xp);
				w = xp->left;
			}
			if (!is_red(w->left) && !is_red(w->right)) {
				w->red = 1;
				x = xp;
				xp = x->parent;
				continue;
			}
			if (!is_red(w->left)) {
				w->right->red = 0;
				w->red = 1;
				rotate_left(t, w);
				w = xp->left;
			}
			w->red = xp->red;
			xp->red = 0;
			w->left->red = 0;
			rotate_right(t, xp);
		}
		/* The extra black was absorbed by a rotation: done. */
		x = t->root;
		break;
	}
	if (x)
		x->red = 0;
}

void ek_rb_erase(struct ek_rb_root *t, struct ek_rb_node *n)
{
	struct ek_rb_node *x, *xp, *y;
	int removed_red;

	if (!n->left || !n->right) {
		/* At most one child: splice n out directly. */
		x = n->left ? n->left : n->right;
		xp = n->parent;
		removed_red = n->red;
		replace_child(t, n, x);
	} else {
		/* Two children: the successor y takes n's place and colour. */
		y = n->right;
		while (y->left)
			y = y->left;
		removed_red = y->red;
		x = y->right;
		if (y->parent == n) {
			xp = y;
		} else {
			xp = y->parent;
			replace_child(t, y, x);
			y->right = n->right;
			y->right->parent = y;
		}
		replace_child(t, n, y);
		y->left = n->left;
		y->left->parent = y;
		y->red = n->red;
	}
	t->count--;
	if (!removed_red)
		erase_fixup(t, x, xp);

	/* Leave no dangling links in the removed node. */
	n->parent = EK_NULL;
	n->left = EK_NULL;
	n->right = EK_NULL;
	n->red = 0;
}

struct ek_rb_node *ek_rb_first(const struct ek_rb_root *t)
{
	struct ek_rb_node *n = t->root;

	if (!n)
		return EK_NULL;
	while (n->left)
		n = n->left;
	return n;
}

struct ek_rb_node *ek_rb_last(const struct ek_rb_root *t)
{
	struct ek_rb_node *n = t->root;

	if (!n)
		return EK_NULL;
	while (n->right)
		n = n->right;
	return n;
}

struct ek_rb_node *ek_rb_next(const struct ek_rb_node *n)
{
	const struct ek_rb_node *p;

	if (n->right) {
		n = n->right;
		while (n->left)
			n = n->left;
		return (struct ek_rb_node *)n;
	}
	/* Climb until we come up from a left child. */
	while ((p = n->parent) && n == p->right)
		n = p;
	return (struct ek_rb_node *)p;
}

struct ek_rb_node *ek_rb_prev(const struct ek_rb_node *n)
{
	const struct ek_rb_node *p;

	if (n->left) {
		n = n->left;
		while (n->right)
			n = n->right;
		return (struct ek_rb_node *)n;
	}
	while ((p = n->parent) && n == p->left)
		n = p;
	return (struct ek_rb_node *)p;
}

struct ek_rb_node *ek_rb_lower_bound(const struct ek_rb_root *t, ek_u64 key)
{
	struct ek_rb_node *n = t->root, *best = EK_NULL;

	while (n) {
		if (n->key >= key) {
			/* A candidate; an earlier one may be to the left. */
			best = n;
			n = n->left;
		} else {
			n = n->right;
		}
	}
	return best;
}

struct ek_rb_node *ek_rb_find(const struct ek_rb_root *t, ek_u64 key)
{
	struct ek_rb_node *n = ek_rb_lower_bound(t, key);

	return n && n->key == key ? n : EK_NULL;
}
