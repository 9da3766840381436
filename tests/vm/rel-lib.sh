# shellcheck shell=bash
# Helpers for the reliability tests (tests/vm/7NN-rel-*.sh), sourced after
# lib.sh. Every test:
#  - sizes its load with rel_n BASE: BASE at the CI size, BASE * ELVKIT_REL_SCALE
#    in the full run (scripts/reliability.sh);
#  - runs fio through rel_fio (JSON into REL_TMP) and checks it with
#    rel_fio_ok (no error, no verify failure) or rel_fio_ended (errors allowed,
#    verify failures not);
#  - records what it held and survived with rel_metric into
#    $ELVKIT_RESULTS/rel-$KVER.tsv, which scripts/rel-report.sh sums up;
#  - checks the kernel log written during the test on exit (rel_exit, an EXIT
#    trap): any WARNING, BUG, Oops, lockup, stall or hung task fails it.
# A test may define rel_cleanup (run first on exit).

REL_SCALE=${ELVKIT_REL_SCALE:-1}
REL_NAME=$(basename "$0" .sh)${SCHED:+/$SCHED}
REL_TMP=$(mktemp -d /tmp/rel.XXXXXX)
REL_METRICS=${ELVKIT_RESULTS:-/tmp}/rel-$KVER.tsv

# rel_n BASE: BASE scaled to this run's size.
rel_n() { echo $(($1 * REL_SCALE)); }

# rel_metric KIND KEY VALUE: one figure for the report. KIND is load, fault,
# input, data_errors or kernel_reports.
rel_metric() {
	printf '%s\t%s\t%s\t%s\n' "$REL_NAME" "$1" "$2" "$3" >>"$REL_METRICS"
}

# Kernel log timestamp of the last line so far.
_rel_log_now() { dmesg | tail -n1 | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p'; }
REL_LOG_T0=$(_rel_log_now)
REL_LOG_T0=${REL_LOG_T0:-0}

# rel_log_after T: the kernel log lines stamped after T (a _rel_log_now).
rel_log_after() {
	dmesg | awk -v t="$1" '{
		s = $0; sub(/^\[ */, "", s); sub(/\].*/, "", s)
		if (s + 0 > t + 0) print }'
}

# The kernel log lines written since the test began.
rel_log_since() { rel_log_after "$REL_LOG_T0"; }

rel_exit() {
	local rc=$? bad n
	trap - EXIT
	if declare -F rel_cleanup >/dev/null; then rel_cleanup; fi
	bad=$(rel_log_since | grep -v 'module verification failed' | grep -E "$KERNEL_BAD")
	n=0
	[ -z "$bad" ] || n=$(printf '%s\n' "$bad" | wc -l)
	rel_metric kernel_reports reports "$n"
	if [ "$n" != 0 ]; then
		echo "FAIL: the kernel reported during the test:" >&2
		printf '%s\n' "$bad" | head -n 40 >&2
		rel_log_since | grep -B2 -A25 -E "$KERNEL_BAD" | head -n 120 >&2
		[ "$rc" != 0 ] && [ "$rc" != 77 ] || rc=1
	fi
	rm -rf "$REL_TMP"
	exit "$rc"
}
trap rel_exit EXIT
# Killed by the runner's timeout: show what is stuck first.
trap 'echo "FAIL: timed out; blocked tasks:" >&2; rel_hung_report; exit 124' TERM

# rel_log MSG: a progress line with the guest's uptime.
rel_log() { echo "[$(cut -d' ' -f1 /proc/uptime)] $*"; }

# rel_signal SIG PID: signal a `rel_fio ... &` started in the background.
# $! is the subshell that runs the function, and a non-interactive shell's
# background subshell ignores SIGINT: the signal must reach fio, its child.
# (Sent to the subshell alone, fio ran on to its --runtime, which read as
# I/O stuck in the scheduler.)
rel_signal() {
	pkill -"$1" -P "$2" 2>/dev/null
	kill -"$1" "$2" 2>/dev/null
}

# rel_fio NAME FIO-ARGS...: fio with JSON output in REL_TMP/NAME.json and
# its messages in REL_TMP/NAME.err. Returns fio's status.
rel_fio() {
	local name=$1
	shift
	fio --output-format=json --output="$REL_TMP/$name.json" "$@" \
		>"$REL_TMP/$name.out" 2>"$REL_TMP/$name.err"
}

# rel_fio_sum NAME: "IOS ERRORS VERIFY_ERRORS" of a finished rel_fio run:
# I/Os issued by all jobs, jobs that ended with an error, and data that did
# not verify (fio's EILSEQ, or a verify message).
rel_fio_sum() {
	local v
	v=$(grep -cE 'verify: |bad magic|verify failed|bad header' "$REL_TMP/$1.err" "$REL_TMP/$1.out" 2>/dev/null |
		awk -F: '{s += $NF} END {print s + 0}')
	python3 - "$REL_TMP/$1.json" "$v" <<'PY'
import json, sys
ios = errs = verrs = 0
try:
    text = open(sys.argv[1]).read()
    d = json.loads(text[text.index("{"):])
    for j in d.get("jobs", []):
        ios += j["read"]["total_ios"] + j["write"]["total_ios"]
        if j.get("error"):
            errs += 1
            if j["error"] == 84:
                verrs += 1
except (OSError, ValueError, KeyError):
    errs = 1
print(ios, errs, max(verrs, int(sys.argv[2])))
PY
}

