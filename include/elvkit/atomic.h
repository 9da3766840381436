/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few atomic operations a policy needs for the one callback a host
 * may make without serialising it against the others (completed_unlocked,
 * policy.h). Built on the compiler's __atomic builtins, which both hosts'
 * compilers provide for naturally aligned 32-bit words without a library
 * call, so that no kernel or libc header is needed. Every access to a word
 * such a callback changes goes through these, under the lock too. The
 * 64-bit ones are for 64-bit hosts, the only ones elvkit builds for: a
 * 32-bit kernel would need a lock or a library call for them.
 */
#ifndef ELVKIT_ATOMIC_H
#define ELVKIT_ATOMIC_H

#include "types.h"

static inline ek_u32 ek_atomic_read(const ek_u32 *v)
{
	return __atomic_load_n(v, __ATOMIC_RELAXED);
}

static inline int ek_atomic_read_int(const int *v)
{
	return __atomic_load_n(v, __ATOMIC_RELAXED);
}

static inline void ek_atomic_set_int(int *v, int i)
{
	__atomic_store_n(v, i, __ATOMIC_RELAXED);
}

static inline ek_u64 ek_atomic_read64(const ek_u64 *v)
{
	return __atomic_load_n(v, __ATOMIC_RELAXED);
}

static inline void ek_atomic_set64(ek_u64 *v, ek_u64 i)
{
	__atomic_store_n(v, i, __ATOMIC_RELAXED);
}

static inline void ek_atomic_inc(ek_u32 *v)
{
	__atomic_fetch_add(v, 1, __ATOMIC_RELAXED);
}

/*
 * A count that says another word is up to date: the writer stores that
 * word, then lowers the count (release); a reader that reads the count
 * (acquire) and then the word sees the word as new as the count.
 */
static inline void ek_atomic_dec_release(ek_u32 *v)
{
	__atomic_fetch_sub(v, 1, __ATOMIC_RELEASE);
}

static inline ek_u32 ek_atomic_read_acquire(const ek_u32 *v)
{
	return __atomic_load_n(v, __ATOMIC_ACQUIRE);
}

/* Take one off *v, never below 0 (an unbalanced call is ignored). */
static inline void ek_atomic_dec_floor(ek_u32 *v)
{
	ek_u32 old = ek_atomic_read(v);

	while (old &&
	       !__atomic_compare_exchange_n(v, &old, old - 1, 0,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

#endif
