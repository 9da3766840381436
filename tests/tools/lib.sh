# shellcheck shell=bash
# Helpers for the host-side ioschedctl tests: a fake sysfs tree, a fake
# modprobe, and assertions. Sourced by tests/tools/[0-9]*.sh.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
IOSCHEDCTL=$TOP/admin/ioschedctl
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export IOSCHEDCTL_SYSFS=$T/sys
export IOSCHEDCTL_RULES=$T/rules.d/60-elvkit.rules
export IOSCHEDCTL_MODPROBE=$T/modprobe
export IOSCHEDCTL_UDEVADM=""
export IOSCHEDCTL_MODULES_DIR=$T/modules
mkdir -p "$T/sys/block" "$T/sys/class/block" "$T/modules"
: >"$T/modules/modules.alias"

# Fake modprobe: "loading" NAME-iosched adds NAME to every device that can
# have a scheduler, if NAME is listed in $T/loadable. Every call is logged,
# one line of arguments, in $T/modprobe.log.
cat >"$T/modprobe" <<'MP'
#!/bin/bash
echo "$*" >>"$(dirname "$0")/modprobe.log"
for a; do case "$a" in -*) ;; *) m=$a ;; esac; done
name=${m%-iosched}
grep -qx "$name" "$(dirname "$0")/loadable" 2>/dev/null || exit 1
for f in "$(dirname "$0")"/sys/block/*/queue/scheduler; do
	case "$(cat "$f")" in *"["*) printf '%s %s\n' "$(cat "$f")" "$name" >"$f" ;; esac
done
MP
chmod +x "$T/modprobe"

# mkdev NAME SCHEDLINE ROTATIONAL [attr=value...]: a disk; attrs are paths
# under the device dir (wwid, device/wwid, serial, queue/iosched/KEY).
mkdev() {
	local name=$1 line=$2 rot=$3 kv d
	shift 3
	d=$T/sys/block/$name
	mkdir -p "$d/queue" "$d/device"
	printf '%s\n' "$line" >"$d/queue/scheduler"
	printf '%s\n' "$rot" >"$d/queue/rotational"
	printf '64\n' >"$d/queue/nr_requests"
	ln -s "../../block/$name" "$T/sys/class/block/$name"
	for kv in "$@"; do
		mkdir -p "$(dirname "$d/${kv%%=*}")"
		printf '%s\n' "${kv#*=}" >"$d/${kv%%=*}"
	done
}

# mkpart DISK PART
mkpart() {
	mkdir -p "$T/sys/block/$1/$2"
	echo 1 >"$T/sys/block/$1/$2/partition"
	ln -s "../../block/$1/$2" "$T/sys/class/block/$2"
}

FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }

# run ARGS...: run ioschedctl, setting RC, OUT, ERR.
run() {
	OUT=$("$IOSCHEDCTL" "$@" 2>"$T/err")
	RC=$?
	ERR=$(cat "$T/err")
}

# expect RC [grep-pattern-on-stdout-or-stderr] -- ARGS...
expect() {
	local rc=$1 pat=$2
	shift 3
	run "$@"
	[ "$RC" = "$rc" ] || fail "ioschedctl $* exited $RC, want $rc (stderr: $ERR)"
	if [ "$rc" != 0 ]; then
		[ "$(printf '%s\n' "$ERR" | grep -c '^ioschedctl: ')" -ge 1 ] ||
			fail "ioschedctl $*: error not prefixed 'ioschedctl: ': $ERR"
		[ "$rc" = 2 ] || [ "$(printf '%s\n' "$ERR" | wc -l)" = 1 ] ||
			fail "ioschedctl $*: error is not one line: $ERR"
	fi
	if [ -n "$pat" ]; then
		printf '%s\n%s\n' "$OUT" "$ERR" | grep -qE -- "$pat" ||
			fail "ioschedctl $*: output lacks /$pat/: $OUT $ERR"
	fi
}

done_test() {
	[ "$FAILS" = 0 ] || exit 1
	exit 0
}
