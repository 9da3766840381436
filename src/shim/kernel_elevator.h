/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's private blk-mq elevator structures (block/elevator.h and
 * block/blk-mq.h are in no headers package). Declared here the way the
 * target kernel lays them out; which shape applies is decided by
 * elvkit_facts.h, generated from that kernel's BTF and headers by
 * scripts/kernel-facts.py, not by version numbers.
 * src/shim/layout_check.c proves every size and offset against the BTF.
 * Only declarations live here; the helpers that bridge the differences are
 * in compat.h.
 */
#ifndef ELVKIT_KERNEL_ELEVATOR_H
#define ELVKIT_KERNEL_ELEVATOR_H

#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/hashtable.h>
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>

#include "elvkit_facts.h"

struct io_cq;
struct elevator_type;
struct elevator_queue;
struct blk_mq_alloc_data;
struct blk_mq_debugfs_attr;
struct elevator_tags;

enum elv_merge {
	ELEVATOR_NO_MERGE = 0,
	ELEVATOR_FRONT_MERGE = 1,
	ELEVATOR_BACK_MERGE = 2,
	ELEVATOR_DISCARD_MERGE = 3,
};

#if EK_FACT_INSERT_FLAGS
typedef unsigned int __bitwise blk_insert_t;
#define BLK_MQ_INSERT_AT_HEAD ((__force blk_insert_t)0x01)
typedef blk_insert_t ek_insert_arg_t;
#else
typedef bool ek_insert_arg_t;
#endif

struct elevator_mq_ops {
#if EK_FACT_INIT_SCHED_TAKES_EQ
	int (*init_sched)(struct request_queue *q, struct elevator_queue *eq);
#else
	int (*init_sched)(struct request_queue *q, struct elevator_type *e);
#endif
	void (*exit_sched)(struct elevator_queue *eq);
	int (*init_hctx)(struct blk_mq_hw_ctx *hctx, unsigned int idx);
	void (*exit_hctx)(struct blk_mq_hw_ctx *hctx, unsigned int idx);
#if EK_FACT_DEPTH_UPDATED_TAKES_Q
	void (*depth_updated)(struct request_queue *q);
#else
	void (*depth_updated)(struct blk_mq_hw_ctx *hctx);
#endif
#if EK_FACT_SCHED_DATA_OPS
	void *(*alloc_sched_data)(struct request_queue *q);
	void (*free_sched_data)(void *data);
#endif
	bool (*allow_merge)(struct request_queue *q, struct request *rq,
			    struct bio *bio);
	bool (*bio_merge)(struct request_queue *q, struct bio *bio,
			  unsigned int nr_segs);
	int (*request_merge)(struct request_queue *q, struct request **rq,
			     struct bio *bio);
	void (*request_merged)(struct request_queue *q, struct request *rq,
			       enum elv_merge type);
	void (*requests_merged)(struct request_queue *q, struct request *rq,
				struct request *next);
	void (*limit_depth)(blk_opf_t opf, struct blk_mq_alloc_data *data);
	void (*prepare_request)(struct request *rq);
	void (*finish_request)(struct request *rq);
	void (*insert_requests)(struct blk_mq_hw_ctx *hctx,
				struct list_head *list, ek_insert_arg_t flags);
	struct request *(*dispatch_request)(struct blk_mq_hw_ctx *hctx);
	bool (*has_work)(struct blk_mq_hw_ctx *hctx);
	void (*completed_request)(struct request *rq, u64 now);
	void (*requeue_request)(struct request *rq);
	struct request *(*former_request)(struct request_queue *q,
					  struct request *rq);
	struct request *(*next_request)(struct request_queue *q,
					struct request *rq);
	void (*init_icq)(struct io_cq *icq);
	void (*exit_icq)(struct io_cq *icq);
};

#define ELV_NAME_MAX 16

struct elv_fs_entry {
	struct attribute attr;
	ssize_t (*show)(struct elevator_queue *eq, char *page);
	ssize_t (*store)(struct elevator_queue *eq, const char *page,
			 size_t count);
};

struct elevator_type {
	struct kmem_cache *icq_cache;
	struct elevator_mq_ops ops;
	size_t icq_size;
	size_t icq_align;
	struct elv_fs_entry *elevator_attrs;
	const char *elevator_name;
	const char *elevator_alias;
#if EK_FACT_ELEVATOR_FEATURES
	const unsigned int elevator_features;
#endif
	struct module *elevator_owner;
#if EK_FACT_DEBUGFS_ATTRS
	const struct blk_mq_debugfs_attr *queue_debugfs_attrs;
	const struct blk_mq_debugfs_attr *hctx_debugfs_attrs;
#endif
	char icq_cache_name[ELV_NAME_MAX + 6];
	struct list_head list;
};

#define ELV_HASH_BITS 6

/* block/blk-mq.h: what limit_depth receives. */
struct blk_mq_alloc_data {
	struct request_queue *q;
	blk_mq_req_flags_t flags;
	unsigned int shallow_depth;
	blk_opf_t cmd_flags;
	req_flags_t rq_flags;
	unsigned int nr_tags;
#if EK_FACT_ALLOC_CACHED_RQS
	struct rq_list *cached_rqs;
#else
	struct request **cached_rq;
#endif
	struct blk_mq_ctx *ctx;
	struct blk_mq_hw_ctx *hctx;
};

struct elevator_queue {
	struct elevator_type *type;
#if EK_FACT_EQ_TAGS
	struct elevator_tags *et;
#endif
	void *elevator_data;
	struct kobject kobj;
	struct mutex sysfs_lock;
#if EK_FACT_EQ_FLAGS
	unsigned long flags;
#endif
#if EK_FACT_EQ_REGISTERED_BIT
	unsigned int registered:1;
#endif
	DECLARE_HASHTABLE(hash, ELV_HASH_BITS);
};

/* Exported by every supported kernel, declared in no public header. */
int elv_register(struct elevator_type *e);
void elv_unregister(struct elevator_type *e);
bool elv_bio_merge_ok(struct request *rq, struct bio *bio);
void elv_rqhash_del(struct request_queue *q, struct request *rq);
void elv_rqhash_add(struct request_queue *q, struct request *rq);
bool blk_mq_sched_try_merge(struct request_queue *q, struct bio *bio,
			    unsigned int nr_segs, struct request **merged_request);
bool blk_mq_sched_try_insert_merge(struct request_queue *q, struct request *rq,
				   struct list_head *free);
void blk_mq_sched_mark_restart_hctx(struct blk_mq_hw_ctx *hctx);
#if !EK_FACT_INIT_SCHED_TAKES_EQ
struct elevator_queue *elevator_alloc(struct request_queue *q,
				      struct elevator_type *e);
#endif
struct io_cq *ioc_find_get_icq(struct request_queue *q);

#endif
