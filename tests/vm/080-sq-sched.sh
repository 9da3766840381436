#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="the scheduler marks its queue single-queue dispatch (QUEUE_FLAG_SQ_SCHED), as mq-deadline does"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
state=/sys/kernel/debug/block/$DEV/state
[ -r "$state" ] || skip "no $state (debugfs)"
tmp=$(mktemp -d)
# The queue flags, one per line, into file $2 ($1 names the scheduler).
flags() { sed 's/[ |]/\n/g' "$state" | sort >"$2"; }
set_sched "$DEV" mq-deadline || skip "no mq-deadline"
flags mq-deadline "$tmp/dd"
set_sched "$DEV" none || fail "could not select none"
flags none "$tmp/none"
# The flag's name as this kernel's debugfs prints it (6.1 prints a number):
# what mq-deadline sets and none does not.
sq=$(comm -23 "$tmp/dd" "$tmp/none")
[ "$(printf '%s\n' "$sq" | grep -c .)" = 1 ] || skip "cannot tell the SQ_SCHED flag: '$sq'"
set_sched "$DEV" "$SCHED" || fail "could not select $SCHED"
flags "$SCHED" "$tmp/ek"
grep -qxF "$sq" "$tmp/ek" || fail "$SCHED does not set $sq (state: $(cat "$state"))"
set_sched "$DEV" none
