#!/usr/bin/env bash
# The simulator's A/B on every disk profile (issue 9's measurement): for
# each of hdd, hdd-laptop and hdd-2002, the tiobench-style seqread sweep
# 1..256 threads against a background streaming writer, and read-vs-write
# with 1 and 4 readers, for noop, elevator, read-latency2, deadline-read and
# anticipatory. Deterministic: the same build prints the same numbers.
# Usage: scripts/bench-sim-profiles.sh [--profiles LIST] [--scheds LIST]
#        [--threads LIST] [--json DIR] [--plot DIR] [-- extra elvkit-sim options]
#   --plot DIR   also write PNG plots (gnuplot, scripts/lib/ab-plot.py) into
#                DIR: per profile and workload, max and p99 latency and MB/s
#                against threads, the wall marked on the seqread sweep
# Bad arguments exit 2 with a one-line reason.
set -euo pipefail
cd "$(dirname "$0")/.." || exit 1
profiles=hdd,hdd-laptop,hdd-2002
scheds=noop,elevator,read-latency2,deadline-read,anticipatory
threads=1,2,4,8,16,32,64,128,256
json='' plot=''
. scripts/lib/cli.sh
while [ $# -gt 0 ]; do
	case $1 in
	--profiles) need "$@"; profiles=$2; shift 2 ;;
	--scheds) need "$@"; scheds=$2; shift 2 ;;
	--threads) need "$@"; threads=$2; shift 2 ;;
	--json) need "$@"; json=$2; shift 2 ;;
	--plot) need "$@"; plot=$2; shift 2 ;;
	--) shift; break ;;
	*) die2 "unknown option '$1' (--profiles, --scheds, --threads, --json, --plot, --)" ;;
	esac
done
if [ -n "$plot" ]; then
	[ ! -e "$plot" ] || [ -d "$plot" ] || die2 "--plot: $plot is not a directory"
	command -v gnuplot >/dev/null ||
		{ echo "bench-sim-profiles: --plot: gnuplot is not installed; run make deps" >&2; exit 1; }
	# The plots are drawn from the JSON: without --json it goes to a temporary DIR.
	if [ -z "$json" ]; then
		json=$(mktemp -d)
		trap 'rm -rf "$json"' EXIT
	fi
fi
make --no-print-directory -s sim
[ -z "$json" ] || mkdir -p "$json"
for p in ${profiles//,/ }; do
	echo "## $p: seqread sweep, background streaming writer"
	j=()
	[ -z "$json" ] || j=(--json "$json/$p-seqread.json")
	build/elvkit-sim --sched "$scheds" --device "$p" --workload seqread --bg write \
		--threads "$threads" "${j[@]}" "$@"
	echo
	echo "## $p: read-vs-write, 1 and 4 readers"
	[ -z "$json" ] || j=(--json "$json/$p-read-vs-write.json")
	build/elvkit-sim --sched "$scheds" --device "$p" --workload read-vs-write \
		--threads 1,4 --no-wall "${j[@]}" "$@"
	echo
done
if [ -n "$plot" ]; then
	pf=() pr=()
	for p in ${profiles//,/ }; do
		pf+=("$json/$p-seqread.json")
		pr+=("$json/$p-read-vs-write.json")
	done
	scripts/lib/ab-plot.py "${pf[@]}" "$plot"
	# Two reader counts are no sweep: no wall, as in the table above.
	scripts/lib/ab-plot.py --no-wall "${pr[@]}" "$plot"
fi
