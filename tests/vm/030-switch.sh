#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="switching to the scheduler selects it and shows its tunables"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
set_sched "$DEV" "$SCHED" || fail "could not select $SCHED: $(cat "$(sched_file "$DEV")")"
table=$(tunable_table "$SCHED") || exit 1
while read -r name _; do
	[ -e "$(iosched_dir "$DEV")/$name" ] || fail "no iosched/$name"
done <<<"$table"
set_sched "$DEV" none || fail "could not switch back to none"
set_sched "$DEV" "$SCHED" || fail "could not select $SCHED again"
set_sched "$DEV" none
