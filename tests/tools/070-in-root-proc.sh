#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="commands in the private root (k_in_root) that overlap keep /proc until the last one ends, which unmounts it only if elvkit mounted it"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 1
. scripts/lib/kernels.sh
ver=$(k_leg_release newest)
root=$(k_root "$ver" 2>/dev/null)
if [ -z "$ver" ] || [ -z "$root" ]; then
	echo "no kernel in a private root: skipped"
	exit 77
fi
[ "$(id -u)" = 0 ] || { echo "needs root (mount, chroot): skipped"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
before=0
mountpoint -q "$root/proc" && before=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A starts first (and mounts /proc) and ends first; B, started meanwhile,
# reads /proc after A has ended: A's end used to unmount it under B.
k_in_root "$ver" sleep 2 &
a=$!
sleep 1
k_in_root "$ver" sh -c 'sleep 3; test -r /proc/self/status' >"$tmp/b" 2>&1 &
b=$!
wait "$a" || fail "A failed"
sleep 1
mountpoint -q "$root/proc" || fail "A unmounted /proc while B ran"
wait "$b" || fail "B lost /proc: $(cat "$tmp/b")"
if [ "$before" = 1 ]; then
	mountpoint -q "$root/proc" || fail "a /proc mounted before elvkit was unmounted"
else
	! mountpoint -q "$root/proc" || fail "/proc left mounted in $root"
fi
echo "ok: /proc kept for the overlapping command, then $( [ "$before" = 1 ] && echo left as found || echo unmounted)"
