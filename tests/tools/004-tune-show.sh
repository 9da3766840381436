#!/bin/bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="ioschedctl tune/show: checks keys, refuses read-only ones, reports the kernel's refusal"
. "$(dirname "$0")/lib.sh"
mkdev sda "[deadline-read] mq-deadline none" 1 \
	queue/iosched/read_expire=125 queue/iosched/fifo_batch=16 queue/iosched/dispatched=7
chmod 0444 "$T/sys/block/sda/queue/iosched/dispatched"
mkdev nullb0 "[none] mq-deadline" 0
mkdev dm-0 "none" 0

expect 0 "^scheduler: deadline-read$" -- show sda
printf '%s\n' "$OUT" | grep -qx '  read_expire = 125' || fail "show read_expire: $OUT"
printf '%s\n' "$OUT" | grep -qx '  fifo_batch = 16' || fail "show fifo_batch: $OUT"
printf '%s\n' "$OUT" | grep -qx '  dispatched = 7 (ro)' || fail "show ro counter: $OUT"
printf '%s\n' "$OUT" | grep -qx 'rotational: 1' || fail "show rotational: $OUT"
expect 0 "^scheduler: none$" -- show nullb0
expect 0 "cannot have an I/O scheduler" -- show dm-0
expect 1 "no such block device" -- show sdq

# the kernel refusing a value: writes to /dev/full fail (ENOSPC)
ln -s /dev/full "$T/sys/block/sda/queue/iosched/write_expire"
expect 0 "^sda: read_expire = 200$" -- tune sda read_expire=200 fifo_batch=8
[ "$(cat "$T/sys/block/sda/queue/iosched/fifo_batch")" = 8 ] || fail "fifo_batch not written"
expect 1 "has no tunable 'bogus'" -- tune sda read_expire=100 bogus=1
[ "$(cat "$T/sys/block/sda/queue/iosched/read_expire")" = 200 ] ||
	fail "keys must be checked before anything is written"
expect 1 "tunable 'dispatched' of deadline-read is read-only" -- tune sda dispatched=1
expect 1 "kernel refused write_expire=9 for sda: No space left on device; nothing changed$" -- tune sda write_expire=9
# All or nothing: a refusal after keys already written writes their old
# values back, and prints no value as set.
expect 1 "kernel refused write_expire=9 for sda: No space left on device; nothing changed$" -- \
	tune sda read_expire=300 fifo_batch=4 write_expire=9
[ -z "$OUT" ] || fail "a failed tune printed values: $OUT"
[ "$(cat "$T/sys/block/sda/queue/iosched/read_expire")" = 200 ] ||
	fail "read_expire left changed by a failed tune: $(cat "$T/sys/block/sda/queue/iosched/read_expire")"
[ "$(cat "$T/sys/block/sda/queue/iosched/fifo_batch")" = 8 ] ||
	fail "fifo_batch left changed by a failed tune: $(cat "$T/sys/block/sda/queue/iosched/fifo_batch")"
# An old value that cannot be written back (none read: /dev/null): the
# error says which.
mkdev sde "[deadline-read] none" 1 queue/iosched/fifo_batch=16
ln -s /dev/full "$T/sys/block/sde/queue/iosched/write_expire"
ln -s /dev/null "$T/sys/block/sde/queue/iosched/read_expire"
expect 1 "refused write_expire=9 for sde: .*; the old value of read_expire could not be written back$" -- \
	tune sde fifo_batch=4 read_expire=1 write_expire=9
[ "$(cat "$T/sys/block/sde/queue/iosched/fifo_batch")" = 16 ] || fail "sde: fifo_batch not restored"
expect 1 "nullb0 has no active scheduler" -- tune nullb0 read_expire=1
expect 1 "dm-0 cannot have an I/O scheduler" -- tune dm-0 read_expire=1

# 7.2: mq-deadline's async_depth lives in queue/, the scheduler's own
# (elvkit's) in queue/iosched/ wins where both exist
mkdev sdb "[mq-deadline] bfq none" 1 queue/iosched/read_expire=500 queue/async_depth=64
mkdev sdc "[fair-queue] mq-deadline none" 1 queue/iosched/async_depth=0 queue/async_depth=64
mkdev sdd "[none] mq-deadline" 1 queue/async_depth=64
expect 0 "^sdb: async_depth = 8$" -- tune sdb async_depth=8 read_expire=400
[ "$(cat "$T/sys/block/sdb/queue/async_depth")" = 8 ] || fail "queue/async_depth not written"
[ ! -e "$T/sys/block/sdb/queue/iosched/async_depth" ] || fail "tune created iosched/async_depth"
expect 0 "^  async_depth = 8 \(queue/async_depth\)$" -- show sdb
expect 0 "^sdc: async_depth = 0$" -- tune sdc async_depth=0
[ "$(cat "$T/sys/block/sdc/queue/async_depth")" = 64 ] || fail "sdc: queue/async_depth written, not iosched/"
expect 0 "^  async_depth = 0$" -- show sdc
[ "$(printf '%s\n' "$OUT" | grep -c async_depth)" = 1 ] || fail "show sdc lists async_depth twice: $OUT"
expect 0 "^scheduler: none$" -- show sdd
printf '%s\n' "$OUT" | grep -q async_depth && fail "show of none lists async_depth: $OUT"
expect 1 "sdd has no active scheduler" -- tune sdd async_depth=8
chmod 0444 "$T/sys/block/sdb/queue/async_depth"
expect 1 "tunable 'async_depth' of mq-deadline is read-only" -- tune sdb async_depth=4
done_test
