#!/bin/bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="ioschedctl under bad input: path components, globs and junk as device names, missing devices, a read-only or full rules directory, concurrent persist/unpersist; one-line errors, exit 1 or 2, the rules file never half-written or lost"
. "$(dirname "$0")/lib.sh"
R=$IOSCHEDCTL_RULES
tried=0
i=0
for l in a b c d e f g h; do
	mkdev "sd$l" "[none] mq-deadline deadline-read" 1 device/wwid="naa.50000000000000$i$i"
	i=$((i + 1))
done
mkdev nullb0 "[none] mq-deadline deadline-read" 0
echo deadline-read >"$T/loadable"

# bad CMD ARGS...: exit 1 or 2, one line on stderr prefixed ioschedctl:,
# nothing written to the rules file or sysfs.
snap() { find "$T/sys" -type f -exec md5sum {} + | sort; [ ! -e "$R" ] || md5sum "$R"; }
bad() {
	local before after
	before=$(snap)
	run "$@"
	tried=$((tried + 1))
	case $RC in 1 | 2) ;; *) fail "ioschedctl $(printf '%q ' "$@"): exit $RC, want 1 or 2" ;; esac
	[ "$(printf '%s\n' "$ERR" | wc -l)" = 1 ] || fail "ioschedctl $(printf '%q ' "$@"): error not one line: $ERR"
	case $ERR in "ioschedctl: "*) ;; *) fail "ioschedctl $(printf '%q ' "$@"): error '$ERR'" ;; esac
	after=$(snap)
	[ "$before" = "$after" ] || fail "ioschedctl $(printf '%q ' "$@") changed files"
}

long=$(printf 'x%.0s' $(seq 5000))
names=("../sda" "sda/.." ".." "." "" "sd*" "sd?" "sd[ab]" "*" "-" "--" "a b" $'sda\nsdb'
	$'sda\r' "sda/" "/" "//" "../../etc/passwd" "/dev/../sys/block/sda" "$T/sys/block/sda/.."
	"sdz" "/dev/nosuch" "nullb0/../sda" "$long" "sda;reboot" "\$(id)" "sda'" 'sda"' '\sda')
for n in "${names[@]}"; do
	bad show "$n"
	bad set "$n" deadline-read
	bad tune "$n" read_expire=1
	bad persist "$n" deadline-read
	bad unpersist "$n"
done
for s in "../x" "dead line" "*" "" "-x" $'a\nb' "$long"; do
	bad set sda "$s"
	bad persist sda "$s"
	bad persist --rotational "$s"
done
for kv in "../x=1" "*=1" "a=" "=1" "a=1 2" 'a="1"' $'a=1\n2' "a=\\1" "$long"; do
	bad tune sda "$kv"
	bad persist sda deadline-read "$kv"
done
echo "bad arguments tried: $tried"

# Read-only and full rules directories: mounts need root.
if mkdir -p "$T/ro" "$T/full" && mount -t tmpfs -o size=1m tmpfs "$T/ro" 2>/dev/null; then
	trap 'umount "$T/ro" "$T/full" 2>/dev/null; rm -rf "$T"' EXIT
	IOSCHEDCTL_RULES=$T/ro/rules.d/60-elvkit.rules
	export IOSCHEDCTL_RULES
	R=$IOSCHEDCTL_RULES
	expect 0 "" -- persist sda deadline-read
	sum=$(md5sum <"$R")
	mount -o remount,ro "$T/ro" || fail "remount read-only"
	bad persist sdb deadline-read
	bad persist --rotational mq-deadline
	bad unpersist sda
	bad unpersist --all
	[ "$(md5sum <"$R")" = "$sum" ] || fail "read-only: rules file changed"
	IOSCHEDCTL_RULES=$T/ro/missing.d/60-elvkit.rules bad persist sdb deadline-read
	umount "$T/ro"

	mount -t tmpfs -o size=64k tmpfs "$T/full" || fail "tmpfs"
	IOSCHEDCTL_RULES=$T/full/rules.d/60-elvkit.rules
	R=$IOSCHEDCTL_RULES
	expect 0 "" -- persist sda deadline-read
	expect 0 "" -- persist sdb mq-deadline
	sum=$(md5sum <"$R")
	dd if=/dev/zero of="$T/full/fill" bs=4k 2>/dev/null
	bad persist sdc deadline-read
	bad persist --non-rotational mq-deadline
	bad unpersist sda
	[ "$(md5sum <"$R")" = "$sum" ] || fail "full: rules file changed"
	left=$(find "$T/full/rules.d" -name '.60-elvkit.*')
	[ -z "$left" ] || fail "full: temporary files left: $left"
	rm -f "$T/full/fill"
	expect 0 "" -- persist sdc deadline-read
	grep -q "naa.5000000000000022" "$R" || fail "full: persist after freeing space"
	umount "$T/full"
	IOSCHEDCTL_RULES=$T/rules.d/60-elvkit.rules
	R=$IOSCHEDCTL_RULES
else
	echo "SKIP part: cannot mount a tmpfs (not root): read-only and full /etc not tried"
fi

# Concurrent persist and unpersist: no rule lost, the file always whole.
rm -f "$R"
for round in 1 2 3; do
	(
		while :; do
			if [ -e "$R" ]; then
				tail -n1 "$R" 2>/dev/null | grep -qx 'LABEL="elvkit_end"' ||
					{ [ -e "$R" ] && echo torn >"$T/torn"; }
			fi
		done
	) &
	watcher=$!
	pids=()
	for d in sda sdb sdc sdd sde sdf sdg sdh; do
		"$IOSCHEDCTL" persist "$d" deadline-read >/dev/null 2>"$T/err.$d" &
		pids+=($!)
	done
	"$IOSCHEDCTL" persist --rotational mq-deadline >/dev/null 2>"$T/err.rot" &
	pids+=($!)
	for p in "${pids[@]}"; do wait "$p" || fail "round $round: a concurrent persist failed: $(cat "$T"/err.*)"; done
	for i in 0 1 2 3 4 5 6 7; do
		grep -q "naa.50000000000000$i$i" "$R" || fail "round $round: rule $i lost in concurrent persist"
	done
	grep -q 'class:rotational' "$R" || fail "round $round: class rule lost"
	pids=()
	for d in sda sdc sde sdg; do
		"$IOSCHEDCTL" unpersist "$d" >/dev/null 2>"$T/err.$d" &
		pids+=($!)
	done
	for p in "${pids[@]}"; do wait "$p" || fail "round $round: a concurrent unpersist failed: $(cat "$T"/err.*)"; done
	kill "$watcher"
	wait "$watcher" 2>/dev/null
	[ "$(grep -c '^ATTRS{wwid}' "$R")" = 4 ] || fail "round $round: want 4 device rules left: $(cat "$R")"
	[ ! -e "$T/torn" ] || fail "round $round: a reader saw a partial rules file"
	for f in "$(dirname "$R")"/.60-elvkit.*; do
		[ ! -e "$f" ] || fail "round $round: temporary file $f left"
	done
	rm -f "$R"
	tried=$((tried + 13))
done
echo "inputs tried: $tried"
done_test
