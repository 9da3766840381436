#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by guest.sh
DESCRIPTION="fair-queue: two processes reading alternate 128k blocks of one region on a QD1 hdd-model ekdisk are served as close cooperators (coop_switches) with cooperate=1, never with 0"
# The rates are printed, not asserted (numbers come from benchmarks). With
# 4k blocks every scheduler gives the same under TCG: the guest's own path
# per read, not the disk, sets the pace.
. "$(dirname "$0")/lib.sh"
need_sched fair-queue
load_modules || fail "insmod failed"
out=$(mktemp)
trap 'ekdisk_unload; rm -f "$out"' EXIT
ekdisk_load profile=hdd qd=1 ||
	fail "insmod ekdisk failed"
set_sched ekdisk0 fair-queue || fail "could not select fair-queue"
d=$(iosched_dir ekdisk0)
for coop in 1 0; do
	echo "$coop" >"$d/cooperate" || fail "cannot set cooperate=$coop"
	c0=$(cat "$d/coop_switches")
	# job A reads blocks 0, 2, 4, ...; job B blocks 1, 3, 5, ...
	timeout 120 fio --output-format=terse --filename=/dev/ekdisk0 \
		--direct=1 --ioengine=psync --bs=128k --rw=read:128k --size=128m \
		--name=a --offset=0 --name=b --offset=128k >"$out" 2>&1 ||
		fail "cooperate=$coop: fio failed: $(cat "$out")"
	[ "$(fio_errors "$out")" = 0 ] || fail "cooperate=$coop: fio errors: $(cat "$out")"
	n=$(($(cat "$d/coop_switches") - c0))
	kbs=$(awk -F';' '$1 == 3 { s += $7 } END { print s + 0 }' "$out")
	echo "cooperate=$coop: coop_switches $n, reads $kbs KiB/s together"
	if [ "$coop" = 1 ]; then
		[ "$n" -gt 0 ] || fail "cooperate=1: no close cooperator for interleaved readers"
	else
		[ "$n" = 0 ] || fail "cooperate=0: $n cooperator switches"
	fi
done
