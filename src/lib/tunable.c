// SPDX-License-Identifier: GPL-2.0
/*
 * Tunables and counters as every host handles them: defaults, lookup by
 * name, the sysfs number syntax and the range-checked set (see
 * include/elvkit/contract.h).
 */
#include "elvkit/contract.h"
#include "lib_str.h"

void ek_tunables_default(const struct ek_policy *p, ek_s64 *values)
{
	ek_u32 i;

	for (i = 0; i < p->nr_tunables; i++)
		values[i] = p->tunables[i].def;
}

int ek_tunable_find(const struct ek_policy *p, const char *name)
{
	ek_u32 i;

	for (i = 0; i < p->nr_tunables; i++)
		if (ek_streq(p->tunables[i].name, name))
			return (int)i;
	return -1;
}

int ek_counter_find(const struct ek_policy *p, const char *name)
{
	ek_u32 i;

	for (i = 0; i < p->nr_counters; i++)
		if (ek_streq(p->counters[i].name, name))
			return (int)i;
	return -1;
}

/*
 * kstrtoll(s, 10, v)'s syntax: one optional sign, at least one digit, one
 * optional newline (what `echo` adds), nothing else; no value outside
 * [-2^63, 2^63 - 1]. The shim used kstrtoll itself; the same rule here
 * lets every host parse a store the way the kernel does.
 */
static int ek_parse_s64(const char *s, ek_s64 *v)
{
	ek_u64 mag = 0, limit = (ek_u64)1 << 63;
	int neg = *s == '-';

	if (*s == '-' || *s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return -EK_EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		ek_u64 d = (ek_u64)(*s - '0');

		if (mag > (limit - d) / 10)
			return -EK_EINVAL;	/* beyond 2^63 */
		mag = mag * 10 + d;
	}
	if (*s == '\n')
		s++;
	if (*s || (!neg && mag == limit))
		return -EK_EINVAL;
	/* -2^63 is the one magnitude whose negation needs the wrap. */
	*v = neg ? (ek_s64)(0 - mag) : (ek_s64)mag;
	return 0;
}

int ek_tunable_parse(const struct ek_tunable *t, const char *s, ek_s64 *v)
{
	ek_s64 x;

	if (ek_parse_s64(s, &x) || x < t->min || x > t->max)
		return -EK_EINVAL;
	*v = x;
	return 0;
}

int ek_tunable_set(const struct ek_policy *p, void *sd, ek_s64 *values,
		   ek_u32 idx, ek_s64 v)
{
	const struct ek_tunable *t;

	if (idx >= p->nr_tunables)
		return -EK_EINVAL;
	t = &p->tunables[idx];
	if (v < t->min || v > t->max)
		return -EK_EINVAL;
	values[idx] = v;
	if (sd)
		p->set_tunable(sd, idx, v);
	return 0;
}
