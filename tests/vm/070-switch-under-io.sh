#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="data written while switching between the scheduler, none and mq-deadline reads back verified"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
set_sched "$DEV" "$SCHED" || fail "could not select $SCHED"
out=$(mktemp)
fio --name=switch --filename="/dev/$DEV" --size=16m --bs=4k --rw=randwrite \
	--direct=1 --ioengine=libaio --iodepth=32 --verify=crc32c --verify_fatal=1 \
	--loops=2 --output-format=terse >"$out" 2>&1 &
pid=$!
n=0
while kill -0 $pid 2>/dev/null && [ $n -lt 40 ]; do
	for s in none "$SCHED" mq-deadline "$SCHED"; do
		echo "$s" >"$(sched_file "$DEV")" 2>/dev/null
		sleep 0.2
	done
	n=$((n + 1))
done
wait $pid || { cat "$out"; fail "fio failed while switching"; }
errs=$(fio_errors "$out")
[ "$errs" = 0 ] || { cat "$out"; fail "$errs errors"; }
[ $n -gt 0 ] || fail "fio ended before any switch"
set_sched "$DEV" none
