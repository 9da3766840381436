// SPDX-License-Identifier: GPL-2.0
/* The simulator's schedulers: every policy of include/elvkit/policy_list.h. */
#include <elvkit/policy_list.h>
#include "sim.h"

#define SIM_POLICY_ENTRY(sym) &EK_POLICY_SYM(sym),

const struct ek_policy *const sim_policies[] = {
	EK_POLICY_LIST(SIM_POLICY_ENTRY)
	NULL,
};
