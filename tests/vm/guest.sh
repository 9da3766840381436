#!/usr/bin/env bash
# Runs inside the guest (booted by scripts/vm-run.sh): sets up null_blk and
# runs every tests/vm/NNN-*.sh in order, per-scheduler ones once for each
# scheduler module built for this kernel. Records results and a done marker.
# Usage: guest.sh KVER RESULTS_DIR [GLOB]   (GLOB: only tests/vm/GLOB.sh,
# e.g. '08*'; several globs separated by spaces; the default runs all)
# Environment: ELVKIT_VM_TEST_TIMEOUT, seconds per test (600);
# ELVKIT_VM_DKMS=1: first the DKMS checks (tests/dkms/guest.sh, for
# scripts/dkms-test.sh --install/--finish around this boot), while nothing of
# elvkit is loaded; they then hide the DKMS copies for the rest of the boot.
# ELVKIT_VM_RESUME=1: a boot after one the emulator broke (vm_guest_suite):
# run only what has no result in RESULTS_DIR yet.
set -u
KVER=$1
export ELVKIT_RESULTS=$2
only=${3:-[0-9]*}
ELVKIT_TOP=$(cd "$(dirname "$0")/../.." && pwd)
export KVER ELVKIT_TOP
export ELVKIT_KO_DIR=$ELVKIT_TOP/build/$KVER
export DEV=nullb0
. "$ELVKIT_TOP/scripts/lib/results.sh"
. "$ELVKIT_TOP/tests/vm/lib.sh"
group="vm-$KVER"
logdir=$ELVKIT_RESULTS/vm-$KVER-logs
mkdir -p "$logdir"

# has_result NAME: NAME has a result from an earlier boot (resuming only).
has_result() {
	[ -n "${ELVKIT_VM_RESUME:-}" ] &&
		grep -qxF -e "PASS $1" -e "FAIL $1" -e "SKIP $1" "$ELVKIT_RESULTS/$group.txt" 2>/dev/null
}

[ "$(uname -r)" = "$KVER" ] || { record "$group" FAIL "vm/$KVER/booted-kernel"; exit 1; }
has_result "vm/$KVER/booted-kernel" || record "$group" PASS "vm/$KVER/booted-kernel"

if [ -n "${ELVKIT_VM_DKMS:-}" ]; then
	if [ -n "${ELVKIT_VM_RESUME:-}" ] && [ -e "$ELVKIT_RESULTS/dkms-$KVER.done" ]; then
		echo "elvkit-guest: hiding the DKMS copies again (checked in the first boot)"
		bash "$ELVKIT_TOP/tests/dkms/guest.sh" "$KVER" "$ELVKIT_RESULTS" --hide-only
	else
		echo "elvkit-guest: running dkms/$KVER"
		bash "$ELVKIT_TOP/tests/dkms/guest.sh" "$KVER" "$ELVKIT_RESULTS" --hide
	fi
fi

# A memory-backed device so that fio can verify what it wrote.
if ! err=$(modprobe null_blk nr_devices=1 memory_backed=1 gb=1 irqmode=2 \
	completion_nsec=50000 hw_queue_depth=64 2>&1); then
	record "$group" FAIL "vm/$KVER/null_blk"
	echo "    $err"
	exit 1
fi
udevadm settle 2>/dev/null || true
# The events the tests read are on from boot (EK_VM_SUITE_APPEND); the ring
# buffer records only while a test says so.
echo 0 >/sys/kernel/tracing/tracing_on 2>/dev/null

scheds=()
for ko in "$ELVKIT_KO_DIR"/*.ko; do
	n=$(basename "$ko" .ko)
	case $n in elvkit | ekdisk) ;; *) scheds+=("$n") ;; esac
done
export ELVKIT_SCHEDS="${scheds[*]}"
# ELVKIT_VM_SCHEDS: the schedulers PER_SCHED tests run under instead of
# elvkit's own (e.g. "mq-deadline deadline-read", to tell the kernel's
# behaviour from ours).
[ -z "${ELVKIT_VM_SCHEDS:-}" ] || read -ra scheds <<<"$ELVKIT_VM_SCHEDS"

# guest_reap: end what a test left running with a test device open, and
# any fio (a test that failed midway, a fio that lost its jobs), and say so:
# the next test needs the devices free and the modules unloadable.
guest_reap() {
	local devs=('ekdisk*' 'nullb*' 'sd*') pids
	mapfile -t pids < <( (dev_pids "${devs[@]}"; pgrep -x fio) | sort -u)
	[ ${#pids[@]} -gt 0 ] || return 0
	echo "    (left running: $(procs "${pids[@]}"); ended)"
	kill -TERM "${pids[@]}" 2>/dev/null
	sleep 1
	kill -KILL "${pids[@]}" 2>/dev/null
	[ "$(dev_users "${devs[@]}")" = none ] ||
		echo "    (still open after that: $(dev_users "${devs[@]}"))"
}

# bookworm's fio 3.33 once (6.12, 610 under none) lost one of its job
# processes ("fio: pid=N disappeared 7": its waitpid saw ECHILD while the job
# verified) and died of a double free in its own cleanup, after every job had
# reported err=0. That is a crash of fio, not a failed verify (exit 1 and
# err>0 in the job's line), so such a test runs once more.
export RUN_TEST_RETRY='fio: pid=[0-9]+ disappeared|Aborted +(\(core dumped\) +)?(timeout .*)?fio '
export RUN_TEST_BEFORE_RETRY=guest_reap

# guest_test FILE NAME [SCHED]: one guest test, timed; when resuming, only
# if it has no result yet.
guest_test() {
	local t0=$SECONDS
	has_result "$2" && return 0
	# On the console, so that a guest that dies says where (vm_unfinished),
	# and in the kernel log, so that a test's report can be placed.
	echo "elvkit-guest: running $2"
	echo "elvkit-guest: running $2" >/dev/kmsg 2>/dev/null
	local limit=${ELVKIT_VM_TEST_TIMEOUT:-600}
	run_test "$group" "$2" "$limit" "$logdir/${2//\//_}.log" "$1" env SCHED="${3:-}" bash "$1"
	local took=$((SECONDS - t0))
	echo "    ($took s)"
	guest_reap
	# Under TCG the guest's TSC is the host's raw TSC: most likely when the
	# host machine is paused or moved, the guest's clocks step forward and
	# `timeout` fires early (seen once, 2813 s in a 6 min boot).
	[ "$took" -le $((limit + 60)) ] ||
		echo "    (the guest's clock ran past the test's limit of $limit s by far more than a test can: the host was paused, or its TSC stepped; see the README, 'Host-side hazard')"
}

tests=()
read -ra pats <<<"$only"
for p in "${pats[@]}"; do
	for f in "$ELVKIT_TOP"/tests/vm/$p.sh; do
		[ -e "$f" ] && tests+=("$f")
	done
done
mapfile -t tests < <(printf '%s\n' "${tests[@]}" | sort -u)
for f in "${tests[@]}"; do
	[ -n "$f" ] || continue
	t=$(basename "$f" .sh)
	if grep -q '^PER_SCHED=1' "$f"; then
		for s in "${scheds[@]}"; do
			guest_test "$f" "vm/$KVER/$t/$s" "$s"
		done
	else
		guest_test "$f" "vm/$KVER/$t"
	fi
done
touch "$ELVKIT_RESULTS/vm-$KVER.done"
