#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="queue/nr_requests raised past the scheduler tags a queue started with grows the request descriptors (depth_updated): the new tags are used, and fio verifies through them"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
[ -d "$NULLB_CFS" ] || skip "no null_blk configfs"
fiolog=$(mktemp)
trap 'nullb_remove ekgrow; rm -f "$fiolog"' EXIT
# A device of depth 4 that holds each request 2 ms: it starts with 8
# scheduler tags (twice its depth), and what fio submits beyond 4 waits in
# the scheduler, holding a tag and its descriptor.
dev=$(nullb_create ekgrow size=64 irqmode=2 completion_nsec=2000000 \
	hw_queue_depth=4) || fail "cannot create a null_blk device"
set_sched "$dev" "$SCHED" || fail "could not select $SCHED on $dev"
tags=/sys/kernel/debug/block/$dev/hctx0/sched_tags
[ -r "$tags" ] || skip "no $tags (debugfs)"
nr_tags() { sed -n 's/^nr_tags=//p' "$tags"; }
before=$(nr_tags)
[ "${before:-0}" -gt 0 ] || fail "no nr_tags in $tags"
echo 256 >"/sys/block/$dev/queue/nr_requests" || fail "cannot set nr_requests 256"
after=$(nr_tags)
[ "${after:-0}" -ge 256 ] || fail "nr_requests 256: $after scheduler tags (were $before)"

# Two writers at depth 64 each, verified when their writes are done; the
# most tags busy meanwhile must pass what the queue started with.
fio --name=grow --filename="/dev/$dev" --rw=randwrite --bs=4k --direct=1 \
	--ioengine=libaio --iodepth=64 --numjobs=2 --offset_increment=8m \
	--size=8m --verify=crc32c --verify_fatal=1 --group_reporting \
	--output-format=terse >"$fiolog" 2>&1 &
pid=$!
peak_while "$pid" sed -n 's/^busy=//p' "$tags"
rc=0
wait "$pid" || rc=$?
[ $rc = 0 ] || { cat "$fiolog"; fail "fio exited $rc"; }
errs=$(fio_errors "$fiolog")
[ "$errs" = 0 ] || { cat "$fiolog"; fail "fio: $errs errors"; }
[ "$PEAK" -gt "$before" ] ||
	fail "at most $PEAK scheduler tags busy: the $before the queue started with"
set_sched "$dev" none
