#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="hardware queues that share their scheduler tags (a host-wide tag set, 2048 tags) share one set of request descriptors, and I/O through them verifies"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
[ -d "$NULLB_CFS" ] || skip "no null_blk configfs"
out=$(mktemp)
trap 'nullb_remove ekshared; rm -f "$out"' EXIT
nr=$(nproc)
[ "$nr" -ge 2 ] || skip "one CPU: one hardware queue"
[ "$nr" -le 8 ] || nr=8		# 8 jobs of 8 MiB below
dev=$(nullb_create ekshared size=64 submit_queues="$nr" shared_tag_bitmap=1) ||
	skip "no null_blk with shared_tag_bitmap"
hw=$(find "/sys/block/$dev/mq" -mindepth 1 -maxdepth 1 | wc -l)
[ "$hw" -ge 2 ] || skip "$dev has $hw hardware queue(s)"

# Descriptors come in 4 KiB chunks of 28: a set of them is (tags / 28)
# objects of the 4 KiB kmalloc caches (7.2 spreads kmalloc over random
# ones, kmalloc-rnd-NN-4k), counted exactly once each is shrunk (its
# CPUs' slabs flushed).
objs_4k() {
	local c n t=0
	for c in /sys/kernel/slab/kmalloc-4k /sys/kernel/slab/kmalloc-rnd-*-4k; do
		[ -r "$c/objects" ] || continue
		echo 1 >"$c/shrink" 2>/dev/null
		read -r n _ <"$c/objects"
		t=$((t + n))
	done
	echo "$t"
}
tags=$(sed -n 's/^nr_tags=//p' "/sys/kernel/debug/block/$dev/hctx0/sched_tags" 2>/dev/null)
tags=${tags:-2048}
set=$(((tags + 27) / 28))
set_sched "$dev" none || fail "could not select none on $dev"
before=$(objs_4k)
[ "$before" -gt 0 ] || skip "no /sys/kernel/slab/kmalloc-4k/objects"
set_sched "$dev" "$SCHED" || fail "could not select $SCHED on $dev"
grew=$(($(objs_4k) - before))
echo "$hw hardware queues sharing $tags tags: 4 KiB objects +$grew under $SCHED (one set of descriptors: $set)"
# A set per hardware queue would be $hw sets.
[ "$grew" -lt $((set + set / 2)) ] ||
	fail "$SCHED: +$grew 4 KiB objects on $hw hardware queues sharing $tags tags (one set of descriptors: $set)"

fio --name=v --filename="/dev/$dev" --rw=randwrite --bs=4k --size=8m --direct=1 \
	--ioengine=libaio --iodepth=64 --numjobs="$nr" --offset_increment=8m --verify=crc32c \
	--verify_fatal=1 --output-format=terse >"$out" 2>&1 ||
	{ cat "$out" >&2; fail "fio failed"; }
[ "$(fio_errors "$out")" = 0 ] || { cat "$out" >&2; fail "fio errors"; }
# Leaving frees the set once (exit_sched warns if a request is still held).
set_sched "$dev" none || fail "could not select none again"
