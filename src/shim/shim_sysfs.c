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

#include "shim_internal.h"

static ssize_t ek_tun_show(struct elevator_queue *e, char *page, u32 idx)
{
	struct ek_queue *eq = e->elevator_data;

	return sysfs_emit(page, "%lld\n", (long long)READ_ONCE(eq->values[idx]));
}

static ssize_t ek_cnt_show(struct elevator_queue *e, char *page, u32 idx)
{
	struct ek_queue *eq = e->elevator_data;
	const struct ek_policy *p = eq->sched->policy;
	unsigned long flags;
	u64 v;

	spin_lock_irqsave(&eq->lock, flags);
	v = p->read_counter(eq->sd, idx);
	spin_unlock_irqrestore(&eq->lock, flags);
	return sysfs_emit(page, "%llu\n", (unsigned long long)v);
}

static int ek_parse_value(const struct ek_tunable *t, const char *buf, s64 *out)
{
	long long v;

	if (kstrtoll(buf, 10, &v) || v < t->min || v > t->max)
		return -EINVAL;
	*out = v;
	return 0;
}

static ssize_t ek_tun_store(struct elevator_queue *e, const char *page,
			    size_t count, u32 idx)
{
	struct ek_queue *eq = e->elevator_data;
	const struct ek_policy *p = eq->sched->policy;
	const struct ek_tunable *t = &p->tunables[idx];
	unsigned long flags;
	s64 v;

	if (ek_parse_value(t, page, &v))
		return -EINVAL;
	spin_lock_irqsave(&eq->lock, flags);
	WRITE_ONCE(eq->values[idx], v);
	p->set_tunable(eq->sd, idx, v);
	spin_unlock_irqrestore(&eq->lock, flags);
	/* A shorter wait or deadline may let dispatch go now. */
	blk_mq_delay_run_hw_queues(eq->q, 0);
	return count;
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

int ek_build_attrs(struct ek_sched *s)
{
	const struct ek_policy *p = s->policy;
	struct elv_fs_entry *a = s->attrs;
	u32 i;

	if (p->nr_tunables > EK_MAX_TUNABLES ||
	    p->nr_counters > EK_MAX_COUNTERS)
		return -E2BIG;
	for (i = 0; i < p->nr_tunables; i++, a++) {
		const struct ek_tunable *t = &p->tunables[i];

		if (t->def < t->min || t->def > t->max)
			return -EINVAL;
		a->attr.name = t->name;
		a->attr.mode = 0644;
		a->show = ek_tun_slots[i].show;
		a->store = ek_tun_slots[i].store;
		s->defaults[i] = t->def;
	}
	for (i = 0; i < p->nr_counters; i++, a++) {
		a->attr.name = p->counters[i].name;
		a->attr.mode = 0444;
		a->show = ek_cnt_slots[i];
	}
	/* the entry after the last stays zeroed: the terminating entry */
	s->et.elevator_attrs = s->attrs;
	return 0;
}

/* "key=value,key=value": defaults for queues that select the policy later. */
int ek_parse_defaults(struct ek_sched *s, const char *defaults)
{
	const struct ek_policy *p = s->policy;
	char *buf, *cur, *item, *val;
	int ret = 0;
	u32 i;

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
		for (i = 0; i < p->nr_tunables; i++) {
			const struct ek_tunable *t = &p->tunables[i];

			if (strcmp(t->name, item))
				continue;
			ret = ek_parse_value(t, val, &s->defaults[i]);
			break;
		}
		if (ret)
			pr_err("elvkit: %s: bad default '%s=%s'\n", p->name, item, val);
	}
	kfree(buf);
	return ret;
}
