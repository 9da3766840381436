#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="requests a SCSI device sends back (scsi_debug transport errors; SCSI requeues them with RQF_DONTPREP) are retried and verify, and the scheduler leaves cleanly"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
# Every 40th command fails with a transport error, which SCSI retries
# through blk_mq_requeue_request with RQF_DONTPREP set.
modprobe scsi_debug dev_size_mb=64 opts=16 every_nth=40 2>/dev/null || skip "no scsi_debug"
trap 'rmmod scsi_debug 2>/dev/null' EXIT
udevadm settle 2>/dev/null
sd=
for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
	[ -e "$d" ] && sd=$(basename "$d")
done
[ -n "$sd" ] || fail "no scsi_debug disk"
set_sched "$sd" "$SCHED" || fail "could not select $SCHED on $sd"
tr=/sys/kernel/tracing
traced=
trace_event_enable block/block_rq_requeue && { traced=1; : >"$tr/trace"; echo 1 >"$tr/tracing_on"; }
out=$(mktemp)
fio --name=v --filename="/dev/$sd" --rw=randwrite --bs=4k --size=8m --direct=1 \
	--ioengine=libaio --iodepth=16 --verify=crc32c --verify_fatal=1 \
	--output-format=terse >"$out" 2>&1 || { cat "$out"; fail "fio failed"; }
[ "$(fio_errors "$out")" = 0 ] || { cat "$out"; fail "fio errors"; }
if [ -n "$traced" ]; then
	echo 0 >"$tr/tracing_on"
	n=$(grep -c block_rq_requeue "$tr/trace")
	: >"$tr/trace"
	[ "$n" -gt 0 ] || fail "no requeue happened (every_nth did not inject)"
	echo "$n requeues"
fi
# Leaving runs exit_sched, which warns if the policy still holds a request.
set_sched "$sd" none || fail "could not switch $sd back to none"
