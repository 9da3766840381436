#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="bench-kernel --trace-wake: waketrace.py's delays, sleeps and shares from a made-up tracefs trace (6.12 and 6.1 lines), the readers' starts from the run's start, the report's section, the simulator's options for bench-sim-vs-kernel --calibrate"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=$TOP/scripts/bench-kernel.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# shellcheck source=tests/tools/usage.sh
. "$(dirname "$0")/usage.sh"
expect_usage --match "--trace-wake: invalid item 'randread'" "$B" --trace-wake randread
expect_usage --match "--trace-wake: randread:16: 16 is not in --threads" "$B" --threads 1,4 --trace-wake randread:16
expect_usage --match "--trace-wake: dbench:4: dbench is not traced" "$B" --workloads dbench --threads 4 --trace-wake dbench:4
expect_usage --match "--trace-wake: seqread:4: seqread is not in --workloads" "$B" --workloads randread --threads 4 --trace-wake seqread:4

# Reader 100 reads twice: 50 us from its first read's end to its wakeup,
# 100 us to running, its next bio 300 us and request 400 us after the end. Its second
# read ends at 1.020000; its bio at 1.020300 finds no tag; it is woken at
# 1.021000 (100 us after the writer's request ends) and 1.030000 (500 us
# after reader 101's, a 6.1 line) and gets one 200 us later: 10200 us
# from the end, 3 wakeups, 9.9 ms asleep. The writer 200's request ends at
# 1.020900, wbt wakes it 300 us later, running after 50 us, its next
# request 500 us after the end without sleeping; its next bio merges
# into that request, so its wakeup at 1.025000 is no waiter's. Reads: 4
# requests, 1 of them slept (25%); writes: 2, none slept. Reader 100,
# waiting, runs 200 us after the writer's request ended and 600 us after
# reader 101's (done -> waiter runs).
mkdir -p "$T/run/raw/nullb/wake"
tr=$T/run/raw/nullb/wake/randread-t4-none.trace
ev() { printf '%16s-%-7s [000] d..2.  %s: %s\n' "$1" "$2" "$3" "$4"; }
sw() { ev "$1" "$2" "$3" "sched_switch: prev_comm=x prev_pid=$2 prev_prio=120 prev_state=S ==> next_comm=fio next_pid=$4 next_prio=120"; }
wk() { ev "<idle>" 0 "$1" "sched_wakeup: comm=fio pid=$2 prio=120 target_cpu=000"; }
{
	echo "# tracer: nop"
	ev fio 100 1.000000 "block_getrq: 253,0 RS 1000 + 256 [fio]"
	ev fio 101 1.002000 "block_getrq: 253,0 RS 9000 + 256 [fio]"
	ev "<idle>" 0 1.010000 "block_rq_complete: 253,0 RS () 1000 + 256 be,0,4 [0]"
	wk 1.010050 100
	sw swapper/0 0 1.010150 100
	ev fio 100 1.010300 "block_bio_queue: 253,0 RS 1256 + 256 [fio]"
	ev fio 100 1.010400 "block_getrq: 253,0 RS 1256 + 256 [fio]"
	ev kworker/u8:12 200 1.015000 "block_getrq: 253,0 W 5000 + 8 [kworker/u8:12]"
	ev "<idle>" 0 1.020000 "block_rq_complete: 253,0 RS () 1256 + 256 be,0,4 [0]"
	wk 1.020100 100
	sw swapper/0 0 1.020200 100
	ev fio 100 1.020300 "block_bio_queue: 253,0 RS 1512 + 256 [fio]"
	ev "<idle>" 0 1.020900 "block_rq_complete: 253,0 W () 5000 + 1024 be,0,4 [0]"
	wk 1.021000 100
	sw swapper/0 0 1.021100 100
	wk 1.021200 200
	sw swapper/0 0 1.021250 200
	ev kworker/u8:12 200 1.021300 "block_bio_queue: 253,0 W 6024 + 8 [kworker/u8:12]"
	ev kworker/u8:12 200 1.021400 "block_getrq: 253,0 W 6024 + 8 [kworker/u8:12]"
	ev kworker/u8:12 200 1.021500 "block_bio_queue: 253,0 W 6032 + 8 [kworker/u8:12]"
	ev kworker/u8:12 200 1.021510 "block_bio_backmerge: 253,0 W 6032 + 8 [kworker/u8:12]"
	wk 1.025000 200
	ev "<idle>" 0 1.029500 "block_rq_complete: 253,0 RS () 9000 + 256 [0]"
	wk 1.029600 101
	wk 1.030000 100
	sw swapper/0 0 1.030100 100
	ev fio 100 1.030200 "block_getrq: 253,0 RS 1512 + 256 [fio]"
	# wbt's windows: a read out too long (no wbt_stat), the fastest read
	# slow (wbt_stat with it), reads fast, few samples with writes: 25% each
	ev "<idle>" 0 1.031000 "wbt_lat: 253:0: latency 120000us"
	ev "<idle>" 0 1.031000 "wbt_timer: 253:0: status=4, step=1, inflight=2"
	ev "<idle>" 0 1.101000 "wbt_lat: 253:0: latency 80000us"
	ev "<idle>" 0 1.101000 "wbt_stat: 253:0: rmean=90000000, rmin=80000000, rmax=95000000, rsamples=2, wmean=1000, wmin=1000, wmax=1000, wsamples=3"
	ev "<idle>" 0 1.101000 "wbt_timer: 253:0: status=4, step=2, inflight=1"
	ev "<idle>" 0 1.161000 "wbt_stat: 253:0: rmean=9000000, rmin=8000000, rmax=9500000, rsamples=2, wmean=1000, wmin=1000, wmax=1000, wsamples=3"
	ev "<idle>" 0 1.161000 "wbt_timer: 253:0: status=1, step=1, inflight=1"
	ev "<idle>" 0 1.231000 "wbt_timer: 253:0: status=3, step=0, inflight=1"
} >"$tr"
gzip "$tr"
# The run's start (.start.trace.gz, the bios of its first seconds): readers
# 100, 101 and 102 begin 0, 700 and 1500 us after the first; the writer's
# bio and reader 100's second are no start, nor is blkid's read before
# them all (not fio's: it would stand in for the missing fourth reader).
{
	ev blkid 300 0.499000 "block_bio_queue: 253,0 RS 0 + 8 [blkid]"
	ev fio 100 0.500000 "block_bio_queue: 253,0 RS 1000 + 256 [fio]"
	ev kworker/u8:12 200 0.500100 "block_bio_queue: 253,0 W 5000 + 8 [kworker/u8:12]"
	ev fio 101 0.500700 "block_bio_queue: 253,0 RS 9000 + 256 [fio]"
	ev fio 100 0.501000 "block_bio_queue: 253,0 RS 1256 + 256 [fio]"
	ev fio 102 0.501500 "block_bio_queue: 253,0 RS 19000 + 256 [fio]"
} | gzip >"${tr%.trace}.start.trace.gz"
printf '%s\n' "/sys/kernel/debug/block/nullb0/hctx0/tags:depth=32" \
	"/sys/kernel/debug/block/nullb0/hctx0/tags:busy=32" \
	"/sys/kernel/debug/block/nullb0/hctx0/tags:wake_batch=4" \
	"/sys/kernel/debug/block/nullb0/hctx0/tags:ws_active=33" \
	"/sys/kernel/debug/block/nullb0/hctx0/tags:depth=0" >"${tr%.trace}.tags"

