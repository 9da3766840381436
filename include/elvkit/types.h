/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixed-width types for host-independent policy code. Built from the
 * compiler's predefined macros so that no kernel or libc header is needed.
 */
#ifndef ELVKIT_TYPES_H
#define ELVKIT_TYPES_H

typedef __UINT8_TYPE__ ek_u8;
typedef __UINT16_TYPE__ ek_u16;
typedef __UINT32_TYPE__ ek_u32;
/*
 * 64-bit types are spelled "long long" on purpose: that is what the kernel's
 * u64/s64 are, so function pointers taking them match on both hosts (the
 * compiler's __UINT64_TYPE__ is "unsigned long" on LP64). Print with %llu.
 */
typedef unsigned long long ek_u64;
typedef __INT32_TYPE__ ek_s32;
typedef long long ek_s64;
typedef __SIZE_TYPE__ ek_size_t;

#define EK_NULL ((void *)0)
#define EK_U64_MAX (~(ek_u64)0)
#define EK_NSEC_PER_MSEC 1000000ULL
#define EK_NSEC_PER_USEC 1000ULL

/*
 * Inlining the compiler would not choose by itself, for the paths every
 * request takes (as the kernel's __always_inline and noinline).
 */
#define ek_always_inline inline __attribute__((__always_inline__))
#define ek_noinline __attribute__((__noinline__))

#define ek_container_of(ptr, type, member) \
	((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

static inline ek_u64 ek_min_u64(ek_u64 a, ek_u64 b) { return a < b ? a : b; }
static inline ek_u64 ek_max_u64(ek_u64 a, ek_u64 b) { return a > b ? a : b; }

#endif
