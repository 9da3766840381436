#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="device removal under I/O with waits pending: a scsi_debug disk deleted and a null_blk device powered off mid-fio; every I/O completes or errors, what was read back verifies, nothing hangs, the driver unloads"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rel-lib.sh"
rounds=$(rel_n 1)
load_modules || fail "insmod failed"
# shellcheck disable=SC2317 # called by the EXIT trap (rel-lib.sh)
rel_cleanup() {
	[ -z "${pid:-}" ] || rel_signal KILL "$pid"
	nullb_remove relrm
	rmmod scsi_debug 2>/dev/null
}

# io_then_remove NAME DEV REMOVE-CMD...: fio (thinking reader, verified
# random writers, a 16-deep random reader, buffered writer) on DEV with SCHED
# waiting, then REMOVE-CMD in the middle of it. fio must end within 120 s,
# and every block it read back must verify.
#
# The verified jobs use psync, not libaio: a removed disk's capacity drops to
# 0, and a read at or past the end then "succeeds" with 0 bytes. fio's sync
# path fails such a read ("full resid", EIO); its async path verifies the
# buffer's stale contents and reports "bad magic header 0" or "bad header
# offset X, wanted Y" (fio 3.33). That was this test's "wrong data" under the
# kernel's own mq-deadline (null_blk, 6.1, 2026-11-30: 3 of 3 runs) as under
# ours; with psync, 24 removals under mq-deadline and the three elvkit
# schedulers verified (6.12, 2026-12-01). The deep reader, unverified, keeps
# the queue full; it stops at 8 s, as its reads of a powered-off null_blk
# "succeed" empty until then.
io_then_remove() {
	local name=$1 dev=$2 rc
	shift 2
	set_sched "$dev" "$SCHED" || fail "select $SCHED on $dev"
	rel_tune_waits "$dev" "$SCHED"
	# time-bounded: buffered writes into a removed disk's page cache succeed
	rel_fio "$name" --filename="/dev/$dev" --time_based --runtime=20 \
		--name=thinker --offset=0 --size=8m --bs=4k --rw=read --direct=1 \
		--ioengine=psync --thinktime=2000 \
		--name=random --offset=8m --size=1m --offset_increment=1m --numjobs=8 \
		--bs=4k --rw=randrw --direct=1 --ioengine=psync \
		--verify=crc32c --verify_backlog=16 \
		--name=deep --offset=8m --size=8m --bs=4k --rw=randread --direct=1 \
		--ioengine=libaio --iodepth=16 --runtime=8 \
		--name=buffered --offset=16m --size=8m --bs=16k --rw=write --direct=0 \
		--ioengine=psync &
	pid=$!
	sleep 3
	kill -0 "$pid" 2>/dev/null || { cat "$REL_TMP/$name.err" >&2; fail "fio on $dev ended before the removal"; }
	echo "$dev: removing with $(tr -s ' ' <"/sys/block/$dev/inflight" 2>/dev/null) in flight, waits pending: $(rel_waits_pending "$dev")"
	"$@" || fail "removing $dev: $*"
	rel_wait_pid "$pid" 120
	rc=$?
	[ "$rc" != 124 ] || { rel_hung_report "$dev"; fail "fio on removed $dev did not end in 120 s"; }
	pid=
	rel_fio_ended "$name"
	[ ! -e "/sys/block/$dev" ] || fail "$dev still present after removal"
	rel_metric fault "device_removed_under_io" 1
}

for ((r = 0; r < rounds; r++)); do
	# scsi_debug: the disk deleted through sysfs
	sd=$(rel_scsi_debug dev_size_mb=64 max_queue=32 delay=0 ndelay=200000) || skip "no scsi_debug"
	io_then_remove "scsi-$r" "$sd" sh -c "echo 1 >/sys/block/$sd/device/delete"
	for _ in $(seq 50); do rmmod scsi_debug 2>/dev/null && break; sleep 0.2; done
	module_loaded scsi_debug && fail "scsi_debug cannot be unloaded after the removal"

	# null_blk: a configfs device powered off, then deleted
	nb=$(rel_nullb_create relrm 64) || fail "null_blk device"
	bdev_node "$nb" || fail "/dev/$nb"
	io_then_remove "nullb-$r" "$nb" sh -c "echo 0 >$NULLB_CFS/relrm/power"
	rmdir "$NULLB_CFS/relrm" || fail "rmdir relrm"
done
rel_metric load devices $((2 * rounds))
exit 0
