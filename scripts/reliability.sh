#!/usr/bin/env bash
# The reliability suite at full size: one QEMU boot per kernel running only
# the tests/vm/7NN-rel-*.sh tests (and the final kernel-log check), scaled
# up by ELVKIT_REL_SCALE (10 by default: 1500 switches in the storm...), then
# the report table (scripts/rel-report.py). The CI-sized version of the same
# tests runs in every `scripts/vm-run.sh` boot (ELVKIT_REL_SCALE=1).
# Usage: scripts/reliability.sh [--help] [RELEASE...]   (default: every installed leg)
# Every RELEASE must be installed with its image: checked before anything runs.
# Results: build/results-reliability/ (ELVKIT_RESULTS to change).
# ELVKIT_REL_TESTS: other globs of tests/vm/ files to run (e.g. "711-*");
# ELVKIT_VM_TIMEOUT, ELVKIT_VM_TEST_TIMEOUT: seconds for the boot, per test.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh
. scripts/lib/vm.sh
. scripts/lib/results.sh
. scripts/lib/vm-suite.sh
. scripts/lib/cli.sh
# Every argument is checked before anything builds or boots: an option
# other than --help, or a release that is not installed, is bad usage.
vers=()
for a; do
	case $a in
	-h | --help)
		sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"
		exit 0
		;;
	-*) die2 "unknown option '$a' (usage: scripts/reliability.sh [--help] [RELEASE...])" ;;
	*) vers+=("$a") ;;
	esac
done
scale=${ELVKIT_REL_SCALE:-10}
case $scale in '' | *[!0-9]* | 0) die2 "ELVKIT_REL_SCALE must be a positive integer" ;; esac
if [ ${#vers[@]} = 0 ]; then
	for leg in "${EK_KERNEL_LEGS[@]}"; do
		v=$(k_leg_release "$leg")
		[ -z "$v" ] || vers+=("$v")
	done
fi
[ ${#vers[@]} -gt 0 ] || die "no supported kernel installed (make deps)"
for ver in "${vers[@]}"; do release_check release "$ver"; done
export ELVKIT_RESULTS=${ELVKIT_RESULTS:-$PWD/build/results-reliability}
mkdir -p "$ELVKIT_RESULTS"
rc=0
for ver in "${vers[@]}"; do
	if ! ls build/"$ver"/*.ko >/dev/null 2>&1; then
		scripts/kbuild.sh "$ver" || { rc=1; continue; }
	fi
	# The guest reads the schedulers' tunable tables from the simulator.
	make --no-print-directory -s build/elvkit-sim >/dev/null || { rc=1; continue; }
	vm_suite_reset "$ver"
	t0=$SECONDS
	echo "reliability: $ver at scale $scale"
	vm_guest_suite reliability "$ver" "${ELVKIT_VM_TIMEOUT:-$((3600 + 1800 * scale))}" \
		"${ELVKIT_REL_TESTS:-7[0-9][0-9]-rel-* 999-*}" ELVKIT_REL_SCALE="$scale" ELVKIT_VM_SCHEDS="${ELVKIT_VM_SCHEDS:-}" \
		ELVKIT_VM_TEST_TIMEOUT="${ELVKIT_VM_TEST_TIMEOUT:-$((600 + 600 * scale))}" || rc=1
	echo "reliability: $ver took $((SECONDS - t0)) s"
done
scripts/rel-report.py "$ELVKIT_RESULTS" "${vers[@]}"
exit $rc
