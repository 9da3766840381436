#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="ioschedctl persist/unpersist: udev rules by WWN and by device class take effect through udevadm trigger"
. "$(dirname "$0")/lib.sh"
RULES=/etc/udev/rules.d/60-elvkit.rules
command -v udevadm >/dev/null || skip "no udevadm"
pgrep -x systemd-udevd >/dev/null || pgrep -f 'systemd-udevd' >/dev/null || skip "udevd is not running"
load_modules || fail "insmod failed"
[ ! -e "$RULES" ] || fail "$RULES exists before the test"
S=${ELVKIT_SCHEDS%% *}
case " $ELVKIT_SCHEDS " in *" deadline-read "*) S=deadline-read ;; esac
table=$(tunable_table "$S") || exit 1
read -r KEY DEF MIN MAX <<<"$table"
other_value "$DEF" "$MIN" "$MAX"
VAL=$OTHER

sd=""
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	"$ISC" unpersist --all >/dev/null 2>&1
	rm -f "$RULES"
	udevadm control --reload 2>/dev/null
	[ -n "$sd" ] && echo none >"/sys/block/$sd/queue/scheduler" 2>/dev/null
	echo none >"$(sched_file)" 2>/dev/null
	rmmod scsi_debug 2>/dev/null
}
trap cleanup EXIT

trigger() { # trigger DEV: a change event for DEV, waiting for udev to finish
	udevadm trigger --action=change --settle "/sys/block/$1" 2>/dev/null ||
		{ udevadm trigger --action=change "/sys/block/$1"; udevadm settle; }
}

# null_blk has no WWN, serial or path ID: refused, nothing written
err=$("$ISC" persist "$DEV" "$S" 2>&1); rc=$?
[ $rc = 1 ] || fail "persist $DEV: exit $rc, want 1"
case "$err" in "ioschedctl: $DEV has no stable identity"*) ;; *) fail "persist $DEV: $err" ;; esac
[ ! -e "$RULES" ] || fail "a refused persist wrote $RULES"
err=$("$ISC" persist --non-rotational nosuch-sched 2>&1); [ $? = 1 ] || fail "persist of an unknown scheduler: $err"

# class rule: every non-rotational disk gets $S at the next event
echo none >"$(sched_file)"
"$ISC" persist --non-rotational "$S" >/dev/null || fail "persist --non-rotational $S"
[ -f "$RULES" ] || fail "no $RULES"
trigger "$DEV"
[ "$(current_sched "$DEV")" = "$S" ] || fail "class rule not applied to $DEV: $(cat "$(sched_file)")"

# device rule by WWN, with a tunable: a scsi_debug disk has one
modprobe scsi_debug dev_size_mb=8 2>/dev/null || skip "no scsi_debug"
modprobe sd_mod 2>/dev/null
udevadm settle
for b in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
	[ -e "$b" ] && sd=${b##*/}
done
[ -n "$sd" ] || fail "no scsi_debug disk appeared"
wwid=$(cat "/sys/block/$sd/device/wwid" 2>/dev/null)
[ -n "$wwid" ] || fail "$sd has no wwid"
"$ISC" persist "$sd" "$S" "$KEY=$VAL" >/dev/null || fail "persist $sd $S $KEY=$VAL"
grep -q "ATTRS{wwid}==\"$wwid\", ATTR{queue/scheduler}=\"$S\", ATTR{queue/iosched/$KEY}=\"$VAL\"" "$RULES" ||
	fail "no WWN rule for $sd: $(cat "$RULES")"
grep -v '^#' "$RULES" | grep -qE "KERNEL|\"$sd\"" && fail "rule matches the kernel name: $(cat "$RULES")"
echo none >"/sys/block/$sd/queue/scheduler" || fail "switching $sd to none"
trigger "$sd"
[ "$(current_sched "$sd")" = "$S" ] || fail "WWN rule not applied to $sd: $(cat "/sys/block/$sd/queue/scheduler")"
[ "$(cat "/sys/block/$sd/queue/iosched/$KEY")" = "$VAL" ] || fail "$KEY on $sd is $(cat "/sys/block/$sd/queue/iosched/$KEY"), want $VAL"

# device rules win over class rules
"$ISC" persist --non-rotational mq-deadline >/dev/null || fail "persist --non-rotational mq-deadline"
trigger "$sd"
trigger "$DEV"
[ "$(current_sched "$sd")" = "$S" ] || fail "class rule overrode the device rule on $sd"
[ "$(current_sched "$DEV")" = mq-deadline ] || fail "new class rule not applied to $DEV: $(cat "$(sched_file)")"

# unpersist: the device's rule goes, the class rule stays and now applies
"$ISC" unpersist "$sd" >/dev/null || fail "unpersist $sd"
grep -q "$wwid" "$RULES" && fail "rule for $sd still there"
trigger "$sd"
[ "$(current_sched "$sd")" = mq-deadline ] || fail "after unpersist $sd: $(cat "/sys/block/$sd/queue/scheduler")"
err=$("$ISC" unpersist "$sd" 2>&1); [ $? = 1 ] || fail "second unpersist $sd must fail: $err"
"$ISC" unpersist --all >/dev/null || fail "unpersist --all"
[ ! -e "$RULES" ] || fail "unpersist --all left $RULES"
echo none >"$(sched_file)"
trigger "$DEV"
if [ "$(current_sched "$DEV")" != none ]; then
	# Once seen on 6.1: tell a reload udevd skipped from a stale event.
	got=$(cat "$(sched_file)")
	udevadm control --reload
	echo none >"$(sched_file)"
	trigger "$DEV"
	fail "a removed rule still applies to $DEV: $got; rules: $(echo /etc/udev/rules.d/*);" \
		"after one more reload and trigger: $(cat "$(sched_file)")"
fi
exit 0
