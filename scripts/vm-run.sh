#!/usr/bin/env bash
# Boot kernel RELEASE once in QEMU (TCG) and run the whole guest suite
# (tests/vm/) inside that one boot. Results go to $ELVKIT_RESULTS.
# Usage: vm-run.sh [--dkms] RELEASE [GLOB]
#   GLOB    only tests/vm/GLOB.sh, e.g. '08*'
#   --dkms  first the guest side of the DKMS test, in the same boot (after
#           scripts/dkms-test.sh --install RELEASE; --finish after this)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh
. scripts/lib/vm.sh
. scripts/lib/results.sh
. scripts/lib/vm-suite.sh
dkms=
[ "${1:-}" != --dkms ] || { dkms=1; shift; }
ver=${1:?usage: vm-run.sh [--dkms] RELEASE [GLOB]}
only=${2:-[0-9]*}
export ELVKIT_RESULTS=${ELVKIT_RESULTS:-$PWD/build/results}
group="vm-$ver"
mkdir -p "$ELVKIT_RESULTS"
vm_suite_reset "$ver"

k_vmlinuz "$ver" >/dev/null || { record "$group" FAIL "vm/$ver/kernel-image"; exit 1; }
ls build/"$ver"/*.ko >/dev/null 2>&1 || { record "$group" FAIL "vm/$ver/modules-built"; exit 1; }

# The guest reads the schedulers' tunable tables from the simulator binary.
make --no-print-directory -s build/elvkit-sim >/dev/null || { record "$group" FAIL "vm/$ver/elvkit-sim-built"; exit 1; }

echo "vm-run: booting $ver ($(k_vmlinuz "$ver"))"
vm_guest_suite vm-run "$ver" 3600 "$only" ELVKIT_VM_SCHEDS="${ELVKIT_VM_SCHEDS:-}" ELVKIT_VM_DKMS="$dkms"
