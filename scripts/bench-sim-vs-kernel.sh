#!/bin/bash
# Two hosts, one answer: the same workloads on the same device model in the
# simulator (build/elvkit-sim --device PROFILE) and in the kernel on ekdisk
# (scripts/bench-kernel.sh --device ekdisk-PROFILE, one QEMU boot), for the
# schedulers both hosts have, printed side by side with the kernel/simulator
# ratio of MB/s, max, p99 and p99.9 latency; a ratio off by more than --limit
# percent is flagged (!), or marked (~) where a quantile lies either side of
# a knee both hosts agree on. The kernel's `none` meets the simulator's `noop`,
# its mq-deadline the simulator's model of it (src/policy/mq_deadline.c).
# Measured, not asserted: exits 0 when both hosts ran.
#
# usage: scripts/bench-sim-vs-kernel.sh [--kernel RELEASE] [--profile hdd]
#          [--workloads seqread,randread,read-vs-write,interleaved] [--threads 1,4,16]
#          [--scheds none,mq-deadline,deadline-read,anticipatory,fair-queue]
#          [--runtime SECONDS] [--runs N] [--limit PCT] [--out DIR]
#          [--report-only DIR] [--tune NAME=VALUE[,...]] [--nr-requests N] [--probe]
#          [--calibrate] [--resim DIR]
#   --kernel       an installed release (bench-kernel.sh's default: the newest 6.1)
#   --runtime      seconds per kernel point (fio time_based); the simulator's
#                  threads as long in simulated time (its --runtime: new I/O
#                  stops there, what is in flight drains, as fio's jobs do;
#                  --time-limit 120 s later); the report says if the spans differ
#   --runs N       runs per point on each host (bench-kernel.sh's rounds in
#                  one boot, the simulator's seeds): each cell shows its half
#                  range, and a ratio the two ranges cover is not flagged
#   --out DIR      where sim.json, kernel.json and the kernel's raw results go
#                  (default build/bench-sim-vs-kernel/PROFILE-TIME)
#   --report-only  compare DIR's sim.json and kernel.json again, run nothing
#   --tune, --nr-requests  given to both hosts: a scheduler tunable where the
#                  scheduler has it, and the queue's request count
#   --probe        the kernel's block layer sampled (bench-kernel.sh --probe)
#                  and set beside the simulator's: writes in flight under
#                  wbt, requests held and waited for, on the device, KiB per
#                  write request
#   --calibrate    trace the kernel's every point once more (bench-kernel.sh
#                  --trace-wake) and run the simulator per point and
#                  scheduler with what the trace measured: --think, the
#                  readers' time from a read's completion to their next bio
#                  (fio and the system call under TCG, where the simulator
#                  assumes 0, or 100 us for read-vs-write), and
#                  --tag-wake-us, how late after a completion a task asleep
#                  for a request (or for wbt) runs to ask again, each as the
#                  points of its quantile function (PCT:US,...: the
#                  simulator draws every delay from them); where the writer
#                  slept in wbt, --write-end-us and --wbt-wake-us, its
#                  medians; and --copy-mbs, the writer's MB per second of
#                  its own CPU (fio's usr+sys: the copy into the page cache
#                  under TCG); --wb-bw-init, the writeback estimate
#                  each kernel run's group started with (the writer before
#                  it left it), run by run; and --late-us, how late ekdisk's
#                  timer handed completions back during the point's groups
#                  (their late_hist, scripts/lib/late-hist.py; the whole
#                  boot's for a run from before); and --start-us, the
#                  last reader's first bio after the first's in the
#                  trace's start (2000 for a trace from before 2026-12-05):
#                  fio's jobs start in no set order, and the reader wbt
#                  watches first it keeps (README, "wbt's windows,
#                  traced"). The table goes to
#                  calibration.txt and heads the report, the points to
#                  calibration-points.txt; the simulator's runs are traced
#                  (elvkit-sim --trace, sim-POINT.trace.gz) and the report
#                  ends with both hosts' traces point by point: time in the
#                  scheduler and on the device, think time, and the turns
#                  processes take on the device (scripts/lib/turns.py)
#   --resim DIR    the simulator's side again against DIR's kernel run (its
#                  kernel.json and kernel-raw/, traces too with --calibrate),
#                  no boot: for a simulator that changed; the same
#                  --workloads, --threads, --scheds, --runtime, --runs
# Both hosts: O_DIRECT reads of 128 KiB (sequential) and 4 KiB (random), no
# read-ahead; read-vs-write adds one streaming writer of 128 KiB, buffered:
# the kernel runs first, and the simulator's writer gets the dirty limits
# its guest set (meta.txt's dirty_bytes: --dirty-kb, --dirty-bg-kb). Requests
# merge up to ekdisk's limit (EKDISK_MAX_HW_SECTORS, the simulator's
# --max-kb). The threads
# split the device as the kernel's fio jobs do (the simulator's --size is
# the capacity, half of it for read-vs-write). interleaved (not a default)
# is the simulator's seqread --interleave: the threads read alternate 128
# KiB blocks of the whole device, as bench-kernel.sh's fio jobs do.
# Bad arguments exit 2 with a one-line reason.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

