#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="a bio that fills the gap between two queued requests joins all three into one (former_request, next_request), as under mq-deadline (fair-queue: the bio joins the request before it), and the data verifies"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
# A device that takes one request at a time for 50 ms: the writes pile
# up in the scheduler, where they can merge.
[ -d "$NULLB_CFS" ] || skip "no null_blk configfs"
out=$(mktemp)
trap 'nullb_remove ekmerge; rm -f "$out"' EXIT
dev=$(nullb_create ekmerge size=64 irqmode=2 completion_nsec=50000000 \
	hw_queue_depth=1) || fail "cannot create a null_blk device"
set_sched "$dev" "$SCHED" || fail "could not select $SCHED on $dev"

# writes SCHED: requests the device completed for one run of two jobs,
# each writing every other 4 KiB block (32 of them, all at once), the
# second 0.15 s after the first: its writes each fill a gap between two
# of the first's, queued by then. Each job reads its blocks back.
writes() {
	local before after
	set_sched "$dev" "$1" || fail "could not select $1 on $dev"
	# Room for them all (a selection starts at twice the device's depth).
	# Twice: mq-deadline (6.1, 6.12) computes its writes' depth from the
	# nr_requests before the store (which would leave them one tag), and
	# a store of the value there is ignored.
	if ! { echo 63 >"/sys/block/$dev/queue/nr_requests" &&
		echo 64 >"/sys/block/$dev/queue/nr_requests"; }; then
		fail "cannot set nr_requests under $1"
	fi
	before=$(awk '{print $5}' "/sys/block/$dev/stat")
	fio --filename="/dev/$dev" --direct=1 --ioengine=libaio --bs=4k \
		--iodepth=32 --size=256k --verify=crc32c --verify_fatal=1 \
		--output-format=terse \
		--name=even --rw=write:4k --offset=0 \
		--name=odd --rw=write:4k --offset=4k --startdelay=150ms \
		>"$out" 2>&1 || { cat "$out" >&2; fail "fio under $1 failed"; }
	[ "$(fio_errors "$out")" = 0 ] || { cat "$out" >&2; fail "fio errors under $1"; }
	after=$(awk '{print $5}' "/sys/block/$dev/stat")
	echo $((after - before))
}

ref=$(writes mq-deadline) || exit 1
n=$(writes "$SCHED") || exit 1
echo "write requests for 64 writes: $SCHED $n, mq-deadline $ref"
if [ "$SCHED" = fair-queue ]; then
	# Finding the request after a grown one needs the policy's
	# front_merge_candidate; fair-queue has none (nor front merges), as
	# in the simulator. Bios still join the request they follow (the
	# merge hash): the second job's writes grow the first's requests.
	[ "$n" -lt 48 ] || fail "$SCHED: $n write requests for 64 writes: bios did not merge"
else
	# Without joining requests, each of the first job's 32 writes stays
	# a request of its own (the second job's only grow them).
	[ "$n" -lt 24 ] || fail "$SCHED: $n write requests for 64 writes (mq-deadline: $ref)"
fi
set_sched "$dev" none
