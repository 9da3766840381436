#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by guest.sh
DESCRIPTION="fair-queue: I/O priority classes are honoured on a slow, shallow null_blk (RT reader over BE, BE over IDLE, by 3x at least; the lower class still progresses)"
. "$(dirname "$0")/lib.sh"
case " $ELVKIT_SCHEDS " in *" fair-queue "*) ;; *) skip "fair-queue not built" ;; esac
load_modules || fail "insmod failed"
cfg=/sys/kernel/config/nullb
[ -d "$cfg" ] || skip "null_blk has no configfs"
# 1 ms per request, depth 2: requests wait in the scheduler, which then
# decides who goes first.
dir=$cfg/fqprio
mkdir "$dir" || fail "configfs mkdir"
cleanup() { echo 0 >"$dir/power" 2>/dev/null; rmdir "$dir" 2>/dev/null; }
trap cleanup EXIT
echo 1024 >"$dir/size"
echo 2 >"$dir/irqmode"
echo 1000000 >"$dir/completion_nsec"
echo 2 >"$dir/hw_queue_depth"
before=" $(cd /sys/block && echo *) "
echo 1 >"$dir/power" || fail "null_blk power on"
udevadm settle 2>/dev/null || true
# The new disk (nullbN, or the configfs name on newer kernels) is the one
# that was not there before.
dev=
for _ in $(seq 50); do
	for b in /sys/block/*; do
		b=${b##*/}
		case $before in *" $b "*) ;; *) dev=$b ;; esac
	done
	[ -n "$dev" ] && break
	sleep 0.1
done
[ -n "$dev" ] || fail "no new null_blk disk in /sys/block"
if [ ! -b "/dev/$dev" ]; then
	IFS=: read -r maj min <"/sys/block/$dev/dev"
	mknod "/dev/$dev" b "$maj" "$min" || fail "mknod /dev/$dev"
fi
set_sched "$dev" fair-queue || fail "could not select fair-queue"
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
	printf '%s\n' "$out" | awk -F';' '/^3;/ { printf "%s ", $6 }'
}
read -r rt be < <(kb 1 4 2 4) || fail "fio RT/BE failed"
echo "RT ${rt} KiB, BE ${be} KiB"
[ "${rt:-0}" -ge $((3 * ${be:-0})) ] || fail "RT $rt KiB not 3x BE $be KiB"
[ "${be:-0}" -gt 0 ] || fail "BE starved under RT"
read -r b2 id < <(kb 2 4 3 0) || fail "fio BE/IDLE failed"
echo "BE ${b2} KiB, IDLE ${id} KiB"
[ "${b2:-0}" -ge $((3 * ${id:-0})) ] || fail "BE $b2 KiB not 3x IDLE $id KiB"
[ "${id:-0}" -gt 0 ] || fail "IDLE starved (class_age_ms bound)"
echo "aged_slots $(cat "$d/aged_slots") preemptions $(cat "$d/preemptions")"
[ "$(cat "$d/aged_slots")" -gt 0 ] || fail "no aged slot for the lower class"
set_sched "$dev" none
