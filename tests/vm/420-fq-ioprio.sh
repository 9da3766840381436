#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by guest.sh
DESCRIPTION="fair-queue: I/O priority classes are honoured on a slow, shallow null_blk (RT reader over BE, BE over IDLE, by 3x at least; the lower class still progresses)"
. "$(dirname "$0")/lib.sh"
need_sched fair-queue
load_modules || fail "insmod failed"
[ -d "$NULLB_CFS" ] || skip "null_blk has no configfs"
# 10 ms per request, depth 1: the device, not the (emulated) CPU, is the
# bottleneck, so requests wait in the scheduler, which then
# decides who goes first.
trap 'nullb_remove fqprio' EXIT
dev=$(nullb_create fqprio size=1024 irqmode=2 completion_nsec=10000000 \
	hw_queue_depth=1) || fail "cannot create a null_blk device"
set_sched "$dev" fair-queue || fail "could not select fair-queue"
# blk-mq gives a scheduler 2 x depth requests (2 here): a process waits
# for one of those, first come first served, before the scheduler even
# sees its I/O. Room for every process's requests lets the policy choose.
echo 64 >"/sys/block/$dev/queue/nr_requests" || fail "nr_requests"
d=$(iosched_dir "$dev")

# kb CLASS1 LEVEL1 CLASS2 LEVEL2: KiB read by each of two random readers
# (4 requests in flight each) running together for 4 s.
kb() {
	local out
	out=$(timeout 120 fio --output-format=terse --filename="/dev/$dev" \
		--direct=1 --ioengine=libaio --iodepth=4 --rw=randread --bs=4k \
		--time_based --runtime=4 \
		--name=a --prioclass="$1" --prio="$2" \
		--name=b --prioclass="$3" --prio="$4" 2>&1) || {
		echo "$out" >&2
		return 1
	}
	printf '%s\n' "$out" | awk -F';' '/^3;/ { printf "%s ", $6 } END { print "" }'
}
counters() {
	local f
	for f in queue_switches preemptions aged_slots idle_hits idle_timeouts raises; do
		printf '%s=%s ' "$f" "$(cat "$d/$f")"
	done
	echo
}
read -r rt be < <(kb 1 4 2 4) || fail "fio RT/BE failed"
echo "RT ${rt} KiB, BE ${be} KiB"
counters
[ "${rt:-0}" -ge $((3 * ${be:-0})) ] || fail "RT $rt KiB not 3x BE $be KiB"
[ "${be:-0}" -gt 0 ] || fail "BE starved under RT"
read -r b2 id < <(kb 2 4 3 0) || fail "fio BE/IDLE failed"
echo "BE ${b2} KiB, IDLE ${id} KiB"
[ "${b2:-0}" -ge $((3 * ${id:-0})) ] || fail "BE $b2 KiB not 3x IDLE $id KiB"
[ "${id:-0}" -gt 0 ] || fail "IDLE starved (class_age_ms bound)"
echo "aged_slots $(cat "$d/aged_slots") preemptions $(cat "$d/preemptions")"
[ "$(cat "$d/aged_slots")" -gt 0 ] || fail "no aged slot for the lower class"
set_sched "$dev" none
