#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by guest.sh
DESCRIPTION="fair-queue: I/O priority classes and levels are honoured on an hdd-model ekdisk (RT reader over BE and BE over IDLE by 3x at least, be:0 over be:7 by 3x at least; the lower one still progresses)"
. "$(dirname "$0")/lib.sh"
need_sched fair-queue
load_modules || fail "insmod failed"
# A disk that seeks (random 4 KiB reads take ~10 ms on the hdd model), so
# the device, not the (emulated) CPU, is the bottleneck and requests wait
# in the scheduler, which then decides who goes first.
trap 'set_sched ekdisk0 none 2>/dev/null; ekdisk_unload' EXIT
ekdisk_load profile=hdd || fail "insmod ekdisk failed"
set_sched ekdisk0 fair-queue || fail "could not select fair-queue"
# Room for every process's requests, so that none waits for a scheduler
# tag (first come, first served) before the policy even sees its I/O.
echo 64 >/sys/block/ekdisk0/queue/nr_requests || fail "nr_requests"
d=$(iosched_dir ekdisk0)

# kb CLASS1 LEVEL1 CLASS2 LEVEL2: KiB read by each of two random readers
# (4 requests in flight each) running together for 4 s.
kb() {
	local out
	out=$(timeout 120 fio --output-format=terse --filename=/dev/ekdisk0 \
		--direct=1 --ioengine=libaio --iodepth=4 --rw=randread --bs=4k \
		--time_based --runtime=4 \
		--name=a --prioclass="$1" --prio="$2" \
		--name=b --prioclass="$3" --prio="$4" 2>&1) || {
		echo "$out" >&2
		return 1
	}
	printf '%s\n' "$out" | awk -F';' '/^3;/ { printf "%s ", $6 } END { print "" }'
}
# over NAME HI LO: HI read at least 3x what LO did, and LO was not starved.
over() {
	echo "    $1: $2 KiB against $3 KiB"
	[ "${2:-0}" -ge $((3 * ${3:-0})) ] || fail "$1: $2 KiB not 3x $3 KiB"
	[ "${3:-0}" -gt 0 ] || fail "$1: the lower one starved"
}
read -r rt be < <(kb 1 4 2 4) || fail "fio RT/BE failed"
over "RT over BE" "$rt" "$be"
read -r b0 b7 < <(kb 2 0 2 7) || fail "fio be:0/be:7 failed"
over "be:0 over be:7 (weights 8:1)" "$b0" "$b7"
read -r b2 id < <(kb 2 4 3 0) || fail "fio BE/IDLE failed"
over "BE over IDLE (class_age_ms bound)" "$b2" "$id"
for f in queue_switches preemptions aged_slots idle_hits idle_timeouts raises; do
	printf '%s=%s ' "$f" "$(cat "$d/$f")"
done
echo
[ "$(cat "$d/aged_slots")" -gt 0 ] || fail "no aged slot for the lower class"
