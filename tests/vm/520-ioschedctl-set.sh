#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="ioschedctl set switches to the scheduler and back; unknown device/scheduler and scheduler-less devices fail with one line"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"

out=$("$ISC" set "$DEV" "$SCHED") || fail "set $DEV $SCHED failed"
[ "$out" = "$DEV: $SCHED" ] || fail "set printed '$out'"
[ "$(current_sched "$DEV")" = "$SCHED" ] || fail "after set: $(cat "$(sched_file)")"
"$ISC" set "$DEV" none >/dev/null || fail "set $DEV none failed"
[ "$(current_sched "$DEV")" = none ] || fail "after set none: $(cat "$(sched_file)")"

expect_err 1 "no such block device: sdzz" set sdzz "$SCHED"
expect_err 1 "unknown scheduler 'nosuch-sched'" set "$DEV" nosuch-sched
[ "$(current_sched "$DEV")" = none ] || fail "a failed set changed the scheduler"
# a bio-based RAM disk (brd) cannot have a scheduler
if modprobe brd rd_nr=1 rd_size=1024 2>/dev/null && [ -e /sys/block/ram0 ]; then
	expect_err 1 "ram0 cannot have an I/O scheduler" set ram0 "$SCHED"
	rmmod brd
else
	echo "brd not available: scheduler-less device case not run"
fi
exit 0
