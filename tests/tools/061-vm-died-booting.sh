#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="a guest whose kernel died before its init reached the command is booted again; one that died later, or failed without a kernel report, is not"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 1
. scripts/lib/kernels.sh
. scripts/lib/vm.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fail() { echo "$*"; exit 1; }
boot() {
	printf '[    0.000000] Linux version 6.12.117+deb12-amd64\r\n'
	printf '[    2.456834] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI\r\n'
	printf '[    2.462787] RIP: 0010:sched_clock_cpu+0x9/0x190\r\n'
	printf '[    2.468001] Kernel panic - not syncing: Fatal exception in interrupt\r\n'
}
boot >"$log"
vm_died_booting "$log" || fail "a kernel that died at boot is not retried"
# As a console has it: the terminal reset before the line; and a kernel
# report after it must not count, such as the "Attempted to kill init"
# every power-off logged before vm-init.sh waited without a program.
{
	printf '\033c\033[?7l\033[2Jelvkit-vm: start\r\n'
	printf 'elvkit-guest: running vm/R/730-rel-remove/fair-queue\r\n'
	printf '[  891.1] BUG: unable to handle page fault for address: ff40493281332800\r\n'
} >"$log"
! vm_died_booting "$log" || fail "a guest that died running its command would be booted again"
printf 'elvkit-initramfs: no root\r\nelvkit-vm: exit 125\r\n' >"$log"
! vm_died_booting "$log" || fail "a failed initramfs (no kernel report) would be booted again"
{
	printf '\033c\033[?7l\033[2Jelvkit-vm: start\r\n'
	printf 'PASS vm/R/010-load-modules\r\nelvkit-vm: exit 0\r\n'
	printf '[  181.4] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00007f00\r\n'
} >"$log"
! vm_died_booting "$log" || fail "a clean run would be booted again"
exit 0
