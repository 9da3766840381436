#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="rmmod is refused while a device uses the scheduler and succeeds after switching back to none"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
set_sched "$DEV" "$SCHED" || fail "could not select $SCHED"
if rmmod "$SCHED" 2>/dev/null; then
	fail "rmmod $SCHED succeeded while $DEV uses it"
fi
module_loaded "$SCHED" || fail "$SCHED gone while in use"
set_sched "$DEV" none || fail "could not switch to none"
rmmod "$SCHED" || fail "rmmod $SCHED failed after switching to none"
module_loaded "$SCHED" && fail "$SCHED still loaded"
load_modules || fail "reloading failed"
