// SPDX-License-Identifier: GPL-2.0
/*
 * The libraries policies use (src/lib/rbtree.c, pheap.c, dlq.c) are linked
 * once, into the shim, and exported from here, so policy sources stay free
 * of kernel headers and policy modules share one copy.
 */
#include <linux/export.h>

#include "elvkit/dlq.h"
#include "elvkit/pheap.h"
#include "elvkit/rbtree.h"

EXPORT_SYMBOL_GPL(ek_rb_insert);
EXPORT_SYMBOL_GPL(ek_rb_erase);
EXPORT_SYMBOL_GPL(ek_rb_first);
EXPORT_SYMBOL_GPL(ek_rb_last);
EXPORT_SYMBOL_GPL(ek_rb_next);
EXPORT_SYMBOL_GPL(ek_rb_prev);
EXPORT_SYMBOL_GPL(ek_rb_lower_bound);
EXPORT_SYMBOL_GPL(ek_rb_find);

EXPORT_SYMBOL_GPL(ek_ph_insert_slow);
EXPORT_SYMBOL_GPL(ek_ph_erase_slow);
EXPORT_SYMBOL_GPL(ek_ph_pop_slow);

EXPORT_SYMBOL_GPL(ek_dlq_init);
EXPORT_SYMBOL_GPL(ek_dlq_add);
EXPORT_SYMBOL_GPL(ek_dlq_add_special);
EXPORT_SYMBOL_GPL(ek_dlq_del);
EXPORT_SYMBOL_GPL(ek_dlq_resort);
EXPORT_SYMBOL_GPL(ek_dlq_merge);

