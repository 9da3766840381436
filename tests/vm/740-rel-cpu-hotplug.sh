#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="CPU hotplug under I/O: cpu1 taken offline and back 8 (full: 80) times while verified fio runs through the scheduler on a device with a hardware queue per CPU"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rel-lib.sh"
cycles=$(rel_n 8)
cpu=/sys/devices/system/cpu/cpu1/online
[ -w "$cpu" ] || skip "cpu1 cannot be taken offline"
load_modules || fail "insmod failed"
# shellcheck disable=SC2317 # called by the EXIT trap (rel-lib.sh)
rel_cleanup() {
	[ -z "${pid:-}" ] || rel_signal TERM "$pid"
	echo 1 >"$cpu" 2>/dev/null
	nullb_remove relcpu
}
dev=$(rel_nullb_create relcpu 64 submit_queues=2) || fail "null_blk device"
bdev_node "$dev" || fail "/dev/$dev"
set_sched "$dev" "$SCHED" || fail "select $SCHED"
rel_tune_waits "$dev" "$SCHED"
rel_fio hotplug --filename="/dev/$dev" --time_based --runtime=900 --verify=crc32c \
	--name=randw --offset=0 --size=16m --bs=4k --rw=randwrite --direct=1 \
	--ioengine=libaio --iodepth=16 --verify_backlog=64 \
	--name=seqw-buffered --offset=16m --size=16m --bs=64k --rw=write --direct=0 \
	--ioengine=psync --verify_backlog=16 \
	--name=thinker --offset=0 --size=16m --bs=4k --rw=read --direct=1 \
	--ioengine=psync --thinktime=2000 --verify=0 &
pid=$!
sleep 1
for ((k = 0; k < cycles; k++)); do
	echo 0 >"$cpu" || fail "cpu1 offline (cycle $k)"
	sleep 0.$((3 + RANDOM % 5))
	kill -0 "$pid" 2>/dev/null || fail "fio ended with cpu1 offline"
	echo 1 >"$cpu" || fail "cpu1 online (cycle $k)"
	sleep 0.$((3 + RANDOM % 5))
done
[ "$(cat "$cpu")" = 1 ] || fail "cpu1 not back online"
rel_signal INT "$pid"
rel_wait_pid "$pid" 120
[ $? != 124 ] || { rel_hung_report "$dev"; fail "fio did not stop"; }
pid=
rel_fio_ok hotplug
set_sched "$dev" none
echo "$cycles offline/online cycles of cpu1 under I/O"
rel_metric fault cpu_offline_online "$cycles"
rel_metric load devices 1
exit 0
