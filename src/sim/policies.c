// SPDX-License-Identifier: GPL-2.0
/* The simulator's schedulers. Adding a policy: one line here (and its
 * declaration in include/elvkit/policies.h). */
#include <elvkit/policies.h>
#include "sim.h"

const struct ek_policy *const sim_policies[] = {
	&ek_deadline_read_policy,
	&ek_anticipatory_policy,
	&ek_noop_policy,
	&ek_elevator_policy,
	&ek_read_latency2_policy,
	NULL,
};
