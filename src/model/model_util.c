// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the device models. Host-independent. */
#include "model.h"

ek_u64 ek_isqrt(ek_u64 x)
{
	ek_u64 r = 0, bit = (ek_u64)1 << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

void ek_mrq_insert_sorted(struct ek_list *head, struct ek_mrq *r)
{
	struct ek_list *p = head->prev;

	while (p != head && ek_list_entry(p, struct ek_mrq, link)->done_ns > r->done_ns)
		p = p->prev;
	ek_list_insert_between(&r->link, p, p->next);
}
