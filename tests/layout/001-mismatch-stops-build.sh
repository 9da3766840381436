#!/usr/bin/env bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runners
DESCRIPTION="a private struct layout that differs from the kernel's BTF stops the build with a message naming the struct and field"
# Usage: 001-mismatch-stops-build.sh RELEASE
set -u
cd "$(dirname "$0")/../.." || exit 1
ver=${1:?release}
# Pretend the kernel moved elevator_queue.kobj by 8 bytes.
out=$(ELVKIT_LAYOUT_TAMPER=elevator_queue.kobj scripts/layout-check.sh "$ver" 2>&1)
rc=$?
echo "$out"
[ $rc -ne 0 ] || { echo "FAIL: layout-check passed on a tampered layout"; exit 1; }
grep -q "struct elevator_queue field kobj" <<<"$out" ||
	{ echo "FAIL: the message does not name struct elevator_queue field kobj"; exit 1; }
# The untampered check still passes afterwards (nothing cached the lie).
scripts/layout-check.sh "$ver" || { echo "FAIL: clean layout-check fails"; exit 1; }
