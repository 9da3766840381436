#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="a bio that fills the gap between two queued requests joins all three into one (former_request, next_request), as under mq-deadline; under fair-queue a bio joins only its own process's requests (allow_merge, as bfq); a process's own stream merges under all; the data verifies"
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

# room SCHED: select SCHED with room for 64 requests (a selection starts
# at twice the device's depth). Twice: mq-deadline (6.1, 6.12) computes
# its writes' depth from the nr_requests before the store (which would
# leave them one tag), and a store of the value there is ignored.
room() {
	set_sched "$dev" "$1" || fail "could not select $1 on $dev"
	if ! { echo 63 >"/sys/block/$dev/queue/nr_requests" &&
		echo 64 >"/sys/block/$dev/queue/nr_requests"; }; then
		fail "cannot set nr_requests under $1"
	fi
}

# requests FIO-ARGS...: write requests the device completed for one fio
# run, which reads its blocks back.
requests() {
	local before after
	before=$(awk '{print $5}' "/sys/block/$dev/stat")
	fio --filename="/dev/$dev" --direct=1 --ioengine=libaio --bs=4k \
		--iodepth=32 --verify=crc32c --verify_fatal=1 \
		--output-format=terse "$@" >"$out" 2>&1 ||
		{ cat "$out" >&2; fail "fio under $(current_sched "$dev") failed"; }
	[ "$(fio_errors "$out")" = 0 ] || { cat "$out" >&2; fail "fio errors under $(current_sched "$dev")"; }
	after=$(awk '{print $5}' "/sys/block/$dev/stat")
	echo $((after - before))
}

# writes SCHED: requests the device completed for one run of two jobs,
# each writing every other 4 KiB block (32 of them, all at once), the
# second 0.15 s after the first: its writes each fill a gap between two
# of the first's, queued by then. Each job reads its blocks back.
writes() {
	room "$1"
	requests --size=256k \
		--name=even --rw=write:4k --offset=0 \
		--name=odd --rw=write:4k --offset=4k --startdelay=150ms
}

# stream SCHED: requests for one process's 32 sequential writes, each
# submitted alone (no plug to merge them in): they join in the scheduler.
stream() {
	room "$1"
	requests --size=128k --name=seq --rw=write --iodepth_batch_submit=1
}

ref=$(writes mq-deadline) || exit 1
n=$(writes "$SCHED") || exit 1
echo "write requests for 64 writes: $SCHED $n, mq-deadline $ref"
if [ "$SCHED" = fair-queue ]; then
	# Each job's writes are its own queue's: no bio joins the other
	# job's requests (as bfq's allow_merge refuses), so every write is a
	# request. 48 or fewer was the count before allow_merge.
	[ "$n" -eq 64 ] || fail "$SCHED: $n write requests for 64 writes of two processes: a bio joined another process's request"
else
	# Without joining requests, each of the first job's 32 writes stays
	# a request of its own (the second job's only grow them).
	[ "$n" -lt 24 ] || fail "$SCHED: $n write requests for 64 writes (mq-deadline: $ref)"
fi
n=$(stream "$SCHED") || exit 1
echo "write requests for one process's 32 sequential writes: $SCHED $n"
[ "$n" -lt 8 ] || fail "$SCHED: $n write requests for one process's 32 sequential writes"
set_sched "$dev" none
