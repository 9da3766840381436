// SPDX-License-Identifier: GPL-2.0
/* anticipatory: deadline batches plus waiting out deceptive idleness. */
#include "elvkit_shim.h"
/* The policy, in this translation unit: EK_POLICY_MODULE calls it directly. */
#include "../policy/anticipatory.c"

EK_POLICY_MODULE(ek_anticipatory_policy, "anticipatory",
		 "elvkit anticipatory I/O scheduler: waits briefly for a reader's next nearby read");
