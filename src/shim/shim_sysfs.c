// SPDX-License-Identifier: GPL-2.0
/*
 * A policy's tunables and statistics as files in /sys/block/DEV/queue/iosched/.
 * The elevator core calls show/store with the elevator_queue only, not the
 * attribute, so one show/store pair is generated per slot index.
 * A store that is not an integer, or out of the tunable's range, returns
 * -EINVAL and keeps the old value.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "shim_internal.h"

static ssize_t ek_attr_show(struct elevator_queue *e, char *page, u32 idx)
{
	struct ek_queue *eq = e->elevator_data;
	const struct ek_policy *p = eq->sched->policy;
	unsigned long flags;
	s64 v;

	if (p->tunables[idx].flags & EK_TUN_RO) {
		spin_lock_irqsave(&eq->lock, flags);
		v = p->get_stat ? (s64)p->get_stat(eq->sd, idx) : 0;
		spin_unlock_irqrestore(&eq->lock, flags);
		return sysfs_emit(page, "%llu\n", (unsigned long long)v);
	}
	return sysfs_emit(page, "%lld\n", (long long)READ_ONCE(eq->values[idx]));
}

static int ek_parse_value(const struct ek_tunable *t, const char *buf, s64 *out)
{
	long long v;

	if (kstrtoll(buf, 10, &v) || v < t->min || v > t->max)
		return -EINVAL;
	*out = v;
	return 0;
}

static ssize_t ek_attr_store(struct elevator_queue *e, const char *page,
			     size_t count, u32 idx)
{
	struct ek_queue *eq = e->elevator_data;
	const struct ek_policy *p = eq->sched->policy;
	const struct ek_tunable *t = &p->tunables[idx];
	unsigned long flags;
	s64 v;

	if (t->flags & EK_TUN_RO)
		return -EPERM;
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

#define EK_ATTR_SLOT(n)							\
static ssize_t ek_show_##n(struct elevator_queue *e, char *page)	\
{									\
	return ek_attr_show(e, page, n);				\
}									\
static ssize_t ek_store_##n(struct elevator_queue *e, const char *page,	\
			    size_t count)				\
{									\
	return ek_attr_store(e, page, count, n);			\
}

EK_ATTR_SLOT(0) EK_ATTR_SLOT(1) EK_ATTR_SLOT(2) EK_ATTR_SLOT(3)
EK_ATTR_SLOT(4) EK_ATTR_SLOT(5) EK_ATTR_SLOT(6) EK_ATTR_SLOT(7)
EK_ATTR_SLOT(8) EK_ATTR_SLOT(9) EK_ATTR_SLOT(10) EK_ATTR_SLOT(11)
EK_ATTR_SLOT(12) EK_ATTR_SLOT(13) EK_ATTR_SLOT(14) EK_ATTR_SLOT(15)

#define EK_SLOT(n) { ek_show_##n, ek_store_##n }
static const struct {
	ssize_t (*show)(struct elevator_queue *e, char *page);
	ssize_t (*store)(struct elevator_queue *e, const char *page,
			 size_t count);
} ek_slots[EK_MAX_TUNABLES] = {
	EK_SLOT(0), EK_SLOT(1), EK_SLOT(2), EK_SLOT(3),
	EK_SLOT(4), EK_SLOT(5), EK_SLOT(6), EK_SLOT(7),
	EK_SLOT(8), EK_SLOT(9), EK_SLOT(10), EK_SLOT(11),
	EK_SLOT(12), EK_SLOT(13), EK_SLOT(14), EK_SLOT(15),
};

int ek_build_attrs(struct ek_sched *s)
{
	const struct ek_policy *p = s->policy;
	u32 i;

	if (p->nr_tunables > EK_MAX_TUNABLES)
		return -E2BIG;
	for (i = 0; i < p->nr_tunables; i++) {
		const struct ek_tunable *t = &p->tunables[i];
		struct elv_fs_entry *a = &s->attrs[i];

		if (t->def < t->min || t->def > t->max)
			return -EINVAL;
		a->attr.name = t->name;
		a->show = ek_slots[i].show;
		if (t->flags & EK_TUN_RO) {
			a->attr.mode = 0444;
		} else {
			a->attr.mode = 0644;
			a->store = ek_slots[i].store;
		}
		s->defaults[i] = (t->flags & EK_TUN_RO) ? 0 : t->def;
	}
	/* attrs[nr_tunables] stays zeroed: the terminating entry */
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

			if (strcmp(t->name, item) || (t->flags & EK_TUN_RO))
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
