#!/usr/bin/env bash
# The simulator's A/B on every disk profile (issue 9's measurement): for
# each of hdd, hdd-laptop and hdd-2002, the tiobench-style seqread sweep
# 1..256 threads against a background streaming writer, and read-vs-write
# with 1 and 4 readers, for noop, elevator, read-latency2, deadline-read and
# anticipatory. Deterministic: the same build prints the same numbers.
# Usage: scripts/bench-sim-profiles.sh [--profiles LIST] [--scheds LIST]
#        [--threads LIST] [--json DIR] [-- extra elvkit-sim options]
set -euo pipefail
cd "$(dirname "$0")/.." || exit 1
profiles=hdd,hdd-laptop,hdd-2002
scheds=noop,elevator,read-latency2,deadline-read,anticipatory
threads=1,2,4,8,16,32,64,128,256
json=
die2() { echo "bench-sim-profiles: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--profiles) profiles=${2:?}; shift 2 ;;
	--scheds) scheds=${2:?}; shift 2 ;;
	--threads) threads=${2:?}; shift 2 ;;
	--json) json=${2:?}; shift 2 ;;
	--) shift; break ;;
	*) die2 "unknown option '$1' (--profiles, --scheds, --threads, --json, --)" ;;
	esac
done
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
