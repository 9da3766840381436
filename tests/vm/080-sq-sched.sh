#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="the scheduler marks its queue single-queue dispatch (QUEUE_FLAG_SQ_SCHED), as mq-deadline does and kyber does not"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
state=/sys/kernel/debug/block/$DEV/state
[ -r "$state" ] || skip "no $state (debugfs)"
modprobe kyber-iosched 2>/dev/null
flags() { set_sched "$DEV" "$1" || fail "could not select $1"; sed 's/[ |]/\n/g' "$state" | sort; }
# The flag's name as this kernel's debugfs prints it (6.1 prints a number):
# what mq-deadline sets that kyber clears.
sq=$(comm -23 <(flags mq-deadline) <(flags kyber))
[ "$(printf '%s\n' "$sq" | grep -c .)" = 1 ] || skip "cannot tell the SQ_SCHED flag: '$sq'"
flags "$SCHED" | grep -qxF "$sq" || fail "$SCHED does not set $sq (state: $(cat "$state"))"
set_sched "$DEV" none
