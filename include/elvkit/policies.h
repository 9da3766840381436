/* SPDX-License-Identifier: GPL-2.0 */
/* Every policy the project has, for hosts that list them (simulator, tests). */
#ifndef ELVKIT_POLICIES_H
#define ELVKIT_POLICIES_H

#include "policy.h"

extern const struct ek_policy ek_deadline_read_policy;
extern const struct ek_policy ek_anticipatory_policy;
/* Baselines for the simulator (src/policy/noop.c, src/policy/elevator.c:
 * the 2.4 elevator and read-latency2). */
extern const struct ek_policy ek_noop_policy;
extern const struct ek_policy ek_elevator_policy;
extern const struct ek_policy ek_read_latency2_policy;

#endif
