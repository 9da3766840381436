#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="every tunable reads its default, takes a valid value, rejects invalid ones with EINVAL and keeps the old value"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
set_sched "$DEV" "$SCHED" || fail "could not select $SCHED"
dir=$(iosched_dir "$DEV")
table=$(tunable_table "$SCHED") || exit 1
# Reads with the read builtin, not cat: every exec costs under TCG.
while read -r name def min max; do
	f=$dir/$name
	read -r v <"$f" || fail "$name unreadable"
	[ "$v" = "$def" ] || fail "$name default $v, expected $def"
	other_value "$def" "$min" "$max"
	new=$OTHER
	echo "$new" >"$f" 2>/dev/null || fail "$name rejected valid $new"
	read -r v <"$f"
	[ "$v" = "$new" ] || fail "$name: wrote $new, reads $v"
	for bad in abc "" 1x "$((min - 1))" "$((max + 1))" 99999999999999999999; do
		if err=$({ printf '%s\n' "$bad" >"$f"; } 2>&1); then
			fail "$name accepted invalid '$bad'"
		fi
		case $err in *"Invalid argument"*) ;; *) fail "$name '$bad': $err (want EINVAL)" ;; esac
		read -r v <"$f"
		[ "$v" = "$new" ] || fail "$name changed to $v after invalid '$bad'"
	done
	echo "$def" >"$f" || fail "$name: restoring $def"
done <<<"$table"
# Statistics files (not in the table) must be readable numbers.
for f in "$dir"/*; do
	read -r v <"$f"
	[[ $v =~ ^-?[0-9]+$ ]] || fail "${f##*/} reads '$v'"
done
set_sched "$DEV" none
