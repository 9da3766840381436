#!/bin/bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="ioschedctl set: switches, loads the module, one-line errors for bad device/scheduler"
. "$(dirname "$0")/lib.sh"
mkdev sda "[mq-deadline] none" 1
mkdev dm-0 "none" 0
mkpart sda sda1
echo deadline-read >"$T/loadable"
sched() { cat "$T/sys/block/$1/queue/scheduler"; }

expect 0 "^sda: none$" -- set sda none
[ "$(sched sda)" = none ] || fail "scheduler file not written: $(sched sda)"
echo "[none] mq-deadline" >"$T/sys/block/sda/queue/scheduler"
# not offered yet: loaded through the fake modprobe, then written
expect 0 "^sda: deadline-read$" -- set sda deadline-read
[ "$(sched sda)" = deadline-read ] || fail "after module load: $(sched sda)"
echo "[none] mq-deadline" >"$T/sys/block/sda/queue/scheduler"
# An unknown name loads nothing but its NAME-iosched alias: never a module
# of that name (null_blk, loop: devices created by a typo).
: >"$T/modprobe.log"
expect 1 "unknown scheduler 'nosuch'" -- set sda nosuch
expect 1 "unknown scheduler 'null_blk'" -- set sda null_blk
[ "$(cat "$T/modprobe.log")" = "-q -- nosuch-iosched
-q -- null_blk-iosched" ] || fail "modprobe calls: $(cat "$T/modprobe.log")"
# The same through the default, modprobe on PATH.
mkdir -p "$T/bin"
printf '#!/bin/sh\necho "$*" >>"%s/path-modprobe.log"\nexit 1\n' "$T" >"$T/bin/modprobe"
chmod +x "$T/bin/modprobe"
PATH=$T/bin:$PATH IOSCHEDCTL_MODPROBE="" expect 1 "unknown scheduler 'loop'" -- set sda loop
[ "$(cat "$T/path-modprobe.log" 2>/dev/null)" = "-q -- loop-iosched" ] ||
	fail "modprobe on PATH called: $(cat "$T/path-modprobe.log" 2>/dev/null)"
expect 1 "no such block device: sdz" -- set sdz none
expect 1 "no such block device: /dev/elvkit-nonexistent" -- set /dev/elvkit-nonexistent none
expect 1 "dm-0 cannot have an I/O scheduler" -- set dm-0 mq-deadline
expect 1 "sda1 is a partition" -- set sda1 mq-deadline
done_test
