# shellcheck shell=bash
# Helpers for guest tests (sourced). Runs inside the QEMU guest as root.
# Environment from tests/vm/guest.sh: KVER, ELVKIT_KO_DIR, DEV (nullb0),
# SCHED (for per-scheduler tests), ELVKIT_TOP.

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

sched_file() { echo "/sys/block/${1:-$DEV}/queue/scheduler"; }

# The selected scheduler of a device (the bracketed name). No exec (sed):
# these run around every step of every test, and an exec costs under TCG.
current_sched() {
	local l=""
	read -r l <"$(sched_file "$1")"
	case $l in *\[*\]*) l=${l#*[}; printf '%s\n' "${l%%]*}" ;; esac
}

set_sched() {
	local dev=$1 name=$2
	echo "$name" >"$(sched_file "$dev")" || return 1
	[ "$(current_sched "$dev")" = "$name" ]
}

module_loaded() { [ -d "/sys/module/${1//-/_}" ]; }

# need_sched NAME: skip the test unless scheduler NAME was built.
need_sched() {
	case " $ELVKIT_SCHEDS " in *" $1 "*) ;; *) skip "$1 not built" ;; esac
}

# Load the shim and every policy module built for this kernel (ekdisk.ko,
# the block device, is not a scheduler).
load_modules() {
	local ko
	module_loaded elvkit || insmod "$ELVKIT_KO_DIR/elvkit.ko" || return 1
	for ko in "$ELVKIT_KO_DIR"/*.ko; do
		case "$(basename "$ko" .ko)" in elvkit | ekdisk) continue ;; esac
		module_loaded "$(basename "$ko" .ko)" || insmod "$ko" || return 1
	done
}

iosched_dir() { echo "/sys/block/${1:-$DEV}/queue/iosched"; }

NULLB_CFS=/sys/kernel/config/nullb

# nullb_create NAME [ATTR=VALUE...]: a null_blk device made through configfs
# with these attributes, then powered on; prints its disk name, found as the
# disk that appeared (6.1 names it nullbN, newer kernels after NAME), with
# its device node made if udev has not.
nullb_create() {
	local d=$NULLB_CFS/$1 kv b dev="" before _
	shift
	[ -d "$NULLB_CFS" ] || modprobe null_blk nr_devices=0 2>/dev/null
	[ -d "$NULLB_CFS" ] || return 1
	mkdir "$d" || return 1
	for kv in "$@"; do
		echo "${kv#*=}" >"$d/${kv%%=*}" || return 1
	done
	before=" $(cd /sys/block && echo *) "
	echo 1 >"$d/power" || return 1
	for _ in $(seq 50); do
		for b in /sys/block/*; do
			b=${b##*/}
			case $before in *" $b "*) ;; *) dev=$b ;; esac
		done
		[ -n "$dev" ] && break
		sleep 0.1
	done
	[ -n "$dev" ] || return 1
	bdev_node "$dev" || return 1
	echo "$dev"
}

# bdev_node NAME: /dev/NAME, a disk in /sys/block, is there after: waited
# for (up to 10 s, udev asked to settle after 2), else made from sysfs.
bdev_node() {
	local i
	for i in $(seq 50); do
		[ -b "/dev/$1" ] && return 0
		[ "$i" = 10 ] && udevadm settle 2>/dev/null
		sleep 0.2
	done
	[ -b "/dev/$1" ] || mknod "/dev/$1" b "$(cut -d: -f1 "/sys/block/$1/dev")" \
		"$(cut -d: -f2 "/sys/block/$1/dev")"
}

# nullb_remove NAME: power the device off (removing its disk) and delete it.
nullb_remove() {
	local d=$NULLB_CFS/$1
	[ -d "$d" ] || return 0
	echo 0 >"$d/power" 2>/dev/null
	rmdir "$d"
}

# dev_pids GLOB...: the processes with /dev/GLOB open, one PID a line.
dev_pids() {
	local g find_args=()
	for g in "$@"; do find_args+=(-o -lname "/dev/$g"); done
	find /proc/[0-9]*/fd "${find_args[@]:1}" 2>/dev/null | cut -d/ -f3 | sort -u
}

# procs PID...: "PID STATE COMMAND" of each, ';' between ("none").
procs() {
	[ $# -gt 0 ] || { echo none; return; }
	ps -o pid=,stat=,args= -p "$(IFS=,; echo "$*")" | cut -c1-100 | paste -sd';'
}
# dev_users GLOB...: procs of the processes with /dev/GLOB open.
dev_users() {
	local pids
	mapfile -t pids < <(dev_pids "$@")
	procs "${pids[@]}"
}

# Total errors in fio --output-format=terse output (field 5 of each job line).
fio_errors() { awk -F';' '{s+=$5} END {print s+0}' "$1"; }

# The tunable table of a scheduler, "name default min max" lines, from the
# policy's own table (elvkit-sim --tunables: a host binary the guest runs
# from the shared root). No table is an error, never an empty loop: use as
# table=$(tunable_table "$SCHED") || exit 1.
tunable_table() {
	local t
	t=$("$ELVKIT_TOP/build/elvkit-sim" --tunables "$1") || t=
	[ -n "$t" ] ||
		{ echo "FAIL: no tunable table for $1 (build/elvkit-sim --tunables $1)" >&2; return 1; }
	printf '%s\n' "$t"
}

# other_value DEF MIN MAX: OTHER := a valid value of a tunable that is not
# its default (MIN, or MAX where MIN is the default).
other_value() {
	OTHER=$2
	[ "$OTHER" != "$1" ] || OTHER=$3
}

# The ioschedctl under test, from the source tree.
ISC=$ELVKIT_TOP/admin/ioschedctl

# expect_err RC PATTERN ARGS...: ioschedctl ARGS exits RC with exactly one
# line on stderr, "ioschedctl: ..." containing PATTERN.
expect_err() {
	local rc=$1 pat=$2 err got
	shift 2
	err=$("$ISC" "$@" 2>&1 >/dev/null)
	got=$?
	[ "$got" = "$rc" ] || fail "ioschedctl $*: exit $got, want $rc ($err)"
	case "$err" in "" | *$'\n'*) fail "ioschedctl $*: not one line: $err" ;; esac
	case "$err" in "ioschedctl: "*$pat*) ;; *) fail "ioschedctl $*: '$err' lacks '$pat'" ;; esac
}

