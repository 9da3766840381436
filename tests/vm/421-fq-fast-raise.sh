#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by guest.sh
DESCRIPTION="fair-queue: two busy processes on a fast null_blk (inline completion, 2 submit queues) are weight-raised once each, as new queues, never again while busy (the shim hands the policy times that never go back)"
. "$(dirname "$0")/lib.sh"
need_sched fair-queue
load_modules || fail "insmod failed"
[ -d "$NULLB_CFS" ] || skip "null_blk has no configfs"
# Completions inline in the submitting CPU, two CPUs submitting: the
# scheduler's callbacks race for its lock with times read on both CPUs.
trap 'nullb_remove fqfast' EXIT
dev=$(nullb_create fqfast size=16384 irqmode=0 submit_queues=2) ||
	fail "cannot create a null_blk device"
set_sched "$dev" fair-queue || fail "could not select fair-queue"
d=$(iosched_dir "$dev")
r0=$(cat "$d/raises")
out=$(timeout 120 fio --output-format=terse --filename="/dev/$dev" \
	--direct=1 --ioengine=libaio --iodepth=32 --rw=randread --bs=4k \
	--randrepeat=0 --time_based --runtime=3 --numjobs=2 --name=r 2>&1) ||
	fail "fio failed: $out"
raises=$(($(cat "$d/raises") - r0))
echo "raises $raises, queue_switches $(cat "$d/queue_switches"), idle_hits $(cat "$d/idle_hits"), reads $(cat "$d/dispatched_reads")"
# Before the shim read the time under its lock, a process's return from a
# moment's idleness could be stamped before the time it went idle: 2^64 ns
# idle, raised again (11 to 22 raises in 3 s here).
[ "$raises" -le 3 ] || fail "$raises raises for 2 processes that stayed busy"
[ "$raises" -ge 1 ] || fail "no raise for 2 new processes (low_latency)"
