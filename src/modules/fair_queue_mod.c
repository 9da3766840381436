// SPDX-License-Identifier: GPL-2.0
/* fair-queue: per-process fair queueing with idling and weight raising. */
#include "elvkit_shim.h"
/* The policy, in this translation unit: EK_POLICY_MODULE calls it directly. */
#include "../policy/fair_queue.c"

EK_POLICY_MODULE(ek_fair_queue_policy, "fair-queue",
		 "elvkit fair-queue I/O scheduler: per-process fair sharing, B-WF2Q+ budgets, ioprio classes");
