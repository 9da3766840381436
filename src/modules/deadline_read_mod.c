// SPDX-License-Identifier: GPL-2.0
/* deadline-read: per-request deadlines that favour reads, sorted batches. */
#include "elvkit_shim.h"
/* The policy, in this translation unit: EK_POLICY_MODULE calls it directly. */
#include "../policy/deadline_read.c"

EK_POLICY_MODULE(ek_deadline_read_policy, "deadline-read",
		 "elvkit deadline-read I/O scheduler: read-favouring deadlines, sorted batches");
