#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="ioschedctl tune/show: every tunable set and shown; unknown and read-only keys and the kernel's EINVAL reported"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
dir=$(iosched_dir "$DEV")

"$ISC" set "$DEV" none >/dev/null || fail "set none"
expect_err 1 "no active scheduler" tune "$DEV" fifo_batch=1
"$ISC" set "$DEV" "$SCHED" >/dev/null || fail "set $SCHED"

show=$("$ISC" show "$DEV") || fail "show failed"
printf '%s\n' "$show" | grep -qx "scheduler: $SCHED" || fail "show: $show"
# every attribute shown with its value; counters marked (ro)
for f in "$dir"/*; do
	k=${f##*/}
	printf '%s\n' "$show" | grep -qE "^  $k = $(cat "$f")( \(ro\))?$" || fail "show lacks $k: $show"
done

table=$(tunable_table "$SCHED") || exit 1
# Every tunable to a value other than its default, in one call (ioschedctl
# takes several; each of its calls costs about a second under TCG), then
# each one refused above its range, then all back to the defaults.
sets=() defs=() want=""
while read -r name def min max; do
	new=$min; [ "$new" = "$def" ] && new=$max
	sets+=("$name=$new")
	defs+=("$name=$def")
	want+="$DEV: $name = $new"$'\n'
done <<<"$table"
out=$("$ISC" tune "$DEV" "${sets[@]}") || fail "tune ${sets[*]} failed"
[ "$out"$'\n' = "$want" ] || fail "tune printed '$out', not '$want'"
while read -r name def min max; do
	new=$min; [ "$new" = "$def" ] && new=$max
	[ "$(cat "$dir/$name")" = "$new" ] || fail "$name reads $(cat "$dir/$name") after tune"
	expect_err 1 "kernel refused $name=$((max + 1)) for $DEV: Invalid argument" tune "$DEV" "$name=$((max + 1))"
	[ "$(cat "$dir/$name")" = "$new" ] || fail "$name changed after a refused value"
done <<<"$table"
"$ISC" tune "$DEV" "${defs[@]}" >/dev/null || fail "restoring the defaults"
while read -r name def _; do
	[ "$(cat "$dir/$name")" = "$def" ] || fail "$name reads $(cat "$dir/$name"), not its default $def"
done <<<"$table"

first=$(awk 'NR == 1 {print $1}' <<<"$table")
before=$(cat "$dir/$first")
expect_err 1 "has no tunable 'no_such_knob'" tune "$DEV" "$first=$before" no_such_knob=1
ro=""
for f in "$dir"/*; do
	[ "$(stat -c %A "$f" | cut -c3)" = w ] || { ro=${f##*/}; break; }
done
if [ -n "$ro" ]; then
	expect_err 1 "tunable '$ro' of $SCHED is read-only" tune "$DEV" "$ro=0"
fi
"$ISC" tune "$DEV" fifo_batch >/dev/null 2>&1; [ $? = 2 ] || fail "tune KEY without =VALUE must exit 2"
"$ISC" set "$DEV" none >/dev/null || fail "set none at the end"
exit 0
