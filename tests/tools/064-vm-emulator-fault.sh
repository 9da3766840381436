#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="a guest that died with reserved EFLAGS bits in its oops (the emulator's fault) is booted once more for the tests without a result; a genuine oops is not"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 1
. scripts/lib/kernels.sh
. scripts/lib/vm.sh
. scripts/lib/results.sh
. scripts/lib/vm-suite.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export ELVKIT_RESULTS=$dir
log=$dir/console
fail() { echo "$*"; exit 1; }

# oops EFLAGS: a report as 6.12 printed it in the CI of 2026-12-06
oops() {
	printf 'elvkit-guest: running vm/R/083-requeue-dontprep/fair-queue\r\n'
	printf '[  188.655873] RIP: 0010:kmem_cache_alloc_noprof+0x6b/0x2f0\r\n'
	printf '[  188.655922] RSP: 0018:ff47cb4f80453890 EFLAGS: %s\r\n' "$1"
	printf '[  188.656238] Kernel panic - not syncing: Fatal exception in interrupt\r\n'
}
oops cb9b6b02 >"$log"
out=$(vm_emulator_fault "$log") || fail "EFLAGS cb9b6b02 (bits 22-31 set) is not the emulator's"
grep -q 'EFLAGS: cb9b6b02' <<<"$out" || fail "the line is not shown: $out"
oops 00010246 >"$log"
! vm_emulator_fault "$log" >/dev/null || fail "a genuine oops (EFLAGS 00010246) counts as the emulator's"
oops 00250a86 >"$log"	# AC, ID, VIF and the like are defined bits
! vm_emulator_fault "$log" >/dev/null || fail "EFLAGS 00250a86 has no reserved bit set"
printf 'PASS vm/R/010\r\nelvkit-vm: exit 0\r\n' >"$log"
! vm_emulator_fault "$log" >/dev/null || fail "a log without a report counts"

# vm_guest_suite with a stand-in for the boot: the first guest dies in
# test b with $FLAGS, the second (if any) must be the resuming one.
boots=0 wrong=
vm_boot() {
	local a resume=
	boots=$((boots + 1))
	for a in "$@"; do [ "$a" != ELVKIT_VM_RESUME=1 ] || resume=1; done
	if [ $boots = 1 ]; then
		[ -z "$resume" ] || wrong="the first boot resumes"
		record vm-R PASS vm/R/a >/dev/null
		oops "$FLAGS" >"$3"
		return 125
	fi
	[ -n "$resume" ] || wrong="the second boot does not resume"
	record vm-R PASS vm/R/b >/dev/null
	touch "$ELVKIT_RESULTS/vm-R.done"
	printf 'PASS vm/R/b\r\n' >"$3"
	return 0
}
run() {
	boots=0
	rm -f "$dir"/vm-R*
	log=$dir/vm-R-console.log
	vm_guest_suite vm-run R 60 '*' >"$dir/out" 2>"$dir/err"
}
FLAGS=cb9b6b02
run || fail "the resumed suite failed: $(cat "$dir/err")"
[ -z "$wrong" ] || fail "$wrong"
[ $boots = 2 ] || fail "booted $boots times"
[ -s "$dir/vm-R-console.log.crash1" ] || fail "the first console is not kept"
grep -q 'the emulator faulted' "$dir/err" || fail "no word of why it booted again"
grep -q 'it was running vm/R/083' "$dir/err" || fail "the first boot's death is not reported"
! grep -q guest-finished "$dir/vm-R.txt" || fail "guest-finished recorded: $(cat "$dir/vm-R.txt")"
FLAGS=00010246
! run || fail "a suite that died of a genuine oops passed"
[ $boots = 1 ] || fail "a genuine oops was booted again"
grep -qx 'FAIL vm/R/guest-finished' "$dir/vm-R.txt" || fail "a genuine oops is not recorded as unfinished"
exit 0
