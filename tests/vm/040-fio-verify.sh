#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="fio random and sequential reads and writes through the scheduler verify with crc32c and no errors"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
set_sched "$DEV" "$SCHED" || fail "could not select $SCHED"
out=$(mktemp -d)
# The policy's own dispatch counters prove the I/O went through it.
counter() { cat "$(iosched_dir "$DEV")/$1" 2>/dev/null || echo -1; }
reads0=$(counter dispatched_reads) writes0=$(counter dispatched_writes)
common=(--filename="/dev/$DEV" --size=16m --bs=4k --verify=crc32c
	--verify_fatal=1 --group_reporting --output-format=terse)
jobs=(
	"--name=randwrite --rw=randwrite --direct=1 --ioengine=libaio --iodepth=16"
	"--name=seqwrite --rw=write --direct=1 --ioengine=libaio --iodepth=16 --bs=64k"
	"--name=buffered --rw=randwrite --direct=0 --ioengine=psync --numjobs=1"
	"--name=mixed --rw=randrw --direct=1 --ioengine=libaio --iodepth=32 --numjobs=2 --offset_increment=8m --size=8m"
)
for j in "${jobs[@]}"; do
	# shellcheck disable=SC2086
	fio "${common[@]}" $j >"$out/fio.txt" 2>&1 || { cat "$out/fio.txt"; fail "fio $j failed"; }
	errs=$(fio_errors "$out/fio.txt")
	[ "$errs" = 0 ] || { cat "$out/fio.txt"; fail "fio $j: $errs errors"; }
done
reads1=$(counter dispatched_reads) writes1=$(counter dispatched_writes)
[ "$reads1" -gt "$reads0" ] || fail "dispatched_reads did not grow ($reads0 -> $reads1)"
[ "$writes1" -gt "$writes0" ] || fail "dispatched_writes did not grow ($writes0 -> $writes1)"
set_sched "$DEV" none
