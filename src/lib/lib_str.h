/* SPDX-License-Identifier: GPL-2.0 */
/* The two string helpers the freestanding libraries need (no libc). */
#ifndef ELVKIT_LIB_STR_H
#define ELVKIT_LIB_STR_H

#include "elvkit/types.h"

static inline ek_size_t ek_strlen(const char *s)
{
	ek_size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static inline int ek_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

#endif
