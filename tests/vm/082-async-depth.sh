#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="async_depth bounds the scheduler tags writes hold (limit_depth), also after queue/nr_requests changes (depth_updated), and is queue/async_depth where the kernel has one"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
# Only policies whose table has async_depth (those favouring reads) limit
# async depth; for them the sysfs file below must exist.
table=$(tunable_table "$SCHED") || exit 1
grep -q '^async_depth ' <<<"$table" || skip "$SCHED has no async_depth tunable"
# A device of its own that holds each request 10 ms, so that requests pile
# up in the scheduler's tags instead of completing as fast as fio submits.
[ -d "$NULLB_CFS" ] || skip "no null_blk configfs"
trap 'nullb_remove ekdepth; rm -f "$fiolog"' EXIT
dev=$(nullb_create ekdepth size=64 irqmode=2 completion_nsec=10000000 \
	hw_queue_depth=64) || fail "cannot create a null_blk device"
set_sched "$dev" "$SCHED" || fail "could not select $SCHED on $dev"
ad=$(iosched_dir "$dev")/async_depth
[ -e "$ad" ] || fail "no iosched/async_depth"
q=/sys/block/$dev/queue
tags=/sys/kernel/debug/block/$dev/hctx0/sched_tags
[ -r "$tags" ] || skip "no $tags (debugfs)"

# The most scheduler tags in use while direct writes run at depth 32. A
# fio that fails is reported as such, not as "no busy tag" (it once read
# so on the debug kernel, cause unknown).
fiolog=$(mktemp)
peak() {
	local rc=0 pid
	fio --name=w --filename="/dev/$dev" --rw=randwrite --bs=4k --direct=1 \
		--ioengine=libaio --iodepth=32 --size=16m --time_based \
		--runtime=3 >"$fiolog" 2>&1 &
	pid=$!
	peak_while "$pid" sed -n 's/^busy=//p' "$tags"
	wait "$pid" || rc=$?
	[ $rc = 0 ] || fail "fio exited $rc: $(tail -n 3 "$fiolog" | tr '\n' ' ')"
	echo "$PEAK"
}

echo 4 >"$ad" || fail "cannot set async_depth"
p=$(peak) || exit 1
[ "$p" -le 4 ] || fail "async_depth 4: $p scheduler tags busy"
[ "$p" -ge 1 ] || fail "no busy scheduler tag seen"
echo 16 >"$q/nr_requests" || fail "cannot set nr_requests"
p=$(peak) || exit 1
[ "$p" -le 4 ] || fail "async_depth 4, nr_requests 16: $p scheduler tags busy"
echo 0 >"$ad"
p=$(peak) || exit 1
[ "$p" -gt 4 ] || fail "async_depth 0 (no limit): only $p scheduler tags busy"

# Where the queue has an async_depth of its own (7.2), it is the same
# limit: it shows the tunable (0, no limit, as nr_requests), a store there
# is a store of the tunable, the kernel's rescaling with nr_requests
# carries over, and a new selection shows its own value, not the last
# scheduler's (none leaves the hardware depth, 64, against 128 requests).
qa=$q/async_depth
reads() {
	local v
	read -r v <"$1"
	[ "$v" = "$2" ] || fail "$3: ${1#/sys/block/"$dev"/} reads $v, not $2"
}
if [ -e "$qa" ]; then
	reads "$qa" 16 "async_depth 0, nr_requests 16"
	echo 4 >"$qa" || fail "cannot write queue/async_depth"
	reads "$ad" 4 "queue/async_depth 4"
	p=$(peak) || exit 1
	[ "$p" -le 4 ] || fail "queue/async_depth 4: $p scheduler tags busy"
	echo 32 >"$q/nr_requests" || fail "cannot set nr_requests"
	reads "$qa" 8 "queue/async_depth 4 of 16, nr_requests 32"
	reads "$ad" 8 "queue/async_depth 4 of 16, nr_requests 32"
	echo 6 >"$ad" || fail "cannot set async_depth"
	reads "$qa" 6 "async_depth 6"
	echo 0 >"$ad" || fail "cannot set async_depth"
	reads "$qa" 32 "async_depth 0, nr_requests 32"
	set_sched "$dev" none || fail "could not select none"
	set_sched "$dev" "$SCHED" || fail "could not select $SCHED again"
	reads "$qa" "$(cat "$q/nr_requests")" "a new selection of $SCHED"
fi
set_sched "$dev" none
