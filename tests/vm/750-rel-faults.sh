#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="fault injection (scsi_debug): transport errors (retried through blk_mq_requeue_request), host busy, recovered errors and command timeouts leave verified data intact; medium errors fail only their own blocks"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rel-lib.sh"
ios=$(rel_n 1024)
load_modules || fail "insmod failed"
SD=/sys/bus/pseudo/drivers/scsi_debug
# shellcheck disable=SC2317 # called by the EXIT trap (rel-lib.sh)
rel_cleanup() {
	echo 0 >"$SD/opts" 2>/dev/null
	echo 0 >"$SD/every_nth" 2>/dev/null
	[ -z "${sd:-}" ] || echo none >"$(sched_file "$sd")" 2>/dev/null
	for _ in $(seq 25); do rmmod scsi_debug 2>/dev/null && break; sleep 0.2; done
}
# The medium error covers sectors 8192..8199: the 4 KiB block at 4 MiB.
sd=$(rel_scsi_debug dev_size_mb=64 max_queue=32 delay=0 ndelay=50000 \
	medium_error_start=8192 medium_error_count=8) || skip "no scsi_debug"
set_sched "$sd" "$SCHED" || fail "select $SCHED on $sd"
rel_tune_waits "$sd" "$SCHED"
echo 3 >"/sys/block/$sd/device/timeout" || fail "device timeout"
cnt() { printf '%d\n' "$(cat "/sys/block/$sd/device/$1")"; }
# Commands sent to the disk (not /proc/scsi/scsi_debug: 6.12 has no SCSI procfs).
cmnds() { cnt iorequest_cnt; }

# Prefill 0..16 MiB with verifiable data, faults off.
rel_fio prefill --name=prefill --filename="/dev/$sd" --size=16m --bs=4k --rw=write --ioengine=libaio --iodepth=16 \
	--direct=1 --verify=crc32c || true
rel_fio_ok prefill

# phase KIND OPTS EVERY_NTH: random writes then reads (verified) at 16..32 MiB
# with OPTS injected into every EVERY_NTH command; no error may reach fio.
phase() {
	local kind=$1 opts=$2 nth=$3 c0 c1 e0 t0 inj
	c0=$(cmnds) e0=$(cnt ioerr_cnt) t0=$(cnt iotmo_cnt)
	{ echo "$nth" >"$SD/every_nth" && echo "$opts" >"$SD/opts"; } || fail "arming $kind"
	rel_fio "$kind" --name="$kind" --filename="/dev/$sd" --offset=16m --size=16m \
		--bs=4k --rw=randwrite --number_ios="$ios" --direct=1 --ioengine=libaio \
		--iodepth=16 --verify=crc32c --verify_backlog=128 || true
	echo 0 >"$SD/opts"
	echo 0 >"$SD/every_nth"
	rel_fio_ok "$kind"
	c1=$(cmnds)
	inj=$(((${c1:-0} - ${c0:-0}) / nth))
	echo "$kind: every ${nth}th of $((${c1:-0} - ${c0:-0})) commands: ~$inj injected," \
		"ioerr +$(($(cnt ioerr_cnt) - e0)), timeouts +$(($(cnt iotmo_cnt) - t0))"
	rel_metric fault "$kind" "$inj"
}
phase transport_error_requeue 0x10 20
phase host_busy 0x8000 20
phase recovered_error 0x8 20
# Timeouts cost the 3 s device timeout plus error handling each: a few.
t0=$(cnt iotmo_cnt)
phase timeout 0x4 $((ios / 2))
[ "$(cnt iotmo_cnt)" -gt "$t0" ] || fail "no command timed out"

# Medium errors: reading the bad block fails. The kernel's BLK_STS_MEDIUM
# reaches fio as ENODATA, which ends the job whatever continue_on_error
# says, so a second run reads every other block, still armed: all verify.
echo 2 >"$SD/opts" || fail "arming medium errors"
rel_fio medium --name=medium --filename="/dev/$sd" --offset=4m --size=4k --bs=4k --rw=read \
	--direct=1 --ioengine=libaio --iodepth=1 --verify=crc32c || true
merr=$(python3 -c '
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
# an I/O error counted, or the job ended by EIO/ENODATA
print(sum(j.get("total_err", 0) or (j.get("error") in (5, 61)) for j in d["jobs"]))' "$REL_TMP/medium.json")
[ "${merr:-0}" -ge 1 ] || { cat "$REL_TMP/medium.err" >&2; fail "no medium error reached fio"; }
read -r _ _ verrs < <(rel_fio_sum medium)
[ "$verrs" = 0 ] || fail "medium: $verrs blocks read back wrong"
rel_fio medium-rest --filename="/dev/$sd" --bs=4k --rw=read --direct=1 --ioengine=libaio \
	--iodepth=8 --verify=crc32c \
	--name=below --offset=0 --size=4m --name=above --offset=$((4096 * 1025)) --size=$((16 * 1048576 - 4096 * 1025)) || true
echo 0 >"$SD/opts"
rel_fio_ok medium-rest
echo "medium: the bad block failed ($(grep -o 'No data available\|Input/output error' "$REL_TMP/medium.err" | head -n1)), the other 4095 verified"
rel_metric fault medium_error "$merr"
# ... and the data is still there once the medium is healthy again.
rel_fio reread --name=reread --filename="/dev/$sd" --size=16m --bs=4k --rw=read --ioengine=libaio --iodepth=16 \
	--direct=1 --verify=crc32c || true
rel_fio_ok reread
rel_metric load devices 1
exit 0