out=$(python3 "$TOP/scripts/lib/waketrace.py" "$tr.gz") || fail "waketrace.py exit $?: $out"
printf '%s\n' "$out"
row() { # DIR LABEL N P10 MEDIAN P90 MEAN
	printf '%s\n' "$out" | grep -qE "^  $1 +$2 +$3 +$4 +$5 +$6 +$7\$" || fail "row '$1 $2' is not: $3 $4 $5 $6 $7"
}
row read 'done -> woken \(us\)' 2 50 75 100 75
row read 'woken -> running \(us\)' 2 100 100 100 100
row read 'done -> bio \(us\)' 2 300 300 300 300
row read 'done -> next \(us\)' 2 400 5300 10200 5300
row read 'wakes per next' 2 1 2 3 2
row read 'slept \(ms\)' 1 9.9 9.9 9.9 9.9
row read 'last wake -> rq \(us\)' 1 200 200 200 200
row write 'done -> woken \(us\)' 1 300 300 300 300
row write 'woken -> running \(us\)' 1 50 50 50 50
row write 'done -> next \(us\)' 1 500 500 500 500
row write 'wakes per next' 1 1 1 1 1
row any 'done -> waiter woken \(us\)' 2 100 300 500 300
row any 'done -> waiter runs \(us\)' 2 200 400 600 400
row any 'woken per done' 2 1 1 1 1
row read 'reader start \(us\)' 3 '0\.0' 700 1500 733
printf '%s\n' "$out" | grep -qE '^  read +slept \(%\) +25\.0$' || fail "read slept share not 25%"
printf '%s\n' "$out" | grep -qE '^  write +slept \(%\) +0\.0$' || fail "write slept share not 0%"
for o in 'read out too long' 'fastest read slow' 'reads fast' 'unknown, writes'; do
	printf '%s\n' "$out" | grep -qE "^  any +wbt: $o \(%\) +25\.0\$" || fail "wbt: $o not 25%"
