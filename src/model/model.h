/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elvkit device models: host-independent C (no kernel, no libc headers),
 * like the policies, so that the simulator and a future kernel block device
 * can share them. A model is a passive state machine driven in virtual
 * nanoseconds: the host submits requests (up to queue_depth at once), asks
 * when the next one finishes and collects it at that time.
 *
 * Units of parameters: times in microseconds (_us) or milliseconds (_ms),
 * rates in MB/s (10^6 bytes per second), sizes in KB (1024) or GB (10^9).
 */
#ifndef ELVKIT_MODEL_H
#define ELVKIT_MODEL_H

#include <elvkit/types.h>
#include <elvkit/list.h>
#include "model_list.h"

/*
 * Request flags. FUA: this write goes to the media before it completes, even
 * with a write cache. FLUSH: completes once everything the device has
 * acknowledged is on the media (no data; nr_sectors may be 0).
 */
#define EK_MRQ_FUA 0x1u
#define EK_MRQ_FLUSH 0x2u

/* A request as the device sees it. The model owns `link` while it has it. */
struct ek_mrq {
	ek_u64 sector;
	ek_u32 nr_sectors;
	ek_u8 dir;		/* 0 read, 1 write */
	ek_u8 flags;		/* EK_MRQ_*; 0 for a plain read or write */
	ek_u64 submit_ns;	/* set by the model on submit */
	ek_u64 start_ns;	/* service began */
	ek_u64 done_ns;		/* service ends */
	void *tag;		/* the host's */
	struct ek_list link;
};

struct ek_model_param {
	const char *name;
	const char *unit;
	const char *help;
	ek_s64 def, min, max;
};

struct ek_model_type {
	const char *name;
	const char *description;
	ek_size_t size;			/* state bytes, zeroed by the host */
	const struct ek_model_param *params;
	ek_u32 nr_params;
	/* values: one per param, in range. Returns 0 or negative. */
	int (*init)(void *m, const ek_s64 *values);
	ek_u32 (*queue_depth)(void *m);
	int (*rotational)(void *m);
	ek_u64 (*capacity)(void *m);	/* sectors */
	/* Take a request at now; at most queue_depth outstanding. */
	void (*submit)(void *m, struct ek_mrq *r, ek_u64 now);
	/* When the next outstanding request finishes, or EK_U64_MAX. */
	ek_u64 (*next_done)(void *m);
	/* Hand back one request with done_ns <= now (earliest first), or NULL. */
	struct ek_mrq *(*complete)(void *m, ek_u64 now);
};

#define EK_MODEL_SYM(sym) ek_model_##sym
#define EK_MODEL_DECLARE(sym) extern const struct ek_model_type EK_MODEL_SYM(sym);
EK_MODEL_LIST(EK_MODEL_DECLARE)

/* Every model of model_list.h, in its order, NULL-terminated (model_table.c). */
extern const struct ek_model_type *const ek_models[];

/* helpers shared by the models (model_util.c) */
ek_u64 ek_isqrt(ek_u64 x);
/*
 * floor(x * num / den), den > 0. Exact when x * num fits in 64 bits, or
 * else when (den - 1) * num does; no 128-bit division (no libgcc helpers
 * in a kernel).
 */
static inline ek_u64 ek_muldiv(ek_u64 x, ek_u64 num, ek_u64 den)
{
	if (!num || x <= EK_U64_MAX / num)
		return x * num / den;
	return (x / den) * num + (x % den) * num / den;
}
/* Keep `r` in a list sorted by done_ns (stable among equal times). */
void ek_mrq_insert_sorted(struct ek_list *head, struct ek_mrq *r);

#endif
