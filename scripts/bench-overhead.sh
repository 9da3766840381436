#!/bin/bash
# What a scheduler costs per request: one QEMU boot (TCG) of a kernel, a
# null_blk device that completes inline (irqmode=0, no device time at all)
# with two submit queues, and fio 4k random reads (libaio, QD32, 2 jobs)
# through every scheduler, in interleaved rounds. With no device time, IOPS
# measure the CPU path through the block layer and the scheduler alone.
# Prints per scheduler the median IOPS with its spread (min..max over the
# rounds), the median as a ratio to `none` of the same boot, and the CPU
# time per I/O (all CPUs' busy time over the job, from /proc/stat).
# Measured, not asserted: exits 0 when the guest ran, whatever the numbers.
# --icount makes it exact instead: one vCPU under single-threaded TCG with
# QEMU's -icount (guest time = guest instructions, 1 ns each), so IOPS and
# CPU time measure the instructions per I/O of the whole path (fio,
# syscalls, blk-mq, the scheduler, null_blk) and repeat to within a
# fraction of a percent on a busy host. One vCPU: no lock contention.
# --profile (implies --icount) also counts, through a QEMU plugin
# (scripts/lib/insnprof.c), the guest instructions of every measured job
# per kernel function, and prints per scheduler where its instructions per
# I/O differ from mq-deadline's (--profile-base to choose).
#
# usage: scripts/bench-overhead.sh [--kernel RELEASE] [--rounds N]
#          [--runtime SECONDS] [--scheds none,mq-deadline,...] [--icount]
#          [--profile [--profile-base SCHED]] [--ko-dir DIR] [--out DIR]
#          [--report-only DIR]
#   --kernel       an installed release (default: the newest 6.1)
#   --rounds N     rounds of every scheduler (default 5)
#   --scheds       default: none, mq-deadline, kyber, bfq and every elvkit
#                  scheduler built in the module directory
#   --icount       1 vCPU, guest time counts instructions (see above)
#   --profile      --icount, and instructions per I/O per kernel function
#   --profile-base the scheduler the others are compared with (default:
#                  mq-deadline if measured, else the first)
#   --ko-dir DIR   the elvkit modules (default build/RELEASE), e.g. another
#                  checkout's, to measure before and after a change
#   --out DIR      raw results (default build/bench-overhead/RELEASE-TIME)
#   --report-only  print the table of an earlier run's DIR, boot nothing
# Bad arguments exit 2 with a one-line reason.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh
. scripts/lib/vm.sh

. scripts/lib/cli.sh

kernel="" rounds=5 runtime=5 scheds="" kodir="" out="" report_only="" icount=0
profile=0 profile_base=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) need "$@"; kernel=$2; shift 2 ;;
	--rounds) need "$@"; rounds=$2; shift 2 ;;
	--runtime) need "$@"; runtime=$2; shift 2 ;;
	--scheds) need "$@"; scheds=$2; shift 2 ;;
	--ko-dir) need "$@"; kodir=$2; shift 2 ;;
	--icount) icount=1; shift ;;
	--profile) profile=1 icount=1; shift ;;
	--profile-base) need "$@"; profile_base=$2; shift 2 ;;
	--out) need "$@"; out=$2; shift 2 ;;
	--report-only) need "$@"; report_only=$2; shift 2 ;;
	-h | --help) sed -n '2,/^# Bad arguments/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die2 "unknown argument '$1' (try --help)" ;;
	esac
done
[[ $rounds =~ ^[1-9][0-9]?$ ]] || die2 "--rounds: expected 1..99, got '$rounds'"
[[ $runtime =~ ^[1-9][0-9]{0,2}$ ]] || die2 "--runtime: expected 1..999 seconds, got '$runtime'"
if [ -n "$scheds" ]; then
	[[ $scheds =~ ^[a-z0-9_-]+(,[a-z0-9_-]+)*$ ]] || die2 "--scheds: invalid list '$scheds'"
fi

if [ -n "$profile_base" ]; then
	[[ $profile_base =~ ^[a-z0-9_-]+$ ]] || die2 "--profile-base: invalid scheduler '$profile_base'"
	[ -n "$report_only" ] || [ "$profile" = 1 ] || die2 "--profile-base needs --profile"
fi

report() {
	python3 scripts/bench-overhead-report.py "$1" || return
	[ ! -e "$1/kallsyms.txt" ] ||
		python3 scripts/lib/insnprof-report.py "$1" ${profile_base:+--base "$profile_base"}
}

if [ -n "$report_only" ]; then
	[ -e "$report_only/results.txt" ] || die2 "--report-only: no run in $report_only"
	report "$report_only"
	exit
fi

[ -n "$kernel" ] || kernel=$(k_leg_release 6.1)
[ -n "$kernel" ] || die "no 6.1 kernel installed; give --kernel RELEASE"
release_check --kernel "$kernel"
[ -n "$kodir" ] || kodir=build/$kernel
[ -e "$kodir/elvkit.ko" ] || die "no elvkit.ko in $kodir; run scripts/kbuild.sh $kernel"
kodir=$(cd "$kodir" && pwd)
if [ -z "$scheds" ]; then
	scheds=none,mq-deadline,kyber,bfq
	for ko in "$kodir"/*.ko; do
		n=$(basename "$ko" .ko)
		case $n in elvkit | ekdisk) ;; *) scheds+=",$n" ;; esac	# the shim, the disk model
	done
fi

[ -z "$profile_base" ] || [[ ,$scheds, == *,$profile_base,* ]] ||
	die2 "--profile-base: $profile_base is not among the schedulers ($scheds)"

[ -n "$out" ] || out=build/bench-overhead/$kernel-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
rm -f "$out/results.txt" "$out/done" "$out/guest.log" "$out"/prof-*.txt \
	"$out/marks.txt" "$out/kallsyms.txt"
if [ "$profile" = 1 ]; then
	make --no-print-directory -s build/insnprof.so build/ek-mark ||
		die "--profile: cannot build the QEMU plugin and its marker (scripts/insnprof.mk)"
	export ELVKIT_VM_QEMU="${ELVKIT_VM_QEMU:-} -plugin $PWD/build/insnprof.so,out=$out"
fi
cat >"$out/config.sh" <<EOF
KVER='$kernel'
KO_DIR='$kodir'
SCHEDS='${scheds//,/ }'
ROUNDS=$rounds
RUNTIME=$runtime
ICOUNT=$icount
MARK='$([ "$profile" = 1 ] && echo "$PWD/build/ek-mark")'
EOF
n=$(tr , '\n' <<<"$scheds" | wc -l)
# Per round: fio's start under TCG, then per scheduler its runtime and a
# selection job.
est=$((rounds * (5 + n * (runtime + 2)) + 60))
# Under icount one guest second is about 6 host seconds on this path.
[ "$icount" = 0 ] || est=$((rounds * (5 + n * (runtime * 6 + 4)) + 60))
echo "bench-overhead: booting $kernel, $n schedulers x $rounds rounds (~$((est / 60 + 1)) min); raw results in $out" >&2
[ "$icount" = 0 ] || export EK_VM_CPUS=1 EK_VM_ICOUNT=0
vm_boot "$kernel" $((est * 3 + 300)) "$out/console.log" --rw "$out" -- \
	scripts/bench-overhead-guest.sh "$out"
rc=$?
if [ ! -e "$out/done" ]; then
	vm_unfinished bench-overhead "$out/console.log" "$rc"
	exit 1
fi
report "$out"
