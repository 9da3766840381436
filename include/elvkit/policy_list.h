/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every policy the project has: the one list. Adding a policy is one line
 * here (plus its source in src/policy/ and, for a kernel module, its glue
 * file in src/modules/). Hosts that offer policies by name (the simulator,
 * its cost harness, --list, --help) build their tables from this list.
 *
 * EK_POLICY_LIST(X) calls X(sym) per policy, where the policy's source
 * defines `const struct ek_policy ek_<sym>_policy`. Order is the order in
 * which hosts list and run them.
 */
#ifndef ELVKIT_POLICY_LIST_H
#define ELVKIT_POLICY_LIST_H

#include "policy.h"

#define EK_POLICY_LIST(X)	\
	X(deadline_read)	\
	X(anticipatory)		\
	X(fair_queue)		\
	X(noop)			\
	X(elevator)		\
	X(read_latency2)	\
	X(mq_deadline)		\
	/* one line per policy above; every line ends in a backslash */

#define EK_POLICY_SYM(sym) ek_##sym##_policy
#define EK_POLICY_DECLARE(sym) extern const struct ek_policy EK_POLICY_SYM(sym);
EK_POLICY_LIST(EK_POLICY_DECLARE)

#endif
