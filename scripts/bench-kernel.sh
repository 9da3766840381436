#!/bin/bash
# Kernel-side A/B latency comparison of I/O schedulers: one QEMU boot (TCG) of
# a Debian kernel, in it the elvkit modules from build/RELEASE/ next to the
# kernel's own schedulers, a device (null_blk, or ekdisk.ko running one of
# the simulator's device models), and a tiobench-style fio thread
# sweep (seqread, randread, seqwrite, randwrite, read-vs-write) for every
# scheduler on the same device in the same boot. Prints one table per device
# and workload: MB/s, CPU %, avg/max latency, % of I/Os over 2 s and 10 s,
# each as a ratio to `none` of the same boot, then the wall (the smallest
# thread count whose max latency is 10x the previous one's or more).
# Three more workloads, by name only: startup (a fresh process's 200 dependent
# 4 KiB reads while N sequential readers stream: its time, and as a ratio to
# the same job on the idle device under the same scheduler), dbench
# (ext4 on the device, memory-backed, `dbench -t RUNTIME N`: MB/s and max
# latency) and interleaved (N sequential readers of one region, taking
# turns block by block: cooperating processes).
# Measured, not asserted: exits 0 when the guest ran, whatever the numbers.
#
# usage: scripts/bench-kernel.sh [--kernel RELEASE] [--threads 1,4,16] [--runs N]
#          [--scheds none,mq-deadline,kyber,bfq,deadline-read,anticipatory]
#          [--device nullb|nullb-rot|ekdisk-PROFILE[,...]] [--workloads seqread,...]
#          [--runtime SECONDS] [--json FILE] [--out DIR] [--report-only DIR]
#          [--plot DIR] [--blktrace WORKLOAD:THREADS[,...]]
#          [--trace-wake WORKLOAD:THREADS[,...]]
#          [--tune NAME=VALUE[,...]] [--nr-requests N] [--probe] [--keep-lat]
#   --kernel       an installed release (default: the newest 6.1)
#   --device       nullb: 100 us/request, depth 32, non-rotational;
#                  nullb-rot: 5 ms/request, depth 2, rotational (slow and shallow);
#                  ekdisk-PROFILE: ekdisk.ko with the simulator's model PROFILE
#                  (hdd, hdd-laptop, hdd-2002, ssd, null): seeks and rotation
#   --workloads    any of seqread, randread, seqwrite, randwrite, read-vs-write
#                  (the default: these five), startup, dbench (threads = clients),
#                  interleaved (N readers of one region, reader i reading the
#                  128 KiB blocks i, i + N, ...: cooperating processes)
#   --runs N       repeat each point N times; mean and +/- half the range
#   --out DIR      where the raw results go (default build/bench-kernel/RELEASE-TIME)
#   --report-only  print the report of an earlier run's DIR, boot nothing
#   --plot DIR     also write PNG plots (gnuplot, scripts/lib/ab-plot.py) into DIR:
#                  per device and workload, max latency and MB/s against threads
#   --scheds       schedulers, each NAME or a variant NAME+TUNABLE=VALUE[+...]
#                  (e.g. fair-queue,fair-queue+async_depth=8): NAME with those
#                  tunables set after each switch, beside NAME in the same boot
#   --tune         after each switch, write VALUE to queue/iosched/NAME of every
#                  scheduler that has NAME (as elvkit-sim --tune); repeatable
#   --nr-requests  after each switch, write N to queue/nr_requests (a switch
#                  resets it to blk-mq's default)
#   --probe        sample the block layer every 0.2 s while each point runs
#                  (debugfs: wbt's limit and writes in flight, busy tags and
#                  tag sleepers, driver's and scheduler's; Dirty and
#                  Writeback); the report gives their means and maxima
#   --keep-lat     keep fio's per-I/O latency logs of every measured group,
#                  raw/DEVICE/WORKLOAD-tTHREADS.rRUN-SCHED.lat.gz: one line
#                  per I/O, "job, ms since its start, latency ns, direction,
#                  bytes, offset" (fio's lat log, the job's number in front):
#                  when and where the longest reads happened
#   --blktrace     after these points' sweep, each scheduler again for --runtime
#                  under blktrace; btt's averages: I2D (inserted to dispatched,
#                  in the scheduler), Q2D (queued to dispatched), D2C (device)
#   --trace-wake   after these points' sweep, each scheduler again for --runtime
#                  under tracefs (block and sched events, the middle half of
#                  the run): how long after its request completes a task asks
#                  for the next, how often it sleeps for one, how late the
#                  tag sleepers are woken (scripts/lib/waketrace.py)
# Bad arguments exit 2 with a one-line reason.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh
. scripts/lib/vm.sh

. scripts/lib/cli.sh

