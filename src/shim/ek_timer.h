/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one timer difference between the supported kernels, shared by the
 * shim and ekdisk: hrtimer_setup() replaced hrtimer_init() + ->function.
 * EK_FACT_HRTIMER_SETUP comes from elvkit_facts.h (scripts/kernel-facts.py).
 */
#ifndef ELVKIT_EK_TIMER_H
#define ELVKIT_EK_TIMER_H

#include <linux/hrtimer.h>
#include "elvkit_facts.h"

/* An absolute-time monotonic timer running fn. */
static inline void ek_hrtimer_setup(struct hrtimer *t,
				    enum hrtimer_restart (*fn)(struct hrtimer *))
{
#if EK_FACT_HRTIMER_SETUP
	hrtimer_setup(t, fn, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
#else
	hrtimer_init(t, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	t->function = fn;
#endif
}

#endif
