#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by guest.sh
DESCRIPTION="anticipatory without anticipation: a reader's last reads, completed without the lock, end the drain that holds a writer's queued writes back, and the writes go"
. "$(dirname "$0")/lib.sh"
need_sched anticipatory
load_modules || fail "insmod failed"
set_sched "$DEV" anticipatory || fail "could not select anticipatory"
d=$(iosched_dir "$DEV")
# null_blk is non-rotational: no anticipation, so completions take no lock.
echo 0 >"$d/antic_nonrot" || fail "antic_nonrot"
out=$(mktemp)
# Reads are served in batches while the writer's writes wait. When the
# reader is done, its last reads are still on the device: the write batch
# waits for them (a drain), and the last one's completion, without the
# lock, is all that ends it. Nothing else comes to run the queue: if the
# host missed that, the writes would wait forever.
for i in $(seq 8); do
	timeout -k 5 60 fio --output-format=terse --filename="/dev/$DEV" --direct=1 \
		--ioengine=libaio --iodepth=16 --bs=4k \
		--name=reader --rw=randread --size=2m --offset=0 \
		--name=writer --rw=randwrite --size=2m --offset=64m \
		>"$out" 2>&1 || { cat "$out"; fail "round $i: fio failed or stalled"; }
	errs=$(fio_errors "$out")
	[ "$errs" = 0 ] || { cat "$out"; fail "round $i: $errs fio errors"; }
done
echo "8 rounds, $(<"$d/dispatched_reads") reads and $(<"$d/dispatched_writes") writes dispatched"
set_sched "$DEV" none
