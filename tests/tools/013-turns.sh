#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="turns.py: I2D, D2C, think and the device's turns between processes, the same from a made-up kernel trace (6.12 and 6.1 lines) and from the simulator's blkparse text of the same requests; --pair's ratios; several runs pooled"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
P=$TOP/scripts/lib/turns.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Process 100 reads sectors 1000 and 1256, process 101 sector 9000:
#   1000: I 1.000000, D 1.000500, C 1.004500 (I2D 0.5 ms, D2C 4 ms)
#   9000: I 1.001000, D 1.005000, C 1.015000 (I2D 4, D2C 10)
#   1256: I 1.005500 (100's think 1 ms), D 1.015500, C 1.016500 (I2D 10, D2C 1)
#   1512: I 1.017000 (think 0.5), D 1.017500, C 1.019500 (I2D 0.5, D2C 2)
# 101 reads 9256 after its completion: think 2 ms, never dispatched.
# Turns: 100 (1), 101 (1), 100 (2, 3 ms from one completion to the next,
# open at the trace's end: not counted): 10.5 and 1.5 ms between.
ev() { printf '%16s-%-7s [000] d..2.  %s: %s\n' "$1" "$2" "$3" "$4"; }
{
	echo "# tracer: nop"
	ev fio 100 1.000000 "block_getrq: 253,0 RS 1000 + 256 [fio]"
	ev fio 100 1.000500 "block_rq_issue: 253,0 RS 131072 () 1000 + 256 be,0,4 [fio]"
	ev fio 101 1.001000 "block_getrq: 253,0 RS 9000 + 256 [fio]"
	ev "<idle>" 0 1.004500 "block_rq_complete: 253,0 RS () 1000 + 256 be,0,4 [0]"
	ev kworker/0:1H 77 1.005000 "block_rq_issue: 253,0 RS 131072 () 9000 + 256 [kworker/0:1H]"
	ev fio 100 1.005500 "block_getrq: 253,0 RS 1256 + 256 [fio]"
	ev "<idle>" 0 1.015000 "block_rq_complete: 253,0 RS () 9000 + 256 [0]"
	ev fio 100 1.015500 "block_rq_issue: 253,0 RS 131072 () 1256 + 256 be,0,4 [fio]"
	ev "<idle>" 0 1.016500 "block_rq_complete: 253,0 RS () 1256 + 256 be,0,4 [0]"
	ev fio 101 1.017000 "block_getrq: 253,0 RS 9256 + 256 [fio]"
	ev fio 100 1.017000 "block_getrq: 253,0 RS 1512 + 256 [fio]"
	ev fio 100 1.017500 "block_rq_issue: 253,0 RS 131072 () 1512 + 256 be,0,4 [fio]"
	ev "<idle>" 0 1.019500 "block_rq_complete: 253,0 RS () 1512 + 256 be,0,4 [0]"
} >"$T/k.trace"
gzip -k "$T/k.trace"
bp() { printf '%3d,%-3d %2d %8d %5d.%09d %5d  %s %3s %d + 256 [t%d]\n' 0 0 0 "$1" 1 "$2" "$3" "$4" RS "$5" "$3"; }
run() {
	bp 1 0 100 I 1000; bp 2 0 100 D 1000; bp 3 500000 101 I 9000
	bp 4 4000000 100 C 1000; bp 5 4500000 101 D 9000; bp 6 5000000 100 I 1256
	bp 7 14500000 101 C 9000; bp 8 15000000 100 D 1256; bp 9 16000000 100 C 1256
	bp 10 16500000 101 I 9256; bp 11 17000000 100 I 1512; bp 12 17600000 100 D 1512
	bp 13 19000000 100 C 1512
}
{
	echo "# elvkit-sim fair-queue on hdd: seqread, 2 threads, seed 1"
	run
	echo "# elvkit-sim fair-queue on hdd: seqread, 2 threads, seed 2"
	run
} >"$T/s.trace"
# one host's table: name, n, mean, p90
want_k="I2D ms                     4     3.75       10
D2C ms                     4     4.25       10
think ms                   3     1.17        2
reads per turn             2        1        1
C2C in turn ms             1        3        3
between turns ms           2        6     10.5"
for f in "$T/k.trace" "$T/k.trace.gz"; do
	got=$("$P" "$f" | tail -n +2)
	[ "$got" = "$want_k" ] || fail "$(basename "$f"): got
$got"
done
# the simulator's, its times a little apart: I2D 0, 4, 10 and 0.6 ms, D2C
# 4, 10, 1 and 1.4, think 1, 2 and 1; two runs, twice the counts
want_s="I2D ms                     8     3.65       10
D2C ms                     8      4.1       10
think ms                   6     1.33        2
reads per turn             4        1        1
C2C in turn ms             2        3        3
between turns ms           4        6     10.5"
got=$("$P" "$T/s.trace" | tail -n +2)
[ "$got" = "$want_s" ] || fail "simulator trace: got
$got"
got=$("$P" --pair "$T/s.trace" "$T/k.trace.gz" "seqread, 2 threads, fair-queue")
printf '%s\n' "$got" | grep -qx -- '-- seqread, 2 threads, fair-queue: simulator / kernel, mean (p90)' || fail "--pair title: $got"
printf '%s\n' "$got" | grep -qE '^  I2D ms +3\.65 \(10\) / 3\.75 \(10\) +1\.03x$' || fail "--pair I2D: $got"
printf '%s\n' "$got" | grep -qE '^  think ms +1\.33 \(2\) / 1\.17 \(2\) +0\.88x$' || fail "--pair think: $got"
# a kernel trace from before block_rq_issue was traced: no I2D, no D2C
grep -v block_rq_issue "$T/k.trace" >"$T/old.trace"
got=$("$P" --pair "$T/s.trace" "$T/old.trace" old)
printf '%s\n' "$got" | grep -qE '^  D2C ms +4\.1 \(10\) / - +-$' || fail "--pair without rq_issue: $got"
printf '%s\n' "$got" | grep -qE '^  between turns ms +6 \(10\.5\) / 6 \(10\.5\) +1\.00x$' || fail "--pair turns without rq_issue: $got"
# --window: the simulator's events from 1.005 s on (each run's): 1000's
# I and D and 9000's I came before, so only 1256 and 1512 count, 100's
# think from 1.016, and its one turn, still open at the end
got=$("$P" --window 1.005 2 "$T/s.trace" | tail -n +2)
want_w="I2D ms                     4      5.3       10
D2C ms                     4      1.2      1.4
think ms                   2        1        1
reads per turn             0        -        -
C2C in turn ms             2        3        3
between turns ms           0        -        -"
[ "$got" = "$want_w" ] || fail "--window: got
$got"
"$P" --window 2 1 "$T/s.trace" >/dev/null 2>&1 && fail "--window 2 1 exits 0"
"$P" --pair "$T/s.trace" >/dev/null 2>&1 && fail "--pair with one trace exits 0"
[ $? -eq 2 ] || fail "bad usage: not exit 2"
echo ok
