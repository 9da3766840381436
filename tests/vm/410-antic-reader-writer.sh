#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="anticipatory: a sequential reader against a buffered writer completes verified, waits start and end, switching away mid-wait is safe"
. "$(dirname "$0")/lib.sh"
need_sched anticipatory
load_modules || fail "insmod failed"
set_sched "$DEV" anticipatory || fail "could not select anticipatory"
d=$(iosched_dir "$DEV")
# null_blk is non-rotational: allow anticipation there for this test.
echo 1 >"$d/antic_nonrot" || fail "antic_nonrot"
echo 6 >"$d/antic_expire" || fail "antic_expire"
out=$(mktemp)
# The reader verifies what this writes first (not what an earlier test left).
fio --name=prep --filename="/dev/$DEV" --rw=write --bs=4k --size=16m --offset=0 \
	--ioengine=psync --direct=1 --verify=crc32c --do_verify=0 >"$out" 2>&1 ||
	{ cat "$out"; fail "writing the reader's data failed"; }
timeout 300 fio --output-format=terse --filename="/dev/$DEV" \
	--name=reader --rw=read --bs=4k --size=16m --offset=0 --ioengine=psync \
	--direct=1 --verify=crc32c --do_verify=1 --verify_fatal=1 \
	--name=writer --rw=write --bs=64k --size=16m --offset=32m --ioengine=psync \
	--direct=0 --end_fsync=1 --verify=crc32c --verify_fatal=1 \
	>"$out" 2>&1 || { cat "$out"; fail "fio failed or stalled"; }
errs=$(fio_errors "$out")
[ "$errs" = 0 ] || { cat "$out"; fail "$errs fio errors"; }
started=$(cat "$d/antic_started") hits=$(cat "$d/antic_hits")
timeouts=$(cat "$d/antic_timeouts") aborted=$(cat "$d/antic_aborted")
echo "antic: started $started hits $hits timeouts $timeouts aborted $aborted"
[ "$started" -gt 0 ] || fail "no anticipation wait started"
[ $((hits + timeouts + aborted)) -gt 0 ] || fail "no wait ever ended"
# Switch away and back while a reader keeps waits pending.
fio --name=bg --filename="/dev/$DEV" --rw=randread --bs=4k --size=16m \
	--ioengine=psync --direct=1 --time_based --runtime=6 >/dev/null 2>&1 &
pid=$!
for _ in 1 2 3 4 5; do
	sleep 0.5
	set_sched "$DEV" none || fail "switch to none"
	set_sched "$DEV" anticipatory || fail "switch back"
	echo 1 >"$d/antic_nonrot"
done
wait $pid || fail "reader failed across switches"
set_sched "$DEV" none