# rel_fio_ok NAME: the run had no error and every block verified; its I/Os
# are counted as verified load.
rel_fio_ok() {
	local ios errs verrs
	read -r ios errs verrs < <(rel_fio_sum "$1")
	rel_metric data_errors "$1" "$verrs"
	if [ "$errs" != 0 ] || [ "$verrs" != 0 ]; then
		head -c 3000 "$REL_TMP/$1.err" >&2
		fail "fio $1: $errs job errors, $verrs verify failures"
	fi
	rel_metric load ios_verified "$ios"
}

# rel_fio_ended NAME: a run that was expected to see I/O errors (a removed
# device): errors are fine, data that reads back wrong is not.
rel_fio_ended() {
	local ios errs verrs
	read -r ios errs verrs < <(rel_fio_sum "$1")
	rel_metric data_errors "$1" "$verrs"
	[ "$verrs" = 0 ] || { head -c 3000 "$REL_TMP/$1.err" >&2; fail "fio $1: $verrs verify failures"; }
	rel_metric load ios_under_fault "$ios"
	echo "fio $1: $ios I/Os, $errs jobs ended with an error"
}

# Every scheduler a device offers, after loading the kernel's own.
rel_all_scheds() {
	local m
	for m in mq-deadline kyber-iosched bfq; do modprobe -q "$m" 2>/dev/null; done
	tr -d '[]' <"$(sched_file "$1")"
}

# rel_tune_waits DEV SCHED: make the scheduler on DEV wait as much as its
# tunables allow a test to see: anticipation or idling on a non-rotational
# device, a long wait window (up to WAIT_MS, 200 by default).
rel_tune_waits() {
	local dev=$1 sched=$2 name max v d
	d=$(iosched_dir "$dev")
	while read -r name _ _ max; do
		case $name in
		*nonrot*) v=$max ;;
		*antic_expire* | *idle* | *wait*)
			v=${WAIT_MS:-200}
			case $name in *_us) v=$((v * 1000)) ;; *_ns) v=$((v * 1000000)) ;; esac
			[ "$v" -le "$max" ] || v=$max
			;;
		*) continue ;;
		esac
		echo "$v" >"$d/$name" 2>/dev/null || true
	done < <(tunable_table "$sched")
}

# rel_waits_pending DEV: how many policy waits run now (started - ended),
# when the scheduler counts them; empty otherwise. The counters are separate
# files: a reading counts only when "started" did not move across it.
rel_waits_pending() {
	local d s1 s2 h t a
	d=$(iosched_dir "$1")
	[ -r "$d/antic_started" ] || return 0
	{ read -r s1 <"$d/antic_started" && read -r h <"$d/antic_hits" &&
		read -r t <"$d/antic_timeouts" && read -r a <"$d/antic_aborted" &&
		read -r s2 <"$d/antic_started"; } 2>/dev/null || { echo 0; return 0; }
	if [ "$s1" = "$s2" ]; then echo $((s1 - h - t - a)); else echo 0; fi
}

# rel_nullb_create NAME SIZE_MB [ATTR=VALUE...]: a memory-backed null_blk
# device (20 us per request, depth 32, unless ATTRs say otherwise) made
# through configfs; prints its disk name.
rel_nullb_create() {
	local name=$1 size=$2
	shift 2
	nullb_create "$name" size="$size" memory_backed=1 irqmode=2 \
		completion_nsec=20000 hw_queue_depth=32 "$@"
}

# rel_scsi_debug ARGS...: load scsi_debug with ARGS and print its disk name.
rel_scsi_debug() {
	local b sd=""
	modprobe scsi_debug "$@" || return 1
	modprobe sd_mod 2>/dev/null
	udevadm settle 2>/dev/null
	for b in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
		[ -e "$b" ] && sd=${b##*/}
	done
	[ -n "$sd" ] || return 1
	bdev_node "$sd"
	echo "$sd"
}

# rel_wait_pid PID SECONDS: wait for PID to end within SECONDS; 124 if it did
# not (it is then left running: the caller reports a hang).
rel_wait_pid() {
	local pid=$1 end=$((SECONDS + $2))
	while [ "$SECONDS" -lt "$end" ]; do
		kill -0 "$pid" 2>/dev/null || { wait "$pid"; return; }
		sleep 0.5
	done
	kill -0 "$pid" 2>/dev/null || { wait "$pid"; return; }
	return 124
}

# rel_hung_report [DEV]: the blocked tasks, and the block layer's view of
# DEV (scheduler, counters, in-flight, blk-mq debugfs), for a test that
# found something stuck.
rel_hung_report() { hung_report "${1:-${REL_DEV:-$DEV}}"; }
