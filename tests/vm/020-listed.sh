#!/usr/bin/env bash
DESCRIPTION="the scheduler is listed in /sys/block/nullb0/queue/scheduler"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
grep -qw -- "$SCHED" "$(sched_file)" || fail "$SCHED not in: $(cat "$(sched_file)")"
