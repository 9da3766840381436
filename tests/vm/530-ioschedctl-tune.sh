#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="ioschedctl tune/show: every tunable set and shown (7.2: mq-deadline's queue/async_depth too); unknown and read-only keys and the kernel's EINVAL reported"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
dir=$(iosched_dir "$DEV")

"$ISC" set "$DEV" none >/dev/null || fail "set none"
expect_err 1 "no active scheduler" tune "$DEV" fifo_batch=1
"$ISC" set "$DEV" "$SCHED" >/dev/null || fail "set $SCHED"

show=$("$ISC" show "$DEV") || fail "show failed"
printf '%s\n' "$show" | grep -qx "scheduler: $SCHED" || fail "show: $show"
# every attribute shown with its value; counters marked (ro). Builtins
# only in the loops: every fork costs under TCG.
for f in "$dir"/*; do
	k=${f##*/}
	read -r v <"$f"
	case $'\n'"$show"$'\n' in
	*$'\n'"  $k = $v"$'\n'* | *$'\n'"  $k = $v (ro)"$'\n'*) ;;
	*) fail "show lacks $k: $show" ;;
	esac
done

table=$(tunable_table "$SCHED") || exit 1
# Every tunable to a value other than its default, in one call (ioschedctl
# takes several; each of its calls starts a shell, slow under TCG), then
# each one refused above its range, then all back to the defaults.
sets=() defs=() want=""
declare -A other
while read -r name def min max; do
	other_value "$def" "$min" "$max"
	other[$name]=$OTHER
	sets+=("$name=$OTHER")
	defs+=("$name=$def")
	want+="$DEV: $name = $OTHER"$'\n'
done <<<"$table"
out=$("$ISC" tune "$DEV" "${sets[@]}") || fail "tune ${sets[*]} failed"
[ "$out"$'\n' = "$want" ] || fail "tune printed '$out', not '$want'"
while read -r name _ _ max; do
	new=${other[$name]}
	read -r v <"$dir/$name"
	[ "$v" = "$new" ] || fail "$name reads $v after tune"
	expect_err 1 "kernel refused $name=$((max + 1)) for $DEV: Invalid argument" tune "$DEV" "$name=$((max + 1))"
	read -r v <"$dir/$name"
	[ "$v" = "$new" ] || fail "$name changed after a refused value (reads $v)"
done <<<"$table"
"$ISC" tune "$DEV" "${defs[@]}" >/dev/null || fail "restoring the defaults"
while read -r name def _; do
	read -r v <"$dir/$name"
	[ "$v" = "$def" ] || fail "$name reads $v, not its default $def"
done <<<"$table"

first=$(awk 'NR == 1 {print $1}' <<<"$table")
before=$(cat "$dir/$first")
expect_err 1 "has no tunable 'no_such_knob'" tune "$DEV" "$first=$before" no_such_knob=1
# the first attribute without its owner-write bit, if any
ro=$(stat -c '%A %n' "$dir"/* | awk 'substr($1, 3, 1) != "w" { print $2; exit }')
ro=${ro##*/}
if [ -n "$ro" ]; then
	expect_err 1 "tunable '$ro' of $SCHED is read-only" tune "$DEV" "$ro=0"
fi
"$ISC" tune "$DEV" fifo_batch >/dev/null 2>&1; [ $? = 2 ] || fail "tune KEY without =VALUE must exit 2"

# 7.2: mq-deadline's async_depth is queue/async_depth, reached by the same
# key; ours stays iosched/async_depth, shown once
q=/sys/block/$DEV/queue
if [ -f "$q/async_depth" ]; then
	case $'\n'"$show" in *$'\n'"  async_depth = "*$'\n'*"  async_depth = "*) fail "show lists async_depth twice: $show" ;; esac
	"$ISC" set "$DEV" mq-deadline >/dev/null || fail "set mq-deadline"
	out=$("$ISC" tune "$DEV" async_depth=5) || fail "tune mq-deadline async_depth=5"
	[ "$out" = "$DEV: async_depth = 5" ] || fail "tune mq-deadline printed '$out'"
	read -r v <"$q/async_depth"
	[ "$v" = 5 ] || fail "queue/async_depth reads $v after tune, not 5"
	show=$("$ISC" show "$DEV") || fail "show failed"
	case $'\n'"$show"$'\n' in
	*$'\n'"  async_depth = 5 (queue/async_depth)"$'\n'*) ;;
	*) fail "show lacks queue/async_depth: $show" ;;
	esac
	expect_err 1 "kernel refused async_depth=0 for $DEV: Invalid argument" tune "$DEV" async_depth=0
fi
"$ISC" set "$DEV" none >/dev/null || fail "set none at the end"
exit 0
