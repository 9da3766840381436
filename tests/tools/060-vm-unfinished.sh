#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="a guest that dies mid-suite is reported with the test it was running, the kernel's first report (oops and call trace) and the console tail"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 1
. scripts/lib/kernels.sh
. scripts/lib/vm.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
{
	printf 'PASS vm/R/720-rel-module-churn\r\n'
	printf 'elvkit-guest: running vm/R/730-rel-remove/fair-queue\r\n'
	for i in $(seq 60); do printf '[  8%02d.0] filler %d\r\n' "$i" "$i"; done
	printf '[  891.1] BUG: unable to handle page fault for address: ff40493281332800\r\n'
	printf '[  891.2] Call Trace:\r\n'
	printf '[  891.3]  ioc_create_icq+0x4c/0x130\r\n'
	for i in $(seq 40); do printf '[  892.%d] more %d\r\n' "$i" "$i"; done
	printf '[  893.0] Kernel panic - not syncing: Fatal exception in interrupt\r\n'
} >"$log"
out=$(vm_unfinished vm-run "$log" 1 2>&1 >/dev/null)
fail() { echo "$*"; printf '%s\n' "$out"; exit 1; }
grep -qx 'vm-run: the guest did not finish (exit 1)' <<<"$out" || fail "no verdict line"
grep -qx 'vm-run: it was running vm/R/730-rel-remove/fair-queue' <<<"$out" || fail "the running test is not named"
grep -q 'BUG: unable to handle page fault' <<<"$out" || fail "the first report is missing"
grep -q 'ioc_create_icq' <<<"$out" || fail "the call trace is missing"
grep -q 'Kernel panic' <<<"$out" || fail "the console tail is missing"
! grep -q $'\r' <<<"$out" || fail "carriage returns left in"
exit 0