. scripts/lib/kernels.sh
. scripts/lib/cli.sh
kernel="" profile=hdd workloads=seqread,randread,read-vs-write threads=1,4,16
scheds=none,mq-deadline,deadline-read,anticipatory,fair-queue runtime=10 runs=1 limit=25 out="" report_only=""
tunes="" nr_requests="" probe=() calibrate=0 resim=""
# --calibrate: the threads start at a random 0..2 ms, per seed. A guess at
# how fio's jobs begin under TCG, and only their order matters: it decides
# which reader wbt watches (see --help).
START_US=2000
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) need "$@"; kernel=$2; shift 2 ;;
	--profile) need "$@"; profile=$2; shift 2 ;;
	--workloads) need "$@"; workloads=$2; shift 2 ;;
	--threads) need "$@"; threads=$2; shift 2 ;;
	--scheds) need "$@"; scheds=$2; shift 2 ;;
	--runtime) need "$@"; runtime=$2; shift 2 ;;
	--runs) need "$@"; runs=$2; shift 2 ;;
	--limit) need "$@"; limit=$2; shift 2 ;;
	--out) need "$@"; out=$2; shift 2 ;;
	--report-only) need "$@"; report_only=$2; shift 2 ;;
	--tune) need "$@"; tunes=${tunes:+$tunes,}$2; shift 2 ;;
	--nr-requests) need "$@"; nr_requests=$2; shift 2 ;;
	--probe) probe=(--probe); shift ;;
	--calibrate) calibrate=1; shift ;;
	--resim) need "$@"; resim=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) die2 "unknown option '$1' (see --help)" ;;
	esac
done
[[ $limit =~ ^[0-9]+(\.[0-9]+)?$ ]] || die2 "--limit: '$limit' is not a percentage (a number, e.g. 25)"
cmp=(scripts/lib/sim-vs-kernel.py --limit "$limit")
if [ -n "$report_only" ]; then
	for f in sim.json kernel.json; do
		[ -s "$report_only/$f" ] || die2 "--report-only: $report_only has no $f"
	done
	[ ! -s "$report_only/calibration.txt" ] || cat "$report_only/calibration.txt"
	exec "${cmp[@]}" "$report_only/sim.json" "$report_only/kernel.json"
