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
# Other commands may use the root meanwhile (a CI leg's build beside this
# test): read and judge /proc under k_in_root's own locks. A /proc that is
# mounted without elvkit's marker was there before elvkit.
exec {lk}>>"$root.elvkit-proc.lock" {us}>>"$root.elvkit-proc.users"
flock -x "$lk"
foreign=0
mountpoint -q "$root/proc" && [ ! -e "$root.elvkit-proc.mounted" ] && foreign=1
flock -u "$lk"
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
flock -x "$lk"
if ! flock -x -n "$us"; then
	echo "ok: /proc kept for the overlapping command (other commands still in the root: its unmount is theirs)"
elif [ "$foreign" = 1 ]; then
	mountpoint -q "$root/proc" || fail "a /proc mounted before elvkit was unmounted"
	echo "ok: /proc kept for the overlapping command, then left as found"
else
	! mountpoint -q "$root/proc" || fail "/proc left mounted in $root"
	echo "ok: /proc kept for the overlapping command, then unmounted"
fi
