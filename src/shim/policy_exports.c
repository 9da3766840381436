// SPDX-License-Identifier: GPL-2.0
/*
 * The host-independent policy library (src/lib/rbtree.c) is linked once,
 * into the shim, and exported from here, so policy sources stay free of
 * kernel headers and policy modules share one copy.
 */
#include <linux/export.h>

#include "elvkit/rbtree.h"

EXPORT_SYMBOL_GPL(ek_rb_insert);
EXPORT_SYMBOL_GPL(ek_rb_erase);
EXPORT_SYMBOL_GPL(ek_rb_first);
EXPORT_SYMBOL_GPL(ek_rb_last);
EXPORT_SYMBOL_GPL(ek_rb_next);
EXPORT_SYMBOL_GPL(ek_rb_prev);
EXPORT_SYMBOL_GPL(ek_rb_lower_bound);
EXPORT_SYMBOL_GPL(ek_rb_find);
