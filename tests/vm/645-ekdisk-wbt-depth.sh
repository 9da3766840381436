#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by guest.sh
DESCRIPTION="writeback throttling sizes its limits from ekdisk's queue depth (32), as for a SATA disk, not from nr_requests (64 under a scheduler)"
. "$(dirname "$0")/lib.sh"
wbt=/sys/kernel/debug/block/ekdisk0/rqos/wbt
ekdisk_load profile=hdd || fail "insmod ekdisk failed"
# Small dirty limits (as bench-kernel sets them): writeback starts at once.
old_dirty=$(cat /proc/sys/vm/dirty_bytes) old_bg=$(cat /proc/sys/vm/dirty_background_bytes)
old_ratio=$(cat /proc/sys/vm/dirty_ratio) old_bg_ratio=$(cat /proc/sys/vm/dirty_background_ratio)
restore() {
	set_sched ekdisk0 none
	ekdisk_unload
	# a ratio of 0 means the byte value was in force, and the other way round
	if [ "$old_dirty" != 0 ]; then echo "$old_dirty" >/proc/sys/vm/dirty_bytes
	else echo "$old_ratio" >/proc/sys/vm/dirty_ratio; fi
	if [ "$old_bg" != 0 ]; then echo "$old_bg" >/proc/sys/vm/dirty_background_bytes
	else echo "$old_bg_ratio" >/proc/sys/vm/dirty_background_ratio; fi
}
trap restore EXIT
echo 8388608 >/proc/sys/vm/dirty_bytes
echo 2097152 >/proc/sys/vm/dirty_background_bytes
set_sched ekdisk0 mq-deadline || fail "could not select mq-deadline"
[ -r "$wbt/wb_normal" ] || skip "no $wbt (wbt off or no debugfs)"
[ "$(cat /sys/block/ekdisk0/queue/nr_requests)" = 64 ] || fail "nr_requests is not 64"
# Writes alone scale wbt's depth up to 3/4 of the queue depth: 24 for 32,
# so wb_normal ((max + 1) / 2) stays at 12; 48 (wb_normal 24) for 64.
fio --name=w --filename=/dev/ekdisk0 --rw=write --bs=128k --direct=0 \
	--size=256m --time_based --runtime=6 >/dev/null 2>&1 &
peak_while $! cat "$wbt/wb_normal"
wait $! || fail "fio failed"
echo "    wbt's wb_normal reached $PEAK during 6 s of buffered writes"
[ "$PEAK" -gt 8 ] || skip "wbt did not scale up (wb_normal $PEAK): nothing measured"
[ "$PEAK" -le 12 ] || fail "wb_normal $PEAK: wbt sized itself from nr_requests, not the queue depth"