done
printf '%s\n' "$out" | grep -qE '^  any +wbt: idle \(%\) +0\.0$' || fail "wbt: idle not 0%"
printf '%s\n' "$out" | grep -qx '  tags: depth 32, busy 32, wake_batch 4, ws_active 33' || fail "tags line wrong"

# The report: bench-kernel --report-only over a run with a --trace-wake point.
R=$T/run
printf '%s\n' "KVER='9.9.9-test'" "KO_DIR='/nonexistent'" "DEVICES='nullb'" "WORKLOADS='randread'" \
	"THREADS='4'" "RUNS=1" "SCHEDS='none anticipatory'" "RUNTIME=5" "WAKETRACE='randread:4'" >"$R/config.sh"
printf '%s\n' "kernel 9.9.9-test" "device.nullb null_blk test" >"$R/meta.txt"
out=$("$B" --report-only "$R" --json "$T/r.json") || fail "report exit $?: $out"
printf '%s\n' "$out" | grep -q '^== nullb / randread / 4 threads: waking for a request' || fail "no wake section"
printf '%s\n' "$out" | grep -qE '^  read +done -> next \(us\) +2 +400 ' || fail "no wake rows in the report"
printf '%s\n' "$out" | grep -q 'nullb/randread/t4/anticipatory: no wake trace' || fail "a missing trace not listed"
python3 - "$T/r.json" <<'EOF' || fail "JSON wrong"
import json, sys
w = {(x["sched"], x["metric"], x["dir"]): x for x in json.load(open(sys.argv[1]))["wake"]}
assert w[("none", "done_to_next", "read")]["p50"] == 5300, w
assert w[("none", "slept_share", "read")]["value"] == 25.0, w
assert w[("none", "woken_per_done", None)]["n"] == 2, w
assert w[("none", "done_to_bio", "read")]["points"] == [[p, 300] for p in (0, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 100)], w
assert "points" not in w[("none", "wakes_per_next", "read")], w
assert not any(k[0] == "anticipatory" for k in w), w
assert w[("none", "wbt_exceeded_min", None)]["value"] == 25.0 and w[("none", "wbt_unknown", None)]["value"] == 0, w
assert w[("none", "reader_start", "read")]["points"][-1] == [100, 1500], w
assert w[("none", "wake_batch", None)]["value"] == 4, w
EOF
# bench-sim-vs-kernel.sh --calibrate's options from the report's JSON:
# --think the points of the readers' done -> bio (all 300 us),
# --tag-wake-us those of done -> waiter runs (200 and 600: the nearest
# rank, 200 up to the median); the writer slept before none of its
# requests: no --write-end-us or --wbt-wake-us; no writer, no --copy-mbs;
# --start-us the last reader's start, 1500 us; --tag-wake-batch the
# driver's tags' wake_batch (none's pool), 4.
opts=$(python3 "$TOP/scripts/lib/waketrace.py" --sim-options "$T/r.json" 2>"$T/err") || fail "--sim-options exit $?"
# The start trace holds 3 readers of the point's 4: the trace ended before
# the last began, which it says (the start is a lower bound).
grep -qx "waketrace: randread 4 none: the start trace holds 3 of the 4 readers' starts: --start-us 1500 is a lower bound (START_TRACE)" "$T/err" ||
	fail "no word of the missing reader: '$(cat "$T/err")'"
python3 - "$T/r.json" "$T/r4.json" <<'EOF' || fail "cannot make a trace of all 4 readers"
import json, sys
j = json.load(open(sys.argv[1]))
for r in j["wake"]:
    if r["metric"] == "reader_start":
        r["n"] = 4
