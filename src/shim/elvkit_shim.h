/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a policy module sees of the elvkit shim: register a host-independent
 * policy as a blk-mq elevator, and unregister it. A policy module is only
 * this glue; EK_POLICY_MODULE() writes all of it.
 */
#ifndef ELVKIT_SHIM_H
#define ELVKIT_SHIM_H

#include <linux/module.h>
#include <linux/moduleparam.h>

#include "elvkit/policy.h"
#include "elvkit/version.h"
#include "shim_hot.h"

/*
 * Register policy as an elevator owned by owner (the policy module, so that
 * the module stays pinned while a queue uses it), with hot, the per-request
 * operations written for it in its module (EK_HOT_OPS). defaults is a list
 * like "read_expire=100,fifo_batch=8" overriding the policy's default
 * tunables for queues that select it from now on, or NULL.
 */
int elvkit_register(const struct ek_policy *policy,
		    const struct ek_hot_ops *hot, struct module *owner,
		    const char *defaults);
void elvkit_unregister(const struct ek_policy *policy);

/*
 * The whole module glue of a policy module, whose file includes the
 * policy's source: the per-request operations (EK_HOT_OPS), a `defaults`
 * parameter, init and exit, and the alias through which writing NAME into
 * a queue's scheduler file loads the module.
 */
#define EK_POLICY_MODULE(policy, name, desc)				\
	EK_HOT_OPS(ek_hot_ops, policy);					\
	static char *defaults;						\
	module_param(defaults, charp, 0444);				\
	MODULE_PARM_DESC(defaults,					\
		"default tunables for new queues, e.g. key=value,key=value"); \
	static int __init ek_policy_module_init(void)			\
	{								\
		return elvkit_register(&(policy), &ek_hot_ops, THIS_MODULE, \
				       defaults);			\
	}								\
	static void __exit ek_policy_module_exit(void)			\
	{								\
		elvkit_unregister(&(policy));				\
	}								\
	module_init(ek_policy_module_init);				\
	module_exit(ek_policy_module_exit);				\
	MODULE_ALIAS(name "-iosched");					\
	MODULE_DESCRIPTION(desc);					\
	MODULE_VERSION(ELVKIT_VERSION);					\
	MODULE_LICENSE("GPL")

#endif
