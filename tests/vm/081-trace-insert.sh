#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="requests the scheduler takes in show as block_rq_insert trace events (what blktrace's I lines come from)"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
tr=/sys/kernel/tracing
trace_event_enable block/block_rq_insert || skip "no block_rq_insert tracepoint"
set_sched "$DEV" "$SCHED" || fail "could not select $SCHED"
dev=$(tr ':' ',' <"/sys/block/$DEV/dev")
echo 0 >"$tr/tracing_on"
: >"$tr/trace"
echo 1 >"$tr/tracing_on"
dd if="/dev/$DEV" of=/dev/null bs=4k count=16 iflag=direct 2>/dev/null
echo 0 >"$tr/tracing_on"
n=$(grep -c "block_rq_insert: $dev " "$tr/trace")
: >"$tr/trace"
set_sched "$DEV" none
[ "$n" -ge 16 ] || fail "$n block_rq_insert events for 16 reads"
