/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host side of the policy contract (policy.h), written once for every
 * host: the kernel shim, the simulator, the cost harness and the unit-test
 * host. Which callbacks a policy must have, what the optional ones default
 * to, tunable defaults, lookup by name, the sysfs number syntax, the
 * range-checked set, and the order in which a process context ends: a rule
 * kept in four hosts drifts, so it lives here (src/lib/). Freestanding
 * like the policies: no libc, no kernel headers.
 */
#ifndef ELVKIT_CONTRACT_H
#define ELVKIT_CONTRACT_H

#include "policy.h"

/* Numbered as Linux's EINVAL, so the shim can return -EK_EINVAL as is. */
#define EK_EINVAL 22

/*
 * 0 if p keeps the contract, else -EK_EINVAL with *why (if why is not
 * NULL) naming the first thing wrong.
 */
int ek_policy_validate(const struct ek_policy *p, const char **why);

/*
 * Registration, once per policy in every host: validate p, then make
 * *ops a copy of it in which every optional callback p leaves NULL does
 * nothing (front_merge_candidate: offers nothing). Hosts call through
 * ops without checking for NULL. Returns what ek_policy_validate does.
 */
int ek_policy_load(struct ek_policy *ops, const struct ek_policy *p,
		   const char **why);

/*
 * A dispatched request finished, for a host that serialises every call
 * (single-threaded): the policy's unlocked completion if it takes it
 * (then 1: has_work may have turned true without a kick), else completed
 * (0). The kernel shim splits the two around its lock. stamp is what the
 * unlocked completion is handed (now, or 0 for a host without a stamp).
 */
int ek_policy_complete(const struct ek_policy *p, void *sd,
			struct ek_rq *rq, ek_u64 now, ek_u64 stamp);

/*
 * A process context's life, in the one order every host follows: start
 * it before its first request; end it once when the process is gone.
 * Ending sets EK_PCTX_EXITED first and then calls pctx_exit, so the
 * policy sees the flag inside pctx_exit and ever after; a second end is
 * ignored.
 */
void ek_pctx_start(const struct ek_policy *p, void *sd, struct ek_pctx *pctx,
		   ek_u32 owner);
void ek_pctx_end(const struct ek_policy *p, void *sd, struct ek_pctx *pctx);

/* values[i] = tunables[i].def for every tunable (init's values). */
void ek_tunables_default(const struct ek_policy *p, ek_s64 *values);
/* Index of the tunable or counter called name, or -1. */
int ek_tunable_find(const struct ek_policy *p, const char *name);
int ek_counter_find(const struct ek_policy *p, const char *name);
/*
 * Parse s as a sysfs store of t: a decimal integer with an optional sign
 * and one optional trailing newline, as the kernel's kstrtoll(s, 10);
 * then range-check it. 0 and *v, or -EK_EINVAL.
 */
int ek_tunable_parse(const struct ek_tunable *t, const char *s, ek_s64 *v);
/*
 * Range-check v for tunable idx; if it fits, values[idx] = v and, once
 * the policy runs (sd not NULL), set_tunable. 0, or -EK_EINVAL with
 * nothing changed.
 */
int ek_tunable_set(const struct ek_policy *p, void *sd, ek_s64 *values,
		   ek_u32 idx, ek_s64 v);

#endif
