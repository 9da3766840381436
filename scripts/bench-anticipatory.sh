#!/bin/bash
# The anticipatory scheduler's benchmark, in the simulator on the default hdd
# (7200 rpm, qd 1, on-disk read-ahead). Three measurements, one table each:
#   1. read-vs-write: a sync sequential reader against a streaming writer,
#      read and write MB/s and the worst read latency;
#   2. think-read with 2 and 8 readers thinking 2 ms between reads;
#   3. seqread from 1 to 256 threads: MB/s and max latency per scheduler.
# "anticip-off" is anticipatory with antic_expire=0: the same deadline
# batches without waiting, to show what the waiting itself buys;
# "anticip-re2s" is anticipatory with read_expire=2000 (sweep only): what
# the read deadline costs the waiting when many readers queue up.
# Measured, not asserted: always exits 0 unless the simulator fails.
# usage: scripts/bench-anticipatory.sh [--seed N]   (ELVKIT_SIM=path to override)
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/lib/cli.sh
sim_bench_args 11 "$@"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

SCHEDS="anticipatory deadline-read noop"
ALL="$SCHEDS anticip-off"

# sim LABEL WORKLOAD THREADS [extra options]: append one line per thread
# count to $tmp/LABEL.WORKLOAD: threads read_mbs write_mbs rate_mbs
# avg_lat_ms max_lat_ms truncated
sim() {
	local label=$1 wl=$2 thr=$3 sched=$1
	shift 3
	local extra=()
	case $label in
	anticip-off) sched=anticipatory; extra=(--tune antic_expire=0) ;;
	anticip-re2s) sched=anticipatory; extra=(--tune read_expire=2000) ;;
	esac
	"$SIM" --sched "$sched" --device hdd --workload "$wl" --threads "$thr" \
		--seed "$seed" --no-wall --json "$tmp/j" "${extra[@]}" "$@" >/dev/null
	awk '
		/"sched"/ {
			line = $0
			n = split("threads read_mbs write_mbs rate_mbs avg_lat_ms max_lat_ms truncated", k, " ")
			out = ""
			for (i = 1; i <= n; i++) {
				v = line
				sub(".*\"" k[i] "\": ", "", v)
				sub("[,}].*", "", v)
				out = out (i > 1 ? " " : "") v
			}
			print out
		}' "$tmp/j" >>"$tmp/$label.$wl"
}

# get LABEL WORKLOAD THREADS COLUMN(2..7)
get() {
	awk -v t="$3" -v c="$4" '$1 == t { print $c }' "$tmp/$1.$2"
}

trunc_mark() {
	[ "$(get "$1" "$2" "$3" 7)" = true ] && printf '*' || printf ' '
}

echo "anticipatory benchmark: elvkit-sim on hdd (defaults: 7200 rpm, qd 1, read-ahead cache), seed $seed"
echo "  * = run cut at the time limit (rates count I/O completed before the cut)"
echo

# 1. read-vs-write
for s in $ALL; do
	sim "$s" read-vs-write 1,4 --size 256m --time-limit 120
done
echo "1. read-vs-write: sync sequential reader(s) (think 100 us, 128 KiB read-ahead) vs a streaming writer"
printf '   %-14s %4s %10s %10s %12s %12s\n' scheduler thr "read MB/s" "write MB/s" "avg lat ms" "max lat ms"
for t in 1 4; do
	for s in $ALL; do
		printf '   %-14s %4s %10.2f%s%10.2f %12.1f %12.1f\n' "$s" "$t" \
			"$(get "$s" read-vs-write "$t" 2)" "$(trunc_mark "$s" read-vs-write "$t")" \
			"$(get "$s" read-vs-write "$t" 3)" "$(get "$s" read-vs-write "$t" 5)" \
			"$(get "$s" read-vs-write "$t" 6)"
	done
done
r_as=$(get anticipatory read-vs-write 1 2)
r_dl=$(get deadline-read read-vs-write 1 2)
r_noop=$(get noop read-vs-write 1 2)
awk -v a="$r_as" -v d="$r_dl" -v n="$r_noop" 'BEGIN {
	printf "   1 reader: anticipatory reads %.1fx deadline-read, %.1fx noop\n", a / d, a / n }'
echo

# 2. think-read
for s in $ALL; do
	sim "$s" think-read 2,8
done
echo "2. think-read: sync sequential readers thinking 2 ms between reads"
printf '   %-14s %4s %10s %12s %12s\n' scheduler thr "MB/s" "avg lat ms" "max lat ms"
for t in 2 8; do
	for s in $ALL; do
		printf '   %-14s %4s %10.2f %12.2f %12.1f\n' "$s" "$t" \
			"$(get "$s" think-read "$t" 4)" "$(get "$s" think-read "$t" 5)" \
			"$(get "$s" think-read "$t" 6)"
	done
done
echo

# 3. seqread sweep
THREADS="1 2 4 8 16 32 64 128 256"
SWEEP="$SCHEDS anticip-re2s"
for s in $SWEEP; do
	sim "$s" seqread "$(echo "$THREADS" | tr ' ' ,)"
done
echo "3. seqread sweep (64 MiB in all, split over the threads): MB/s | max latency ms"
printf '   %4s' thr
for s in $SWEEP; do printf ' %22s' "$s"; done
echo
for t in $THREADS; do
	printf '   %4s' "$t"
	for s in $SWEEP; do
		printf ' %9.2f | %8.1f ms' "$(get "$s" seqread "$t" 4)" "$(get "$s" seqread "$t" 6)"
	done
	echo
done