ALL_WORKLOADS="seqread randread seqwrite randwrite read-vs-write startup dbench interleaved"
# --trace-wake's events, on from boot (trace_event=) as the guest suite's
# are (EK_VM_SUITE_APPEND in scripts/lib/vm.sh): turning one on later
# patches kernel text on running CPUs, which QEMU's multi-threaded TCG has
# got wrong (an int3 Oops in __schedule, sched_switch's tracepoint). The
# guest records only while wake_point says so.
WAKE_EVENTS="block:block_bio_queue block:block_bio_backmerge block:block_bio_frontmerge"
WAKE_EVENTS+=" block:block_getrq block:block_rq_issue block:block_rq_complete sched:sched_wakeup sched:sched_switch"
# And wbt's window ends (how each monitoring window ended: waketrace.py),
# where the kernel has wbt (CONFIG_BLK_WBT); not required.
WBT_EVENTS="wbt:wbt_lat wbt:wbt_stat wbt:wbt_timer"
kernel="" threads=1,4,16 runs=1 runtime=5 device=nullb json="" out="" report_only="" plot="" blktrace=""
waketrace=""
tunes="" nr_requests="" probe=0 keep_lat=0
scheds=none,mq-deadline,kyber,bfq,deadline-read,anticipatory
# The default sweep: the fio workloads up to read-vs-write; startup and
# dbench are asked for by name.
workloads=seqread,randread,seqwrite,randwrite,read-vs-write

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) need "$@"; kernel=$2; shift 2 ;;
	--threads) need "$@"; threads=$2; shift 2 ;;
	--runs) need "$@"; runs=$2; shift 2 ;;
	--scheds) need "$@"; scheds=$2; shift 2 ;;
	--device) need "$@"; device=$2; shift 2 ;;
	--workloads) need "$@"; workloads=$2; shift 2 ;;
	--runtime) need "$@"; runtime=$2; shift 2 ;;
	--json) need "$@"; json=$2; shift 2 ;;
	--out) need "$@"; out=$2; shift 2 ;;
	--report-only) need "$@"; report_only=$2; shift 2 ;;
	--plot) need "$@"; plot=$2; shift 2 ;;
	--blktrace) need "$@"; blktrace=$2; shift 2 ;;
	--trace-wake) need "$@"; waketrace=$2; shift 2 ;;
	--tune) need "$@"; tunes=${tunes:+$tunes,}$2; shift 2 ;;
	--nr-requests) need "$@"; nr_requests=$2; shift 2 ;;
	--probe) probe=1; shift ;;
	--keep-lat) keep_lat=1; shift ;;
	-h | --help) sed -n '2,/^# Bad arguments/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die2 "unknown argument '$1' (try --help)" ;;
	esac
done

threads_check "$threads"
threads=$(tr , '\n' <<<"$threads" | sort -n | paste -sd, -)
[[ $runs =~ ^[1-9][0-9]?$ ]] || die2 "--runs: expected 1..99, got '$runs'"
[[ $runtime =~ ^[1-9][0-9]{0,3}$ ]] || die2 "--runtime: expected whole seconds 1..9999, got '$runtime'"
# NAME, or a variant NAME+TUNABLE=VALUE[+...] (the guest's sched_base).
list_check --scheds "$scheds" '^[a-z0-9][a-z0-9_-]*(\+[a-z][a-z0-9_]*=-?[0-9]{1,12})*$'
[ -z "$(tr , '\n' <<<"$scheds" | sort | uniq -d)" ] || die2 "--scheds: a scheduler is given twice"
# ekdisk profiles: the simulator's device names (elvkit-sim --list).
EKDISK_PROFILES="hdd hdd-laptop hdd-2002 ssd null"
list_check --device "$device" "^(nullb|nullb-rot|ekdisk-(${EKDISK_PROFILES// /|}))\$"
list_check --workloads "$workloads" "^(${ALL_WORKLOADS// /|})$"
# point_check OPTION VALUE: a list of WORKLOAD:THREADS points of the sweep.
point_check() {
	local p
	list_check "$1" "$2" "^(${ALL_WORKLOADS// /|}):[1-9][0-9]{0,2}\$"
	for p in ${2//,/ }; do
		[ "${p%%:*}" != dbench ] || die2 "$1: $p: dbench is not traced (fio workloads only)"
		case ",$workloads," in *",${p%%:*},"*) ;; *) die2 "$1: $p: ${p%%:*} is not in --workloads" ;; esac
		case ",$threads," in *",${p#*:},"*) ;; *) die2 "$1: $p: ${p#*:} is not in --threads" ;; esac
	done
}
if [ -n "$blktrace" ]; then
	point_check --blktrace "$blktrace"
	for c in blktrace blkparse btt; do
		command -v "$c" >/dev/null || die "--blktrace: $c is not installed; run make deps"
	done
