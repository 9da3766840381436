#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="the scheduler is listed in /sys/block/nullb0/queue/scheduler"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
grep -qw -- "$SCHED" "$(sched_file "$DEV")" || fail "$SCHED not in: $(cat "$(sched_file "$DEV")")"
