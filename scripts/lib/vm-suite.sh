# shellcheck shell=bash
# The guest suite's boot, shared by scripts/vm-run.sh and
# scripts/reliability.sh: one boot of a release running tests/vm/guest.sh,
# results in $ELVKIT_RESULTS under the group vm-RELEASE. Source
# scripts/lib/kernels.sh, vm.sh and results.sh first.

# vm_suite_reset RELEASE: forget the group's earlier results.
vm_suite_reset() {
	rm -f "$ELVKIT_RESULTS/vm-$1.txt" "$ELVKIT_RESULTS/vm-$1.done" \
		"$ELVKIT_RESULTS/rel-$1.tsv"
}

# vm_guest_suite WHO RELEASE SECONDS GLOBS [VAR=VALUE]...: boot RELEASE
# for at most SECONDS and run the tests/vm/ files matching GLOBS, with the
# VARs in the guest suite's environment; print their result lines. A guest
# that did not finish is reported as WHO's (vm_unfinished) and recorded as
# FAIL vm/RELEASE/guest-finished, except once: a guest that died of a fault
# of the emulator (vm_emulator_fault) is booted again and runs what has no
# result yet (ELVKIT_VM_RESUME=1), the test it died in included; the first
# console stays as LOG.crash1. Returns 0 iff it finished with no FAIL.
vm_guest_suite() {
	local who=$1 ver=$2 secs=$3 globs=$4 rc boot resume='' fault
	local log="$ELVKIT_RESULTS/vm-$ver-console.log"
	shift 4
	for boot in 1 2; do
		vm_boot "$ver" "$secs" "$log" --rw "$ELVKIT_RESULTS" --append "$EK_VM_SUITE_APPEND" -- \
			env "$@" ELVKIT_VM_RESUME="$resume" tests/vm/guest.sh "$ver" "$ELVKIT_RESULTS" "$globs"
		rc=$?
		tr -d '\r' <"$log" | grep -E '^(PASS|FAIL|SKIP) |^    ' || true
		[ ! -e "$ELVKIT_RESULTS/vm-$ver.done" ] || break
		vm_unfinished "$who" "$log" "$rc"
		if [ $boot = 2 ] || ! fault=$(vm_emulator_fault "$log"); then
			break
		fi
		cp "$log" "$log.crash1"
		echo "$who: the emulator faulted, not the code under test (a saved EFLAGS with reserved bits set: $fault); booting $ver again for the tests without a result (console: $log.crash1)" >&2
		resume=1
	done
	if [ ! -e "$ELVKIT_RESULTS/vm-$ver.done" ]; then
		record "vm-$ver" FAIL "vm/$ver/guest-finished"
		return 1
	fi
	! grep -q '^FAIL' "$ELVKIT_RESULTS/vm-$ver.txt"
}
