/* SPDX-License-Identifier: GPL-2.0 */
/* The shim's own structures, shared by its source files. */
#ifndef ELVKIT_SHIM_INTERNAL_H
#define ELVKIT_SHIM_INTERNAL_H

#include <linux/hrtimer.h>
#include <linux/iocontext.h>
#include <linux/list.h>
#include <linux/spinlock.h>

#include "elv_private.h"
#include "elvkit_hdr_facts.h"
#include "elvkit/contract.h"

/* One registered policy: the elevator type built for it. */
struct ek_sched {
	const struct ek_policy *policy;	/* as registered (unregister) */
	struct ek_policy ops;		/* ek_policy_load()'s copy */
	struct elevator_type et;
	struct elv_fs_entry attrs[EK_MAX_TUNABLES + EK_MAX_COUNTERS + 1];
	s64 defaults[EK_MAX_TUNABLES];
	struct list_head node;
};

/* One queue using a policy: elevator_queue->elevator_data. */
struct ek_queue {
	spinlock_t lock;		/* serialises every policy call */
	struct request_queue *q;
	struct ek_sched *sched;
	struct ek_host host;
	struct hrtimer timer;		/* the policy's "run me at T" */
	bool kick;			/* run the queue once the lock is dropped */
	struct list_head bypass;	/* requests without a descriptor: FIFO */
	s64 values[EK_MAX_TUNABLES];
	/* the policy's per-queue data follows, sched_size bytes */
	u64 sd[] __aligned(8);
};

/* A per-process context: the kernel's io_cq, then the policy's ek_pctx. */
struct ek_icq {
	struct io_cq icq;
	struct ek_pctx pctx;
	/* the policy's pctx_size bytes follow */
};

/* host_flags of an ek_rq */
#define EKH_INSERTED	0x1
#define EKH_DISPATCHED	0x2
#define EKH_MERGED	0x4

void ek_fill_ops(struct ek_sched *s);
void ek_build_attrs(struct ek_sched *s);
int ek_parse_defaults(struct ek_sched *s, const char *defaults);
int ek_rq_cache_create(void);
void ek_rq_cache_destroy(void);

#endif
