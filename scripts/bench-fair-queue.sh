#!/bin/bash
# fair-queue's acceptance table (issue 13), measured in the simulator on
# hdd and ssd: the speed items through elvkit-sim (start-up time against
# an idle disk, aggregate rate of N sequential readers against one, the
# writer's share against one reader), the fairness items from the
# simulator tests that assert them (tests/sim/50[1-4]-fq-*.c print their
# numbers: Jain's index, be:0/be:7, RT share, zones, worst latencies).
# Measured, not asserted: exits 0 unless a run fails.
# usage: scripts/bench-fair-queue.sh [--seed N]   (ELVKIT_SIM=path to override)
set -euo pipefail
cd "$(dirname "$0")/.."

SIM_BENCH_MAKE="sim sim-test-build"
. scripts/lib/cli.sh
sim_bench_args 9 "$@"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# field FILE THREADS KEY: KEY of the JSON row with THREADS threads
field() {
	python3 -c 'import json, sys
for r in json.load(open(sys.argv[1])):
    if r["threads"] == int(sys.argv[2]):
        print(r[sys.argv[3]])' "$@"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0) ? a / b : 0 }'; }

echo "fair-queue acceptance, elvkit-sim, seed $seed"
printf '%-46s %-8s %-22s %s\n' item device measured target
for dev in hdd ssd; do
	run() { "$SIM" --seed "$seed" --device "$dev" --sched "$1" --json "$2" "${@:3}" >/dev/null; }
	run fair-queue "$tmp/idle.json" --workload startup --threads 1 --bg none
	idle=$(field "$tmp/idle.json" 1 startup_ms)
	run fair-queue "$tmp/su.json" --workload startup --threads 1,4,16 --bg read
	for n in 1 4 16; do
		t=$(field "$tmp/su.json" "$n" startup_ms)
		printf '%-46s %-8s %-22s %s\n' "start-up under $n sequential readers" "$dev" \
			"$(ratio "$t" "$idle")x (${t%.*} ms)" "<= 1.5x idle (${idle%.*} ms)"
	done
	run fair-queue "$tmp/sw.json" --workload startup --threads 1 --bg write
	t=$(field "$tmp/sw.json" 1 startup_ms)
	printf '%-46s %-8s %-22s %s\n' "start-up under a streaming writer" "$dev" \
		"$(ratio "$t" "$idle")x (${t%.*} ms)" "<= 1.5x idle"
	run fair-queue "$tmp/sr.json" --workload seqread --threads 1,2,4,8,16,32 --size 2g
	one=$(field "$tmp/sr.json" 1 rate_mbs)
	for n in 2 4 8 16 32; do
		r=$(field "$tmp/sr.json" "$n" rate_mbs)
		printf '%-46s %-8s %-22s %s\n' "aggregate of $n sequential readers" "$dev" \
			"$(ratio "$r" "$one") of one (${r%.*} MB/s)" ">= 0.90 for N <= 16 (hdd)"
	done
	run fair-queue "$tmp/rw.json" --workload read-vs-write --threads 1 --size 1g
	rd=$(field "$tmp/rw.json" 1 read_mbs)
	wr=$(field "$tmp/rw.json" 1 write_mbs)
	ml=$(field "$tmp/rw.json" 1 max_lat_ms)
	printf '%-46s %-8s %-22s %s\n' "read-vs-write, 1 reader: writer's share" "$dev" \
		"$(awk -v r="$rd" -v w="$wr" 'BEGIN { printf "%.2f", w / (r + w) }') (read max ${ml%.*} ms)" \
		"0.15-0.35 (hdd), read max <= 300 ms"
done
echo
echo "fairness and bounds (from the simulator tests, 10 s windows, regions spread over the disk):"
for t in build/sim-san/tests/50[1-4]-fq-*[!g]; do
	"$t" | grep -v '^ok$' | sed 's/^/  /'
done