fi
[[ $runtime =~ ^[1-9][0-9]*$ ]] || die2 "--runtime: '$runtime' is not a whole number of seconds"
[[ $runs =~ ^[1-9][0-9]?$ ]] || die2 "--runs: '$runs' is not a number of runs (1-99)"
threads_check "$threads"
list_check --workloads "$workloads" '^(seqread|randread|read-vs-write|interleaved)$'
# Plain names: the simulator has no NAME+TUNABLE=VALUE variants.
list_check --scheds "$scheds" '^[a-z0-9][a-z0-9_-]*$'
# Checked here, not first by bench-kernel.sh after the simulator's runs
# (and the output directory made): its own checks, the same helpers.
queue_set_check "$tunes" "$nr_requests"
[ -z "$kernel" ] || [ -n "$resim" ] || release_check --kernel "$kernel"
sim_set=() kern_set=()
for kv in ${tunes//,/ }; do sim_set+=(--tune "$kv"); done
[ -z "$tunes" ] || kern_set+=(--tune "$tunes")
[ -z "$nr_requests" ] || { sim_set+=(--nr-requests "$nr_requests"); kern_set+=(--nr-requests "$nr_requests"); }
make --no-print-directory -s build/elvkit-sim || exit 1
build/elvkit-sim --list | sed -n '/^devices/,/^workloads:/p' | grep -E "^  $profile( |$)" >/dev/null || die2 "--profile: no device model '$profile' (elvkit-sim --list)"
# The simulator's name for a kernel scheduler: the kernel's none is its noop.
sim_sched() { if [ "$1" = none ]; then echo noop; else echo "$1"; fi; }
simscheds=$(for s in ${scheds//,/ }; do sim_sched "$s"; done | paste -sd, -)
if [ -n "$resim" ]; then
	if [ ! -s "$resim/kernel.json" ] || [ ! -s "$resim/kernel-raw/meta.txt" ]; then
		die2 "--resim: no kernel run in $resim (kernel.json, kernel-raw/meta.txt)"
	fi
	out=$resim
fi
out=${out:-build/bench-sim-vs-kernel/$profile-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out" || exit 1

# The kernel's fio jobs split the whole device among the threads (readers
# of read-vs-write its first half, the writer behind it), so the
# simulator's threads get the same regions: --size is the bytes the guest
# splits (half of them for read-vs-write), from the model's capacity as
# ekdisk has it, not the simulator's 64 MiB default, in which random reads
# seek a few tracks instead of across the disk (QD1: 189 IOPS against the
# kernel's 72); and --region-align rounds each thread's region as the
# guest rounds its jobs', so each stream starts on the sector the kernel's
# did: with capacity_gb split evenly instead, NCQ served 16 sequential
# readers in another order, and their p99 was 358 ms against the
# kernel's 300 (README, "Where the streams start").
# shellcheck source=scripts/lib/fio-regions.sh
. scripts/lib/fio-regions.sh
cap_sectors=$(build/elvkit-sim --list | awk -v p="$profile" '
	/^devices/ { d = 1; next } /^workloads:/ { d = 0 }
	d && $1 == p { m = 1; next } d && m && /^  [^ ]/ { m = 0 }
	m && $1 == "=" && $2 == "capacity" { print $3; exit }')
[[ $cap_sectors =~ ^[1-9][0-9]*$ ]] || die "no capacity for '$profile' in elvkit-sim --list"
span=$(fio_devsize "$cap_sectors")
# ekdisk's largest request, the one place it is set.
max_kb=$(sed -n 's/^#define EKDISK_MAX_HW_SECTORS \([0-9]*\).*/\1/p' src/ekdisk/ekdisk.h)
[[ $max_kb =~ ^[1-9][0-9]*$ ]] || die "no EKDISK_MAX_HW_SECTORS in src/ekdisk/ekdisk.h"
max_kb=$((max_kb / 2))
echo "bench-sim-vs-kernel: kernel, ekdisk-$profile${resim:+ (the run in $resim)}" >&2
k=()
[ -z "$kernel" ] || k=(--kernel "$kernel")
if [ "$calibrate" = 1 ]; then
	pts=""
	for w in ${workloads//,/ }; do
		for t in ${threads//,/ }; do pts=${pts:+$pts,}$w:$t; done
	done
	k+=(--trace-wake "$pts")
fi
if [ -n "$resim" ]; then
	# The report again from the raw results: its JSON as this script now reads it.
	scripts/bench-kernel.sh --report-only "$out/kernel-raw" --json "$out/kernel.json" >"$out/kernel.txt" ||
		die "bench-kernel.sh --report-only $out/kernel-raw failed"
else
	scripts/bench-kernel.sh "${k[@]}" --device "ekdisk-$profile" --workloads "$workloads" \
		--threads "$threads" --scheds "$scheds" --runtime "$runtime" --runs "$runs" "${kern_set[@]}" "${probe[@]}" \
		--out "$out/kernel-raw" --json "$out/kernel.json" >"$out/kernel.txt" ||
		{ tail -n 5 "$out/kernel.txt" >&2; die "bench-kernel.sh failed (see $out/kernel.txt)"; }
fi
# The kernel's writeback limits (vm.dirty_bytes and _background_bytes, as
# its guest set them for this device): the simulator's buffered writer is
# dirty-throttled and written back by a flusher under the same ones.
read -r dirty dirty_bg < <(sed -n "s/^dirty_bytes\.ekdisk-$profile //p" "$out/kernel-raw/meta.txt" 2>/dev/null)
[[ $dirty =~ ^[1-9][0-9]*$ && $dirty_bg =~ ^[1-9][0-9]*$ ]] ||
	die "no dirty_bytes.ekdisk-$profile in $out/kernel-raw/meta.txt"
echo "bench-sim-vs-kernel: simulator, $profile (threads split $span bytes as the kernel's jobs do)" >&2
# --calibrate: "WORKLOAD THREADS SCHED" and the options' values per traced
# point (waketrace.py's SIM_OPTIONS, "-": none).
CAL_OPTS=(--think --tag-wake-us --write-end-us --wbt-wake-us --copy-mbs --start-us --tag-wake-batch)
declare -A cal=()
# A value for the table: US as it is, PCT:US points as "median/mean".
cal_show() {
	case $1 in
	*:*) awk -v p="$1" 'BEGIN {
		n = split(p, pt, ","); m = "-"
		for (i = 1; i <= n; i++) {
			split(pt[i], x, ":"); q[i] = x[1]; v[i] = x[2]
			if (i > 1 && m == "-" && q[i] >= 50)
				m = sprintf("%.0f", v[i - 1] + (v[i] - v[i - 1]) * (50 - q[i - 1]) / (q[i] - q[i - 1]))
			if (i > 1) sum += (q[i] - q[i - 1]) * (v[i - 1] + v[i]) / 2
		}
		printf "%s/%.0f", m, sum / 100 }' ;;
	*) printf '%s' "$1" ;;
	esac
}
# cal_add OPTION FILE: FILE's "WORKLOAD THREADS SCHED VALUE" lines as
# OPTION VALUE for those of the traced points.
cal_add() {
	local w t s v
	while read -r w t s v; do
		[ -z "${cal[$w:$t:$s]+x}" ] || cal[$w:$t:$s]+=" $1 $v"
	done <"$2"
}
rm -f "$out/calibration.txt" "$out/calibration-points.txt"
if [ "$calibrate" = 1 ]; then
	python3 scripts/lib/waketrace.py --sim-options "$out/kernel.json" >"$out/calibration-points.txt" ||
		die "no wake traces in $out/kernel.json"
	while read -r w t s v1 v2 v3 v4 v5 v6 v7; do
		vals=("$v1" "$v2" "$v3" "$v4" "$v5" "$v6" "$v7") cal[$w:$t:$s]=""
		for i in "${!CAL_OPTS[@]}"; do
			[ "${vals[i]}" = - ] || cal[$w:$t:$s]+=" ${CAL_OPTS[i]} ${vals[i]}"
		done
	done <"$out/calibration-points.txt"
	# The writeback estimate each kernel run's group started with (what
	# the writer before it left; read-vs-write): --wb-bw-init, run by run.
	python3 - "$out/kernel.json" >"$out/wb-bw-init.txt" <<'PY' || die "cannot read $out/kernel.json"
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    v = r.get("wb_bw_start_kbps_runs")
    if v and all(isinstance(x, (int, float)) and x > 0 for x in v):
        print(r["workload"], r["threads"], r["sched"], ",".join(str(int(x)) for x in v))
PY
	cal_add --wb-bw-init "$out/wb-bw-init.txt"
	# How late ekdisk's timer handed completions back in the guest:
	# --late-us, per point and scheduler over its groups where the kernel
	# run counted them so, else the whole boot's for every point.
	python3 scripts/lib/late-hist.py --json "$out/kernel.json" >"$out/late-us.txt" ||
		die "cannot read $out/kernel.json"
	late=""
	cal_add --late-us "$out/late-us.txt"
	[ -s "$out/late-us.txt" ] ||
		late=$(python3 scripts/lib/late-hist.py "$out/kernel-raw/meta.txt" "ekdisk-$profile") || late=""
	{
		echo "calibrated from the kernel's run (the simulator's options per point: us, --copy-mbs MB/s; median/mean:"
		echo "drawn from the trace's quantiles, calibration-points.txt; - : the simulator's default):"
		[ -z "$late" ] || echo "  every point: --late-us $(cal_show "$late") (ekdisk's timer lateness, the whole boot's, median/mean)"
		echo "  every point the trace has no start of: --start-us $START_US (the threads' start, in an order per seed)"
		printf '  %-14s %7s  %-14s' workload threads scheduler
		printf ' %14s' "${CAL_OPTS[@]}"
		echo "      --late-us --wb-bw-init (KiB/s, run by run)"
		for w in ${workloads//,/ }; do
			for t in ${threads//,/ }; do
				for s in ${scheds//,/ }; do
					vals=()
					read -r -a vals < <(grep "^$w $t $s " "$out/calibration-points.txt")
					printf '  %-14s %7s  %-14s' "$w" "$t" "$s"
					for i in "${!CAL_OPTS[@]}"; do printf ' %14s' "$(cal_show "${vals[i + 3]:--}")"; done
					lt=$(sed -n "s/^$w $t $s //p" "$out/late-us.txt")
					wb=$(sed -n "s/^$w $t $s //p" "$out/wb-bw-init.txt")
					printf ' %14s %s\n' "$(cal_show "${lt:--}")" "${wb:--}"
				done
			done
		done
	} >"$out/calibration.txt"
fi
align=(--region-align "${FIO_REGION_ALIGN_MB}m")
parts=()
for w in ${workloads//,/ }; do
	case $w in
	randread) opts=(--block 4k --size "$span" "${align[@]}") ;;
	read-vs-write) opts=(--block 128k --bg-block 128k --readahead 0 --size $((span / 2)) "${align[@]}") ;;
	interleaved) opts=(--block 128k --readahead 0 --interleave --size "$span" "${align[@]}") ;;
	*) opts=(--block 128k --readahead 0 --size "$span" "${align[@]}") ;;
	esac
	sw=$w
	[ "$w" != interleaved ] || sw=seqread
	# One run of all points, or with --calibrate one per point and
	# scheduler with that point's options.
	runs_of=("$threads $simscheds")
	if [ "$calibrate" = 1 ]; then
		runs_of=()
		for t in ${threads//,/ }; do
			for s in ${scheds//,/ }; do runs_of+=("$t $s"); done
		done
	fi
	for ts in "${runs_of[@]}"; do
		read -r t s <<<"$ts"
		extra=() j=$out/sim-$w.json
		if [ "$calibrate" = 1 ]; then
			# shellcheck disable=SC2206 # the options' words
			# (the trace's --start-us, where it has one, comes after: the last wins)
			extra=(--start-us "$START_US" ${cal[$w:$t:$s]:-} ${late:+--late-us "$late"}
				--trace "$out/sim-$w-t$t-$s.trace")
			j=$out/sim-$w-t$t-$s.json
			s=$(sim_sched "$s")
		fi
		build/elvkit-sim --sched "$s" --device "$profile" --workload "$sw" \
			--threads "$t" --runtime "$runtime" --time-limit $((runtime + 120)) --runs "$runs" --max-kb "$max_kb" \
			--dirty-kb $((dirty / 1024)) --dirty-bg-kb $((dirty_bg / 1024)) \
			"${opts[@]}" "${sim_set[@]}" "${extra[@]}" \
			--json "$j" >"${j%.json}.txt" || die "elvkit-sim failed on $w (see ${j%.json}.txt)"
		parts+=("$j")
	done
done
# the simulator's seqread --interleave is the kernel's interleaved
python3 -c 'import json, sys; json.dump([dict(r, workload="interleaved") if r.get("interleave") else r for p in sys.argv[2:] for r in json.load(open(p))], open(sys.argv[1], "w"), indent=1)' \
	"$out/sim.json" "${parts[@]}" || exit 1

[ ! -s "$out/calibration.txt" ] || cat "$out/calibration.txt"
"${cmp[@]}" "$out/sim.json" "$out/kernel.json"
rc=$?
# --calibrate: both hosts' traces of each point, request by request
# (scripts/lib/turns.py): the simulator's --trace, the kernel's wake trace.
if [ "$calibrate" = 1 ]; then
	# the kernel trace's window, as wake_point (bench-kernel-guest.sh) takes
	# it: from a quarter of the run, half of it, at least a second
	win_from=$((runtime / 4)) win_span=$((runtime / 2))
	[ "$win_span" -ge 1 ] || win_span=1
	echo
	echo "== where a request's time goes, and the turns processes take on the device (scripts/lib/turns.py):"
	echo "   I2D in the scheduler, D2C on the device, think from a completion to the process's next request, a turn its consecutive completions;"
	echo "   both over the run's middle half (the kernel's trace, the simulator's from $win_from to $((win_from + win_span)) s)"
	for w in ${workloads//,/ }; do
		for t in ${threads//,/ }; do
			for s in ${scheds//,/ }; do
				st=$out/sim-$w-t$t-$s.trace
				kt=$out/kernel-raw/raw/ekdisk-$profile/wake/$w-t$t-$s.trace.gz
				[ -s "$st" ] || continue
				if [ -s "$kt" ]; then
					scripts/lib/turns.py --window "$win_from" $((win_from + win_span)) \
						--pair "$st" "$kt" "$w, $t threads, $s"
				fi
				gzip -f "$st"
			done
		done
	done
fi
exit $rc
