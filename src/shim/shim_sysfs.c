// SPDX-License-Identifier: GPL-2.0
/*
 * A policy's tunables and counters as files in /sys/block/DEV/queue/iosched/:
 * the tunables first, then the (read-only) counters, each in table order.
 * The elevator core calls show/store with the elevator_queue only, not the
 * attribute, so one show/store pair is generated per tunable index and one
 * show per counter index.
 * A store that is not an integer, or out of the tunable's range, returns
 * -EINVAL and keeps the old value.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "shim_internal.h"

static ssize_t ek_tun_show(struct elevator_queue *e, char *page, u32 idx)
{
	struct ek_queue *eq = e->elevator_data;
	unsigned long flags;
	s64 v;

	spin_lock_irqsave(&eq->lock, flags);
	v = eq->values[idx];
	spin_unlock_irqrestore(&eq->lock, flags);
	return sysfs_emit(page, "%lld\n", (long long)v);
}

static ssize_t ek_cnt_show(struct elevator_queue *e, char *page, u32 idx)
{
	struct ek_queue *eq = e->elevator_data;
	const struct ek_policy *p = &eq->sched->ops;
	unsigned long flags;
	u64 v;

	spin_lock_irqsave(&eq->lock, flags);
	v = p->read_counter(eq->sd, idx);
	spin_unlock_irqrestore(&eq->lock, flags);
	return sysfs_emit(page, "%llu\n", (unsigned long long)v);
}

static ssize_t ek_tun_store(struct elevator_queue *e, const char *page,
			    size_t count, u32 idx)
{
	struct ek_queue *eq = e->elevator_data;
	const struct ek_policy *p = &eq->sched->ops;
	unsigned long flags;
	s64 v;
	int ret;

	ret = ek_tunable_parse(&p->tunables[idx], page, &v);
	if (ret)
		return ret;
	spin_lock_irqsave(&eq->lock, flags);
	ret = ek_tunable_set(p, eq->sd, eq->values, idx, v);
	/* A shorter wait or deadline may let dispatch go now. */
	if (!ret)
		eq->kick = true;
	if (!ret && (int)idx == eq->sched->async_idx)
		ek_async_publish(eq);
	ek_unlock_and_kick(eq, flags);
	return ret ? ret : count;
}

#define EK_TUN_SLOT(n)							\
static ssize_t ek_tun_show_##n(struct elevator_queue *e, char *page)	\
{									\
	return ek_tun_show(e, page, n);					\
}									\
static ssize_t ek_tun_store_##n(struct elevator_queue *e,		\
				const char *page, size_t count)		\
{									\
	return ek_tun_store(e, page, count, n);				\
}

#define EK_CNT_SLOT(n)							\
static ssize_t ek_cnt_show_##n(struct elevator_queue *e, char *page)	\
{									\
	return ek_cnt_show(e, page, n);					\
}

#define EK_SLOTS(slot)							\
	slot(0) slot(1) slot(2) slot(3) slot(4) slot(5) slot(6) slot(7)	\
	slot(8) slot(9) slot(10) slot(11) slot(12) slot(13) slot(14) slot(15)

EK_SLOTS(EK_TUN_SLOT)
EK_SLOTS(EK_CNT_SLOT)

#define EK_TUN_ENTRY(n) { ek_tun_show_##n, ek_tun_store_##n },
static const struct {
	ssize_t (*show)(struct elevator_queue *e, char *page);
	ssize_t (*store)(struct elevator_queue *e, const char *page,
			 size_t count);
} ek_tun_slots[EK_MAX_TUNABLES] = { EK_SLOTS(EK_TUN_ENTRY) };

#define EK_CNT_ENTRY(n) ek_cnt_show_##n,
static ssize_t (*const ek_cnt_slots[EK_MAX_COUNTERS])(struct elevator_queue *e,
						      char *page) = {
	EK_SLOTS(EK_CNT_ENTRY)
};

/*
 * An attribute built at run time, not a static one: sysfs_attr_init()
 * gives it the lockdep key a static attribute has by itself (without it a
 * lockdep kernel warns "key has not been registered" at the first switch
 * and turns lock checking off).
 */
static void ek_attr(struct elv_fs_entry *a, const char *name, umode_t mode)
{
	sysfs_attr_init(&a->attr);
	a->attr.name = name;
	a->attr.mode = mode;
}

/* The policy is validated: its tables fit the slots. */
void ek_build_attrs(struct ek_sched *s)
{
	const struct ek_policy *p = &s->ops;
	struct elv_fs_entry *a = s->attrs;
	u32 i;

	for (i = 0; i < p->nr_tunables; i++, a++) {
		ek_attr(a, p->tunables[i].name, 0644);
		a->show = ek_tun_slots[i].show;
		a->store = ek_tun_slots[i].store;
	}
	for (i = 0; i < p->nr_counters; i++, a++) {
		ek_attr(a, p->counters[i].name, 0444);
		a->show = ek_cnt_slots[i];
	}
	/* the entry after the last stays zeroed: the terminating entry */
	s->et.elevator_attrs = s->attrs;
	s->async_idx = ek_tunable_find(p, "async_depth");
	ek_tunables_default(p, s->defaults);
}

/*
 * Where the queue has an async_depth of its own (queue/async_depth, 7.2),
 * it shows the policy's async_depth tunable, and a store there, or the
 * kernel's rescaling of it when nr_requests changes, is a store of the
 * tunable: either file sets the one limit, as for the kernel's own
 * schedulers. The tunable's 0 (no limit) is nr_requests in the queue's
 * terms, as mq-deadline starts it. Under eq->lock, or before the queue
 * is used.
 */
void ek_async_publish(struct ek_queue *eq)
{
	u32 nr = eq->host.dev.nr_requests;
	int i = eq->sched->async_idx;
	s64 v = i >= 0 ? eq->values[i] : 0;

	if (ek_queue_has_async_depth())
		ek_queue_set_async_depth(eq->q, v > 0 && v < nr ? v : nr);
}

/* depth_updated: take the queue's value, which the kernel may have written. */
void ek_async_follow(struct ek_queue *eq)
{
	u32 nr = eq->host.dev.nr_requests;
	int i = eq->sched->async_idx;
	u32 n;

	if (!ek_queue_has_async_depth())
		return;
	n = ek_queue_async_depth(eq->q);
	if (i >= 0)
		ek_tunable_set(&eq->sched->ops, eq->sd, eq->values, i,
			       n < nr ? n : 0);
	ek_async_publish(eq);
}

/* "key=value,key=value": defaults for queues that select the policy later. */
int ek_parse_defaults(struct ek_sched *s, const char *defaults)
{
	const struct ek_policy *p = &s->ops;
	char *buf, *cur, *item, *val;
	int ret = 0, i;

	if (!defaults || !*defaults)
		return 0;
	buf = kstrdup(defaults, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	cur = buf;
	while ((item = strsep(&cur, ",")) && !ret) {
		if (!*item)
			continue;
		val = strchr(item, '=');
		ret = -EINVAL;
		if (!val) {
			pr_err("elvkit: %s: default '%s' is not key=value\n",
			       p->name, item);
			break;
		}
		*val++ = '\0';
		i = ek_tunable_find(p, item);
		if (i >= 0)
			ret = ek_tunable_parse(&p->tunables[i], val,
					       &s->defaults[i]);
		if (ret)
			pr_err("elvkit: %s: bad default '%s=%s'\n", p->name, item, val);
	}
	kfree(buf);
	return ret;
}
