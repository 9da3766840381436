# shellcheck shell=bash
# What the kernel must never say: a report of a bug, a lockup, a stall or
# a hung task. The guest tests check their kernel log against it
# (999-dmesg-clean over the whole boot, the rel tests per test); the host
# finds the report that stopped a guest with it (vm_unfinished).
# shellcheck disable=SC2034 # read by the scripts that source this
KERNEL_BAD='WARNING:|BUG:|Oops|general protection|soft lockup|hard LOCKUP|blocked for more than|rcu_.*stall|rcu: INFO|KASAN|UBSAN|circular locking|inconsistent lock state|sleeping function called|list_add corruption|list_del corruption|refcount_t:|kernel BUG|Kernel panic|elvkit: .*(fail|error|bad)'
