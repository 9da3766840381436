// SPDX-License-Identifier: GPL-2.0
/*
 * elvkit: the elevator-ops shim. Policy modules register host-independent
 * policies here; each becomes a blk-mq elevator the kernel lists in
 * /sys/block/DEV/queue/scheduler. This module owns every difference of the
 * kernel's private elevator API (kernel_elevator.h, compat.h).
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "elvkit_shim.h"
#include "shim_internal.h"

static LIST_HEAD(ek_scheds);
static DEFINE_MUTEX(ek_scheds_lock);

int elvkit_register(const struct ek_policy *policy,
		    const struct ek_hot_ops *hot, struct module *owner,
		    const char *defaults)
{
	struct ek_sched *s;
	const char *why;
	int ret;

	BUILD_BUG_ON(EK_EINVAL != EINVAL);
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	ret = ek_policy_load(&s->ops, policy, &why);
	if (ret) {
		pr_err("elvkit: policy %s breaks the contract: %s\n",
		       policy->name ? policy->name : "(unnamed)", why);
		kfree(s);
		return ret;
	}
	s->policy = policy;
	s->hot = hot;
	s->et.elevator_name = policy->name;
	s->et.elevator_owner = owner;
	if (policy->pctx_size) {
		s->et.icq_size = sizeof(struct ek_icq) + policy->pctx_size;
		s->et.icq_align = __alignof__(struct ek_icq);
	}
	ek_fill_ops(s);
	ek_build_attrs(s);
	ret = ek_parse_defaults(s, defaults);
	if (!ret)
		ret = elv_register(&s->et);
	if (ret) {
		pr_err("elvkit: registering %s failed: %d\n", policy->name, ret);
		kfree(s);
		return ret;
	}
	mutex_lock(&ek_scheds_lock);
	list_add_tail(&s->node, &ek_scheds);
	mutex_unlock(&ek_scheds_lock);
	pr_info("elvkit: registered io scheduler %s\n", policy->name);
	return 0;
}
EXPORT_SYMBOL_GPL(elvkit_register);

void elvkit_unregister(const struct ek_policy *policy)
{
	struct ek_sched *s, *found = NULL;

	mutex_lock(&ek_scheds_lock);
	list_for_each_entry(s, &ek_scheds, node) {
		if (s->policy == policy) {
			found = s;
			list_del(&s->node);
			break;
		}
	}
	mutex_unlock(&ek_scheds_lock);
	if (WARN_ON(!found))
		return;
	elv_unregister(&found->et);
	kfree(found);
}
EXPORT_SYMBOL_GPL(elvkit_unregister);

MODULE_DESCRIPTION("elvkit: elevator-ops shim for host-independent I/O scheduling policies");
MODULE_VERSION(ELVKIT_VERSION);
MODULE_LICENSE("GPL");
