#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="allocation failures (failslab, the debug kernel): the Nth slab allocation of a scheduler switch, an nr_requests change and a tunable write fails, for every N up to past the last; each fails cleanly or succeeds, verified fio passes after each, and the module's refcount returns to where it was (plus what the kernel itself leaks on a failed switch, checked against mq-deadline)"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rel-lib.sh"
FS=/sys/kernel/debug/failslab
[ -d "$FS" ] || skip "kernel without CONFIG_FAILSLAB (the debug kernel has it: scripts/debug-kernel.sh)"

# shellcheck disable=SC2317 # called by the EXIT trap (rel-lib.sh)
rel_cleanup() {
	echo 1 >"$FS/ignore-gfp-wait" 2>/dev/null
	echo 0 >"$FS/verbose" 2>/dev/null
	echo none >"$(sched_file "$DEV")" 2>/dev/null
}
load_modules || fail "insmod failed"
set_sched "$DEV" none || fail "none on $DEV"
mod=${SCHED//-/_}
# GFP_KERNEL allocations may fail too (by default failslab spares them);
# __GFP_NOFAIL ones never do. A stack with each failure, to tell elvkit's
# own allocations from the kernel's.
echo N >"$FS/ignore-gfp-wait"
echo 2 >"$FS/verbose"
echo 1000 >"$FS/verbose_ratelimit_burst" 2>/dev/null

injected=0 in_elvkit=0 clean_fail=0 ok=0 attempts=0

# armed N FILE VALUE: write VALUE to FILE from a task whose Nth fallible
# allocation fails (/proc/thread-self/fail-nth: this task only, counted
# from the write on). Returns the write's status; hit=1 when the failure
# was injected during the write (fail-nth reads 0 once it was).
armed() {
	local t rc
	t=$(_rel_log_now)
	(
		echo "$1" >/proc/thread-self/fail-nth || exit 3
		if echo "$3" >"$2"; then rc=0; else rc=1; fi
		left=
		read -r left </proc/thread-self/fail-nth 2>/dev/null
		[ "$left" = 0 ] && exit $((rc ? 11 : 10))
		exit $((rc ? 21 : 20))
	)
	rc=$?
	attempts=$((attempts + 1))
	case $rc in
	10 | 11) hit=1 ;;
	20 | 21) hit=0 ;;
	*) fail "fail-nth: cannot arm ($rc)" ;;
	esac
	if [ "$hit" = 1 ]; then
		injected=$((injected + 1))
		rel_log_after "${t:-0}" | grep -qE "\[(elvkit|$mod)\]" &&
			in_elvkit=$((in_elvkit + 1))
	fi
	[ $((rc % 10)) = 0 ]
}

# verify NAME: a short verified write/read through whatever is selected.
verify() {
	rel_fio "$1" --name=v --filename="/dev/$DEV" --size=512k --bs=4k --rw=randwrite \
		--direct=1 --ioengine=libaio --iodepth=8 --verify=crc32c || true
	rel_fio_ok "$1"
}

refcnt() { cat "/sys/module/$1/refcnt"; }

# switches NAME VERIFY: select NAME with its Nth allocation failing, for
# N = 1.. until a switch needs no more (or the cap); a failure leaves the
# device on none (the kernel falls back to none when an elevator's init
# fails). VERIFY=1: verified fio after every attempt. Sets leaked: the
# module references the attempts left behind.
switches() {
	local name=$1 check=$2 m=${1//-/_} max cur
	ref0=$(refcnt "$m")
	max=$(rel_n 40)
	for ((n = 1; n <= max; n++)); do
		if armed "$n" "$(sched_file "$DEV")" "$name"; then
			[ "$(current_sched "$DEV")" = "$name" ] || fail "switch accepted at allocation $n but $name not selected"
			ok=$((ok + 1))
		else
			cur=$(current_sched "$DEV")
			[ "$cur" = none ] || fail "switch failing at allocation $n left '$cur', not none"
			clean_fail=$((clean_fail + 1))
		fi
		[ "$check" = 0 ] || verify "switch-$n"
		set_sched "$DEV" none || fail "back to none after attempt $n"
		# Past the last allocation of a switch nothing more can fail.
		[ "$hit" = 1 ] || break
	done
	[ "$hit" = 0 ] || echo "note: a $name switch still had allocations to fail at $max"
	leaked=$(($(refcnt "$m") - ref0))
}

# 1. Selecting the scheduler. 6.1 itself leaks the module reference of a
# switch that fails before the scheduler's init_sched allocated its
# elevator_queue (the reference elevator_get took is dropped only when
# that queue is released): mq-deadline, run the same way once per boot
# where it is a module, is the control; elvkit may leak no more than it.
control=/tmp/elvkit-780-mq-deadline-leak
if [ ! -e "$control" ] && modprobe mq-deadline 2>/dev/null && [ -e /sys/module/mq_deadline/refcnt ]; then
	switches mq-deadline 0
	echo "$leaked" >"$control"
	echo "control: mq-deadline's failed switches left $leaked module references"
fi
switches "$SCHED" 1
allowed=$(cat "$control" 2>/dev/null || echo 0)
echo "$SCHED's failed switches left $leaked module references (mq-deadline's: $allowed)"
[ "$leaked" -le "$allowed" ] || fail "$SCHED leaked $leaked module references, the kernel's own mq-deadline $allowed"
rel_metric fault module_refs_leaked_by_kernel "$leaked"

# 2. nr_requests and a tunable, with the scheduler in place (no stacks:
# the log would overflow).
echo 1 >"$FS/verbose"
set_sched "$DEV" "$SCHED" || fail "select $SCHED"
table=$(tunable_table "$SCHED") || exit 1
read -r tname tval tmin tmax _ <<<"$table"
tfile=$(iosched_dir "$DEV")/$tname
qfile=/sys/block/$DEV/queue/nr_requests
depth0=$(cat "$qfile")
depth=$depth0
for ((n = 1; n <= $(rel_n 10); n++)); do
	# A new value each time, so that a kept old value shows.
	want=$((depth0 / 2 + n))
	if armed "$n" "$qfile" "$want"; then
		ok=$((ok + 1))
		depth=$want
	else
		clean_fail=$((clean_fail + 1))
	fi
	[ "$(cat "$qfile")" = "$depth" ] ||
		fail "nr_requests reads $(cat "$qfile") after writing $want failed at allocation $n, want $depth"
	[ "$(current_sched "$DEV")" = "$SCHED" ] || fail "nr_requests failure changed the scheduler"
	new=$tmin
	[ "$tval" != "$tmin" ] || new=$tmax
	if armed "$n" "$tfile" "$new"; then
		ok=$((ok + 1))
		tval=$new
	else
		clean_fail=$((clean_fail + 1))
	fi
	[ "$(cat "$tfile")" = "$tval" ] || fail "$tname reads $(cat "$tfile"), want $tval (allocation $n)"
	verify "depth-$n"
done
echo "$depth0" >"/sys/block/$DEV/queue/nr_requests" || fail "restore nr_requests"
set_sched "$DEV" none || fail "none at the end"
[ "$(refcnt "$mod")" = $((ref0 + leaked)) ] ||
	fail "$SCHED refcnt $(refcnt "$mod") with no user, want $ref0 + $leaked left by failed switches"

echo "$attempts attempts: $injected failures injected ($in_elvkit in elvkit's code), $clean_fail refused cleanly, $ok succeeded"
[ "$injected" -gt 0 ] || fail "no allocation failure was injected"
rel_metric fault allocation_failures "$injected"
rel_metric fault allocation_failures_in_elvkit "$in_elvkit"
rel_metric load devices 1
exit 0