json.dump(j, open(sys.argv[2], "w"))
EOF
opts4=$(python3 "$TOP/scripts/lib/waketrace.py" --sim-options "$T/r4.json" 2>"$T/err") || fail "--sim-options exit $?"
{ [ "$opts4" = "$opts" ] && [ ! -s "$T/err" ]; } || fail "all readers started: '$opts4', '$(cat "$T/err")'"
[ "$opts" = "randread 4 none 0:300,1:300,5:300,10:300,25:300,50:300,75:300,90:300,95:300,99:300,99.9:300,100:300 0:200,1:200,5:200,10:200,25:200,50:200,75:600,90:600,95:600,99:600,99.9:600,100:600 - - - 1500 4" ] ||
	fail "--sim-options: '$opts'"
# A writer that slept before 90% of its requests: --write-end-us its
# median done -> woken while waiting, --wbt-wake-us its median woken ->
# running plus last wake -> rq; at 40% neither.
python3 - "$TOP/scripts/lib" <<'EOF' || fail "sim_options with a writer"
import sys
sys.path.insert(0, sys.argv[1])
import waketrace
def rows(slept):
    r = [("done_to_bio", "read", {"mean": 900, "p50": 600}),
         ("done_to_waiter_wake", None, {"mean": 700, "p50": 300}),
         ("last_wake_to_rq", "read", {"mean": 200, "p50": 100}),
         ("done_to_wake_waiting", "write", {"mean": 9000, "p50": 290}),
         ("wake_to_run", "write", {"mean": 250, "p50": 30}),
         ("last_wake_to_rq", "write", {"mean": 230, "p50": 50}),
         ("slept_share", "write", {"value": slept})]
    return [{"workload": "read-vs-write", "threads": 64, "sched": "none", "metric": m,
             "dir": d, **v} for m, d, v in r]
o = waketrace.sim_options(rows(90.0))[("read-vs-write", 64, "none")]
assert o == {"think": 900, "tag-wake-us": 900, "write-end-us": 290, "wbt-wake-us": 80}, o
o = waketrace.sim_options(rows(40.0))[("read-vs-write", 64, "none")]
assert o == {"think": 900, "tag-wake-us": 900}, o
# A JSON without points (from before them) gave the means above; with
# them, the points, whole us, at most 1 s.
r = rows(40.0)
r[0]["points"] = [[0, 10.4], [50, 600.6], [100, 2e6]]
r.append({**r[1], "metric": "done_to_waiter_run", "points": [[0, 5], [100, 900]]})
o = waketrace.sim_options(r)[("read-vs-write", 64, "none")]
assert o == {"think": "0:10,50:601,100:1000000", "tag-wake-us": "0:5,100:900"}, o
# --copy-mbs: the point's write_cpu_mbs from the results, where it has one.
res = [{"workload": "read-vs-write", "threads": 64, "sched": "none", "write_cpu_mbs": 123.4},
       {"workload": "read-vs-write", "threads": 16, "sched": "none", "write_cpu_mbs": None}]
r16 = [{**x, "threads": 16} for x in rows(40.0)]
o = waketrace.sim_options(rows(40.0) + r16, res)
assert o[("read-vs-write", 64, "none")]["copy-mbs"] == 123.4, o
assert "copy-mbs" not in o[("read-vs-write", 16, "none")], o
# --tag-wake-batch: the pool's wake batch where the .tags file had it, the
# driver's tags for none, the scheduler's for an elevator (7.2's
# mq-deadline: 8).
tg = {"tags": {"wake_batch": "4"}, "sched_tags": {"wake_batch": "8"}}
assert waketrace.pool_rows(tg, "none") == [{"metric": "wake_batch", "dir": None, "unit": "",
                                            "value": 4}], waketrace.pool_rows(tg, "none")
assert waketrace.pool_rows(tg, "mq-deadline")[0]["value"] == 8
assert waketrace.pool_rows({"tags": {"wake_batch": "4"}}, "mq-deadline") == []
r = rows(40.0) + [{"workload": "read-vs-write", "threads": 64, "sched": "none",
                   **waketrace.pool_rows(tg, "none")[0]}]
assert waketrace.sim_options(r)[("read-vs-write", 64, "none")]["tag-wake-batch"] == 4
EOF
echo ok
