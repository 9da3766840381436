/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pseudo-random generator of every userspace host (simulator, cost
 * harness, unit tests): splitmix64. Runs are reproducible by seed, so the
 * hosts must draw the same sequence from the same state; one copy keeps
 * them from drifting apart. Freestanding, like the policies.
 */
#ifndef ELVKIT_RAND_H
#define ELVKIT_RAND_H

#include "types.h"

static inline ek_u64 ek_rand(ek_u64 *state)
{
	ek_u64 z = (*state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

/* Uniform enough below n (modulo bias is irrelevant here); 0 if n is 0. */
static inline ek_u64 ek_rand_below(ek_u64 *state, ek_u64 n)
{
	return n ? ek_rand(state) % n : 0;
}

#endif
