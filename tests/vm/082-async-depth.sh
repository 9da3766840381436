#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="async_depth bounds the scheduler tags writes hold (limit_depth), also after queue/nr_requests changes (depth_updated)"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
set_sched "$DEV" "$SCHED" || fail "could not select $SCHED"
ad=$(iosched_dir "$DEV")/async_depth
[ -e "$ad" ] || fail "no iosched/async_depth"
q=/sys/block/$DEV/queue
tags=/sys/kernel/debug/block/$DEV/hctx0/sched_tags
[ -r "$tags" ] || skip "no $tags (debugfs)"

# The most scheduler tags in use while direct writes run at depth 32 (far
# from the data other tests verify: 040 and 410 keep theirs in the first 48m).
peak() {
	local max=0 b
	fio --name=w --filename="/dev/$DEV" --rw=randwrite --bs=4k --direct=1 \
		--ioengine=libaio --iodepth=32 --offset=512m --size=16m --time_based \
		--runtime=3 >/dev/null 2>&1 &
	local pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		b=$(sed -n 's/^busy=//p' "$tags")
		[ "${b:-0}" -le "$max" ] || max=$b
		sleep 0.05
	done
	wait "$pid"
	echo "$max"
}

nr0=$(cat "$q/nr_requests")
echo 4 >"$ad" || fail "cannot set async_depth"
p=$(peak)
[ "$p" -le 4 ] || fail "async_depth 4: $p scheduler tags busy"
[ "$p" -ge 1 ] || fail "no busy scheduler tag seen"
echo 16 >"$q/nr_requests" || fail "cannot set nr_requests"
p=$(peak)
[ "$p" -le 4 ] || fail "async_depth 4, nr_requests 16: $p scheduler tags busy"
echo 0 >"$ad"
p=$(peak)
[ "$p" -gt 4 ] || fail "async_depth 0 (no limit): only $p scheduler tags busy"
echo "$nr0" >"$q/nr_requests"
set_sched "$DEV" none
