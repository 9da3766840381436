#!/bin/bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="ioschedctl persist/unpersist: udev rules by WWN, serial or path ID, never kernel name"
. "$(dirname "$0")/lib.sh"
mkdev sda "[deadline-read] mq-deadline none" 1 device/wwid="naa.5000c500a1b2c3d4  " \
	queue/iosched/read_expire=125 queue/iosched/fifo_batch=16
mkdev vda "[none] mq-deadline" 1 serial=QM-0042
mkdev nullb0 "[none] mq-deadline deadline-read" 0
mkdev dm-0 "none" 0
R=$IOSCHEDCTL_RULES

expect 1 "nullb0 has no stable identity" -- persist nullb0 deadline-read
[ ! -e "$R" ] || fail "rules file written on failure"
expect 1 "unknown scheduler 'nosuch'" -- persist sda nosuch
expect 1 "dm-0 cannot have an I/O scheduler" -- persist dm-0 mq-deadline
expect 1 "no such block device" -- persist sdz mq-deadline

expect 0 "wwid:naa.5000c500a1b2c3d4" -- persist sda deadline-read read_expire=80
grep -qx 'ATTRS{wwid}=="naa.5000c500a1b2c3d4", ATTR{queue/scheduler}="deadline-read", ATTR{queue/iosched/read_expire}="80"' "$R" ||
	fail "sda rule: $(cat "$R")"
expect 1 "has no tunable 'bogus'" -- persist sda deadline-read bogus=1
# Values that could never apply are refused before anything is written:
# every tunable is an integer, and none has no tunables.
sum=$(md5sum <"$R")
expect 2 "invalid value for read_expire: 'abc'" -- persist sda deadline-read read_expire=abc fifo_batch=-5
expect 2 "invalid value for fifo_batch: '1.5'" -- persist sda deadline-read fifo_batch=1.5
expect 2 "invalid value for fifo_batch: '0x10'" -- persist sda mq-deadline fifo_batch=0x10
expect 2 "none has no tunables" -- persist sda none read_expire=1
[ "$(md5sum <"$R")" = "$sum" ] || fail "a refused persist changed the rules: $(cat "$R")"
expect 0 "wwid:naa.5000c500a1b2c3d4" -- persist sda deadline-read read_expire=80 fifo_batch=-5
grep -q 'ATTR{queue/iosched/fifo_batch}="-5"$' "$R" || fail "a negative integer refused: $(cat "$R")"
# 7.2's queue-wide async_depth: queue/ for mq-deadline (active or not), the
# scheduler's own iosched/ where it has one
mkdev sdb "[mq-deadline] bfq none" 1 serial=S-B queue/async_depth=64 queue/iosched/read_expire=500
expect 0 "serial:S-B" -- persist sdb mq-deadline async_depth=8
grep -qx 'ATTRS{serial}=="S-B", ATTR{queue/scheduler}="mq-deadline", ATTR{queue/async_depth}="8"' "$R" ||
	fail "sdb rule: $(cat "$R")"
run persist sdb bfq async_depth=16
[ "$RC" = 0 ] || fail "persist sdb bfq: exit $RC: $ERR"
grep -qx 'ATTRS{serial}=="S-B", ATTR{queue/scheduler}="bfq", ATTR{queue/async_depth}="16"' "$R" ||
	fail "sdb rule, bfq not active: $(cat "$R")"
mkdev sdc "[fair-queue] mq-deadline none" 1 serial=S-C queue/async_depth=64 queue/iosched/async_depth=0
expect 0 "serial:S-C" -- persist sdc fair-queue async_depth=0
grep -qx 'ATTRS{serial}=="S-C", ATTR{queue/scheduler}="fair-queue", ATTR{queue/iosched/async_depth}="0"' "$R" ||
	fail "sdc rule: $(cat "$R")"
expect 0 "" -- unpersist sdb
expect 0 "" -- unpersist sdc
expect 0 "serial:QM-0042" -- persist vda mq-deadline
grep -qx 'ATTRS{serial}=="QM-0042", ATTR{queue/scheduler}="mq-deadline"' "$R" || fail "vda rule: $(cat "$R")"
expect 0 "" -- persist --non-rotational mq-deadline
expect 0 "" -- persist --rotational deadline-read
grep -qx 'ATTR{queue/rotational}=="1", ATTR{queue/scheduler}!="none", ATTR{queue/scheduler}="deadline-read"' "$R" ||
	fail "rotational rule: $(cat "$R")"
# path ID fallback
IOSCHEDCTL_PATH_ID=pci-0000:00:1f.2-ata-1 expect 0 "path:pci-0000:00:1f.2-ata-1" -- persist nullb0 deadline-read
grep -qx 'ENV{ID_PATH}=="pci-0000:00:1f.2-ata-1", ATTR{queue/scheduler}="deadline-read"' "$R" ||
	fail "path rule: $(cat "$R")"
# never a kernel name
grep -E 'KERNEL|NAME==' "$R" | grep -v '^#' && fail "rule matches a kernel name"
# class rules come before device rules
first_dev=$(grep -n '^ATTRS\|^ENV{ID_PATH}=="[^"]' "$R" | head -n1 | cut -d: -f1)
last_class=$(grep -n '^ATTR{queue/rotational}' "$R" | tail -n1 | cut -d: -f1)
[ "$last_class" -lt "$first_dev" ] || fail "class rules must precede device rules: $(cat "$R")"
# a new rule replaces the old one for the same device
expect 0 "" -- persist sda mq-deadline
[ "$(grep -c 'naa.5000c500a1b2c3d4' "$R")" = 2 ] || fail "sda rule not replaced: $(cat "$R")"
grep -q 'ATTRS{wwid}=="naa.5000c500a1b2c3d4", ATTR{queue/scheduler}="mq-deadline"$' "$R" || fail "replacement: $(cat "$R")"
if command -v udevadm >/dev/null && udevadm verify --help >/dev/null 2>&1; then
	udevadm verify --resolve-names=never "$R" >"$T/verify" 2>&1 || fail "udevadm verify: $(cat "$T/verify")"
fi

expect 0 "removed rule for vda" -- unpersist vda
grep -q QM-0042 "$R" && fail "vda rule still there"
expect 1 "no rule for vda" -- unpersist vda
expect 0 "" -- unpersist --rotational
grep -q 'rotational}=="1"' "$R" && fail "rotational rule still there"
expect 0 "" -- unpersist path:pci-0000:00:1f.2-ata-1
expect 0 "" -- unpersist sda
expect 0 "" -- unpersist --non-rotational
[ ! -e "$R" ] || fail "empty rule set must remove the file: $(cat "$R")"
expect 0 "" -- persist --rotational mq-deadline
expect 0 "removed" -- unpersist --all
[ ! -e "$R" ] || fail "--all left $R"
# a failed udev reload: the rules change stands, and the user is told
IOSCHEDCTL_UDEVADM=false expect 0 "warning: 'false control --reload' failed" -- persist --rotational mq-deadline
grep -q 'rotational}=="1"' "$R" || fail "rule not written when the reload failed"
IOSCHEDCTL_UDEVADM=false expect 0 "warning: .*failed" -- unpersist --all
[ ! -e "$R" ] || fail "--all left $R when the reload failed"
done_test
