#!/usr/bin/env bash
# Boot kernel RELEASE once in QEMU (TCG) and run the whole guest suite
# (tests/vm/) inside that one boot. Results go to $ELVKIT_RESULTS.
# Usage: vm-run.sh RELEASE [GLOB]   (GLOB: only tests/vm/GLOB.sh, e.g. '08*')
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh
. scripts/lib/vm.sh
. scripts/lib/results.sh
ver=${1:?usage: vm-run.sh RELEASE [GLOB]}
only=${2:-[0-9]*}
export ELVKIT_RESULTS=${ELVKIT_RESULTS:-$PWD/build/results}
group="vm-$ver"
mkdir -p "$ELVKIT_RESULTS"
rm -f "$ELVKIT_RESULTS/$group.txt" "$ELVKIT_RESULTS/$group.done" "$ELVKIT_RESULTS/rel-$ver.tsv"

k_vmlinuz "$ver" >/dev/null || { record "$group" FAIL "vm/$ver/kernel-image"; exit 1; }
ls build/"$ver"/*.ko >/dev/null 2>&1 || { record "$group" FAIL "vm/$ver/modules-built"; exit 1; }

# The guest reads the schedulers' tunable tables from the simulator binary.
make --no-print-directory -s build/elvkit-sim >/dev/null || { record "$group" FAIL "vm/$ver/elvkit-sim-built"; exit 1; }

log="$ELVKIT_RESULTS/vm-$ver-console.log"
echo "vm-run: booting $ver ($(k_vmlinuz "$ver"))"
vm_boot "$ver" 3600 "$log" --rw "$ELVKIT_RESULTS" --append "$EK_VM_SUITE_APPEND" -- tests/vm/guest.sh "$ver" "$ELVKIT_RESULTS" "$only"
rc=$?
tr -d '\r' <"$log" | grep -E '^(PASS|FAIL|SKIP) |^    ' || true
if [ ! -e "$ELVKIT_RESULTS/$group.done" ]; then
	vm_unfinished vm-run "$log" "$rc"
	record "$group" FAIL "vm/$ver/guest-finished"
	exit 1
fi
! grep -q '^FAIL' "$ELVKIT_RESULTS/$group.txt"
