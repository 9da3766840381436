/* SPDX-License-Identifier: GPL-2.0 */
/* Intrusive circular doubly linked list for host-independent policy code. */
#ifndef ELVKIT_LIST_H
#define ELVKIT_LIST_H

#include "types.h"

struct ek_list {
	struct ek_list *next, *prev;
};

static inline void ek_list_init(struct ek_list *h)
{
	h->next = h;
	h->prev = h;
}

static inline int ek_list_empty(const struct ek_list *h)
{
	return h->next == h;
}

static inline void ek_list_insert_between(struct ek_list *n, struct ek_list *prev,
					  struct ek_list *next)
{
	n->prev = prev;
	n->next = next;
	prev->next = n;
	next->prev = n;
}

static inline void ek_list_add_tail(struct ek_list *n, struct ek_list *h)
{
	ek_list_insert_between(n, h->prev, h);
}

static inline void ek_list_add_head(struct ek_list *n, struct ek_list *h)
{
	ek_list_insert_between(n, h, h->next);
}

/* Unlinks n and leaves it self-linked, so ek_list_empty(n) is then true. */
static inline void ek_list_del(struct ek_list *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	ek_list_init(n);
}

#define ek_list_entry(ptr, type, member) ek_container_of(ptr, type, member)
#define ek_list_first(h, type, member) \
	(ek_list_empty(h) ? (type *)EK_NULL : ek_list_entry((h)->next, type, member))

#endif
