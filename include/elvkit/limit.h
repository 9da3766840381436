/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mq-deadline's async_depth rule, for policies that favour synchronous
 * reads: every request except a synchronous read is allocated under a
 * limit, so that writes and read-ahead never take every request of the
 * pool a reader then has to wait for. One copy for every such policy.
 */
#ifndef ELVKIT_LIMIT_H
#define ELVKIT_LIMIT_H

#include "policy.h"

/*
 * The limit_depth answer for a pool of nr_requests with the policy's
 * async_depth tunable (0 = nr_requests, mq-deadline's default on every
 * supported kernel: no limit until the administrator sets one; a value
 * above nr_requests acts as nr_requests).
 */
static inline ek_u32 ek_async_limit(ek_u64 async_depth, ek_u32 nr_requests,
				    ek_u8 dir, ek_u8 sync)
{
	if (!ek_limit_applies(dir, sync))
		return 0;
	if (!async_depth || async_depth >= nr_requests)
		return 0;
	return (ek_u32)async_depth;
}

#define EK_ASYNC_DEPTH_HELP \
	"requests that are not synchronous reads may hold at most this many of nr_requests; 0 = nr_requests"
#define EK_ASYNC_DEPTH_MAX 65536

#endif