# ekdisk: the disk-model block device from this build.
# ekdisk_load PARAM...: (re)load it with PARAMs; /dev/ekdisk0 is there after.
ekdisk_load() {
	ekdisk_unload || return 1
	insmod "$ELVKIT_KO_DIR/ekdisk.ko" "$@" || return 1
	udevadm settle 2>/dev/null || true
	[ -b /dev/ekdisk0 ] || [ "$(cat /sys/module/ekdisk/parameters/nr_devices)" = 0 ]
}
# ekdisk_unload: remove it; when something still holds it, say what.
ekdisk_unload() {
	! module_loaded ekdisk || rmmod ekdisk 2>/dev/null && return 0
	echo "ekdisk is in use (refcnt $(cat /sys/module/ekdisk/refcnt 2>/dev/null)); open by: $(dev_users 'ekdisk*')" >&2
	return 1
}
# ekstat NAME [DEV]: one counter of /sys/block/DEV/ekdisk/stats.
ekstat() { sed -n "s/.* $1 \([0-9]*\).*/\1/p" "/sys/block/${2:-ekdisk0}/ekdisk/stats"; }

# peak_while PID CMD...: PEAK = the largest number CMD prints (every 50 ms)
# while PID, a child of this shell, runs; 0 if it never printed one. Not
# in a $(...): only the parent reaps PID, so kill -0 would see its zombie.
peak_while() {
	local pid=$1 v
	shift
	PEAK=0
	while kill -0 "$pid" 2>/dev/null; do
		v=$("$@")
		[ "${v:-0}" -le "$PEAK" ] || PEAK=$v
		sleep 0.05
	done
}

# Every scheduler the kernel offers a device after loading the elvkit modules
# and the kernel's modular ones (kyber, bfq); none is one of them.
all_scheds() {
	local m
	load_modules || return 1
	for m in mq-deadline kyber-iosched bfq; do modprobe -q "$m" 2>/dev/null; done
	tr -d '[]' <"$(sched_file "$1")"
}

# The scheduler list the issue asks every ekdisk test to cover.
# shellcheck disable=SC2034 # read by the tests that source this
EKDISK_SCHEDS="none mq-deadline kyber bfq"

# trace_event_enable CATEGORY/EVENT: make sure a trace event is on, and
# leave it on; tests record with tracing_on alone. The guest suite boots
# with the events its tests read already on (EK_VM_SUITE_APPEND in
# scripts/lib/vm.sh): turning one on or off patches kernel text on the
# running CPUs, which QEMU's multi-threaded TCG once got wrong.
trace_event_enable() {
	local f=/sys/kernel/tracing/events/$1/enable
	[ -e "$f" ] || return 1
	[ "$(cat "$f")" = 1 ] || echo 1 >"$f"
}

# KERNEL_BAD: what the kernel must never say.
. "$ELVKIT_TOP/scripts/lib/kernel-bad.sh"

# hung_report DEV...: for a test that found something stuck, on stderr:
# the blocked tasks' stacks (sysrq-w), the D-state processes, and the block
# layer's view of each DEV (scheduler, in flight, its counters, blk-mq
# debugfs).
hung_report() {
	local dev f
	echo w 2>/dev/null >/proc/sysrq-trigger
	sleep 1
	dmesg | tail -n 400 | grep -E 'task:|state:D| [a-z_]+\+0x' | grep -v ' ? ' | tail -n 60 >&2
	ps -eo pid,stat,wchan:32,cmd | awk '$2 ~ /D/' | cut -c1-120 >&2
	for dev in "$@"; do
		echo "--- $dev: $(cat "$(sched_file "$dev")" 2>/dev/null); inflight $(cat "/sys/block/$dev/inflight" 2>/dev/null)" >&2
		for f in "$(iosched_dir "$dev")"/*; do
			[ -f "$f" ] && echo "  ${f##*/} = $(cat "$f" 2>/dev/null)" >&2
		done
		for f in /sys/kernel/debug/block/"$dev"/state /sys/kernel/debug/block/"$dev"/sched/* \
			/sys/kernel/debug/block/"$dev"/hctx*/{state,dispatch,busy,flags,run,dispatched,queued,active,sched_tags,tags}; do
			[ -r "$f" ] || continue
			echo "  ${f#/sys/kernel/debug/block/}: $(head -c 600 "$f" 2>/dev/null | tr '\n' ' ')" >&2
		done
	done
}

# Kernel log lines after line N (dmesg | wc -l earlier), minus the taint note.
dmesg_since() { dmesg | tail -n +"$(($1 + 1))" | grep -v 'module verification failed'; }