fi
[ -z "$waketrace" ] || point_check --trace-wake "$waketrace"
# A value a scheduler refuses is recorded in the guest, not fatal.
queue_set_check "$tunes" "$nr_requests"
if [ -n "$json" ]; then
	[ -d "$(dirname "$json")" ] || die2 "--json: no directory $(dirname "$json")"
fi
if [ -n "$plot" ]; then
	[ ! -e "$plot" ] || [ -d "$plot" ] || die2 "--plot: $plot is not a directory"
	# Checked now, not after a run of many minutes.
	command -v gnuplot >/dev/null || die "--plot: gnuplot is not installed; run make deps"
fi

# report DIR: the tables, the --json file, and the --plot PNGs (drawn from
# the report's JSON, so plots and tables show the same numbers and walls).
report() {
	local j=$json rc
	[ -n "$j" ] || [ -z "$plot" ] || j=$(mktemp) || die "mktemp failed"
	python3 scripts/bench-kernel-report.py "$1" ${j:+--json "$j"}
	rc=$?
	if [ $rc = 0 ] && [ -n "$plot" ]; then
		python3 scripts/lib/ab-plot.py "$j" "$plot"
		rc=$?
	fi
	[ -n "$json" ] || [ -z "$j" ] || rm -f "$j"
	return $rc
}

if [ -n "$report_only" ]; then
	[ -e "$report_only/config.sh" ] || die2 "--report-only: no run in $report_only"
	report "$report_only"
	exit
fi

[ -n "$kernel" ] || kernel=$(k_leg_release 6.1)
[ -n "$kernel" ] || die "no 6.1 kernel installed; give --kernel RELEASE"
release_check --kernel "$kernel"
[ -e "build/$kernel/elvkit.ko" ] || die "no modules in build/$kernel/; run scripts/kbuild.sh $kernel"
case ",$device" in
*,ekdisk-*) [ -e "build/$kernel/ekdisk.ko" ] ||
	die "no ekdisk.ko in build/$kernel/; run scripts/kbuild.sh $kernel" ;;
esac
command -v qemu-system-x86_64 >/dev/null || die "QEMU is not installed; run scripts/install-deps.sh host"
# The guest runs the host's binaries (its root file system, read-only over 9p).
case ",$workloads," in
*,dbench,*)
	if ! command -v dbench >/dev/null || [ ! -e /usr/share/dbench/client.txt ]; then
		die "--workloads dbench: dbench is not installed; run scripts/install-deps.sh host"
	fi
	command -v mkfs.ext4 >/dev/null || die "--workloads dbench: no mkfs.ext4; run scripts/install-deps.sh host" ;;
esac

[ -n "$out" ] || out=build/bench-kernel/$kernel-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
rm -rf "$out/raw" "$out/done" "$out/meta.txt" "$out/guest.log"
cat >"$out/config.sh" <<EOF
KVER='$kernel'
WAKE_EVENTS='$WAKE_EVENTS'
KO_DIR='$PWD/build/$kernel'
DEVICES='${device//,/ }'
WORKLOADS='${workloads//,/ }'
THREADS='${threads//,/ }'
RUNS=$runs
SCHEDS='${scheds//,/ }'
RUNTIME=$runtime
BLKTRACE='${blktrace//,/ }'
WAKETRACE='${waketrace//,/ }'
TUNES='${tunes//,/ }'
NR_REQUESTS='$nr_requests'
PROBE=$probe
KEEP_LAT=$keep_lat
EOF

n_scheds=$(tr , '\n' <<<"$scheds" | wc -l)
n_thr=$(tr , '\n' <<<"$threads" | wc -l)
n_wl=$(tr , '\n' <<<"$workloads" | wc -l)
n_dev=$(tr , '\n' <<<"$device" | wc -l)
points=$((n_scheds * n_thr * n_wl * n_dev * runs))
# Per point: the runtime plus fio start-up, sync and drop_caches under TCG.
# The traced points' passes: each scheduler once more, per device.
traced=$(tr , '\n' <<<"${blktrace:+$blktrace,}$waketrace" | grep -c .)
est=$(((points + traced * n_scheds * n_dev) * (runtime + 3) + 60))
limit=$((est * 3 + 300))
echo "bench-kernel: booting $kernel for $points points (~$((est / 60)) min); raw results in $out" >&2
start=$SECONDS
boot=()
[ -z "$waketrace" ] || boot=(--append "trace_event=${WAKE_EVENTS// /,},${WBT_EVENTS// /,}")
vm_boot "$kernel" "$limit" "$out/console.log" --rw "$out" "${boot[@]}" -- scripts/bench-kernel-guest.sh "$out"
rc=$?
echo "bench-kernel: guest finished in $((SECONDS - start)) s (exit $rc)" >&2
if [ ! -e "$out/done" ]; then
	vm_unfinished bench-kernel "$out/console.log" "$rc"
	exit 1
fi
report "$out"
