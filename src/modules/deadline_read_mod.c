// SPDX-License-Identifier: GPL-2.0
/* deadline-read: per-request deadlines that favour reads, sorted batches. */
#include "elvkit_shim.h"
#include "elvkit/policy_list.h"

EK_POLICY_MODULE(ek_deadline_read_policy, "deadline-read",
		 "elvkit deadline-read I/O scheduler: read-favouring deadlines, sorted batches");
