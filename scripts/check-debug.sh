#!/usr/bin/env bash
# make check-debug: the whole guest suite and the reliability suite (CI
# size) in one boot of the debug kernel (KASAN, lockdep, failslab: see
# scripts/debug-kernel.sh), built first when /var/lib/elvkit/debug-root has
# none (about an hour on 2 cores; --rebuild to build again). Any kernel
# report fails the test that caused it (tests/vm/rel-lib.sh) and
# 999-dmesg-clean. The debug kernel is slow, so the boot may take 3 hours and
# a test 40 minutes. Results: build/results-debug/ and the reliability table.
# Usage: scripts/check-debug.sh [--rebuild]
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh
case "${1:-}" in
--rebuild) rebuild=1 ;;
"") rebuild= ;;
-h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
*) echo "check-debug: unknown argument $1" >&2; exit 2 ;;
esac
debug_release() { _k_newest "$EK_DEBUG_ROOT" '*-elvkit-debug'; }
ver=$(debug_release)
if [ -n "$rebuild" ] || [ -z "$ver" ] || [ ! -e "$EK_DEBUG_ROOT/lib/modules/$ver/vmlinuz" ]; then
	scripts/debug-kernel.sh || exit 1
	ver=$(debug_release)
fi
[ -n "$ver" ] || { echo "check-debug: no debug kernel in $EK_DEBUG_ROOT" >&2; exit 1; }
scripts/kbuild.sh "$ver" || exit 1
export ELVKIT_RESULTS=${ELVKIT_RESULTS:-$PWD/build/results-debug}
ELVKIT_REL_SCALE=1 ELVKIT_REL_TESTS='[0-7]* 999-*' ELVKIT_VM_TIMEOUT=10800 \
	ELVKIT_VM_TEST_TIMEOUT=2400 exec scripts/reliability.sh "$ver"
