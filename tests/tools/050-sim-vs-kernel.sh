#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="bench-sim-vs-kernel: both hosts' JSON side by side, noop meets none, ratios over the limit flagged unless the runs' half ranges cover them or a quantile lies either side of a knee both hosts agree on (~), a writer's MB/s, the block layer with --probe, wbt's windows with --trace-wake; bad arguments exit 2"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
make --no-print-directory -s build/elvkit-sim || fail "build"
build/elvkit-sim --sched noop,deadline-read --device hdd --workload randread \
	--threads 1,4 --ios 200 --json "$T/sim.json" >/dev/null || fail "elvkit-sim"
# A kernel run made from it: deadline-read's MB/s x1.1 (within 25%), its
# max latency x2 (flagged), its p99.9 x1.5 (flagged) where the simulator's
# is over 0, none = noop exactly, and kyber (no simulator twin).
python3 - "$T/sim.json" "$T/kernel.json" <<'PY' || fail "fixture"
import json, sys
rows = json.load(open(sys.argv[1]))
out = []
for r in rows:
    k = {"device": "ekdisk-hdd", "workload": r["workload"], "threads": r["threads"],
         "sched": "none" if r["sched"] == "noop" else r["sched"],
         "rate_mbs": r["rate_mbs"], "max_lat_ms": r["max_lat_ms"], "p99_lat_ms": None,
         "p999_lat_ms": r["p999_lat_ms"]}
    if k["sched"] == "deadline-read":
        k["rate_mbs"] *= 1.1
        k["max_lat_ms"] *= 2
        k["p999_lat_ms"] *= 1.5
    out.append(k)
out.append(dict(out[0], sched="kyber"))
json.dump({"kernel": "6.12-test", "results": out, "walls": []}, open(sys.argv[2], "w"))
PY
B=scripts/bench-sim-vs-kernel.sh
out=$("$B" --report-only "$T") || fail "report exit $?: $out"
printf '%s\n' "$out"
row() { printf '%s\n' "$out" | grep -E "^$1 +$2 " || fail "no row $1 $2"; }
row none 4 | grep -qE '1\.00x .* 1\.00x ' || fail "none vs noop not 1.00x"
row deadline-read 1 | grep -qE ' 1\.10x  .* 2\.00x!' || fail "1.1x not plain or 2x not flagged"
row deadline-read 1 | grep -qE ' - +- +[0-9.]+ +[0-9.]+ +1\.50x!' ||
	fail "a missing p99 must read -, a p99.9 x1.5 flagged"
printf '%s\n' "$out" | grep -q '^kyber' && fail "kyber has no simulator twin"
printf '%s\n' "$out" | grep -q '^4 points compared; 4 ratios off by more than 25% (!)$' ||
	fail "summary line wrong"
"$B" --report-only "$T" --limit 150 | grep -q '0 ratios off' || fail "--limit ignored"
# Half ranges over --runs: shown, and a difference within them is not
# flagged (deadline-read's 2x max latency at 4 threads, with a kernel
# half range that covers it); a writer's MB/s gets its own columns; the
# share of reads over 100 ms is compared (a quarter at deadline-read's 4
# threads: flagged; none's the same) where the kernel has it.
mkdir "$T/pm" || fail "mkdir"
python3 - "$T" <<'PY' || fail "spread fixture"
import json, sys
d = sys.argv[1]
k = json.load(open(f"{d}/kernel.json"))
for r in k["results"]:
    if r["sched"] == "deadline-read" and r["threads"] == 4:
        r["max_lat_ms_pm"] = r["max_lat_ms"] * 0.6
        r["pct_over_100ms"] = 1.0
    if r["sched"] == "none" and r["threads"] == 4:
        r["pct_over_100ms"] = 4.0
json.dump(k, open(f"{d}/pm/kernel.json", "w"))
s = json.load(open(f"{d}/sim.json"))
for r in s:
    r["app_write_mbs"], r["write_mbs"] = 2.0, 0.5
    r["pct_over_100ms"] = 4.0
json.dump(s, open(f"{d}/pm/sim.json", "w"))
# A simulator from before app_write_mbs: its write_mbs.
mkdir = __import__("os").mkdir
mkdir(f"{d}/old")
json.dump(k, open(f"{d}/old/kernel.json", "w"))
for r in s:
    del r["app_write_mbs"]
json.dump(s, open(f"{d}/old/sim.json", "w"))
PY
pm=$("$B" --report-only "$T/pm") || fail "spread report exit $?"
printf '%s\n' "$pm" | grep -E '^deadline-read +4 ' | grep -qE '±[0-9.]+ +2\.00x ' ||
	fail "a 2x within the half range: not shown or still flagged: $(printf '%s\n' "$pm" | grep '^deadline-read')"
printf '%s\n' "$pm" | grep -E '^deadline-read +4 ' | grep -qE ' 4 +1 +0\.25x!' ||
	fail "a share over 100 ms of a quarter not flagged: $(printf '%s\n' "$pm" | grep -E '^deadline-read +4 ')"
printf '%s\n' "$pm" | grep -E '^none +4 ' | grep -qE ' 4 +4 +1\.00x ' || fail "none's share over 100 ms wrong"
printf '%s\n' "$pm" | grep -q '^4 points compared; 4 ratios off' || fail "spread summary wrong"
printf '%s\n' "$pm" | grep -q 'wr MB/s sim' || fail "no writer columns"
# The writer as the application sees it (app_write_mbs), as fio's is.
printf '%s\n' "$pm" | grep -E '^none +1 ' | grep -qE ' 2 +- +- *$' ||
	fail "the simulator's writer is not its app_write_mbs: $(printf '%s\n' "$pm" | grep -E '^none +1')"
old=$("$B" --report-only "$T/old") || fail "report of an old sim.json exit $?"
printf '%s\n' "$old" | grep -E '^none +1 ' | grep -qE ' 0\.5 +- +- *$' ||
	fail "without app_write_mbs, not write_mbs: $(printf '%s\n' "$old" | grep -E '^none +1')"
# A p99 either side of a knee: a slow mode of about 1% of the reads, over
# which the hosts' shares agree (0.95 / 1.1 % over 100 ms at 1 thread:
# marked ~, not counted) or not (0.5 / 1.5 % at 4: flagged).
mkdir "$T/knee" || fail "mkdir"
python3 - "$T" <<'PY' || fail "knee fixture"
import json, sys
d = sys.argv[1]
k, s = json.load(open(f"{d}/kernel.json")), json.load(open(f"{d}/sim.json"))
for rows, host in ((s, 0), (k["results"], 1)):
    for r in rows:
        one = r["threads"] == 1
        r["max_lat_ms"], r["p999_lat_ms"] = 1500, 1400
        r["p99_lat_ms"] = (1000 if host else 30) if r["sched"] == "deadline-read" else 30
        r["rate_mbs"] = 10
        r["pct_over_100ms"] = r["pct_over_500ms"] = ((1.1 if one else 1.5) if host else
                                                     (0.95 if one else 0.5))
json.dump(k, open(f"{d}/knee/kernel.json", "w"))
json.dump(s, open(f"{d}/knee/sim.json", "w"))
PY
kn=$("$B" --report-only "$T/knee") || fail "knee report exit $?"
printf '%s\n' "$kn" | grep -E '^deadline-read +1 ' | grep -qE ' 30 +1000 +33\.33x~' ||
	fail "a p99 either side of an agreed knee not marked ~: $(printf '%s\n' "$kn" | grep -E '^deadline-read +1 ')"
printf '%s\n' "$kn" | grep -qx '    randread deadline-read 1: p99 30 / 1000 ms either side of 100 ms, over which the hosts have 0.95 / 1.1 % of reads' ||
	fail "no knee note: $kn"
printf '%s\n' "$kn" | grep -E '^deadline-read +4 ' | grep -qE ' 30 +1000 +33\.33x!' ||
	fail "a p99 whose shares over the knee differ 3x must stay flagged"
printf '%s\n' "$kn" | grep -qx '4 points compared; 3 ratios off by more than 25% (!), 1 more either side of a knee (~)' ||
	fail "knee summary: $(printf '%s\n' "$kn" | tail -n 1)"
# --calibrate's table (calibration.txt) heads the report.
echo "calibrated from the kernel's traces (test)" >"$T/pm/calibration.txt"
cal=$("$B" --report-only "$T/pm") || fail "report with calibration.txt exit $?"
[ "${cal%%$'\n'*}" = "calibrated from the kernel's traces (test)" ] ||
	fail "calibration.txt not at the head of the report"
printf '%s\n' "$out" | grep -q 'wr MB/s' && fail "writer columns without a writer"
printf '%s\n' "$out" | grep -q 'measured spans' && fail "a spans line without the kernel's runtime"
# The hosts' spans: the kernel's RUNTIME against the simulator's elapsed_s.
span() {
	python3 - "$T" "$1" "$2" <<'PY' || fail "span fixture"
import json, sys
d, krt, sel = sys.argv[1], sys.argv[2], float(sys.argv[3])
k = json.load(open(f"{d}/kernel.json")); k["config"] = {"RUNTIME": krt}
json.dump(k, open(f"{d}/kernel.json", "w"))
s = json.load(open(f"{d}/sim.json"))
for r in s:
    r["elapsed_s"] = sel
json.dump(s, open(f"{d}/sim.json", "w"))
PY
	"$B" --report-only "$T" | grep 'measured spans'
}
span 20 20 | grep -qx 'measured spans: simulator 20-20 s (simulated, 20 s and the drain), kernel 20 s per point and its drain' ||
	fail "equal spans: $(span 20 20)"
# --runtime's drain: the requests queued when it is over, as fio's
span 20 21.3 | grep -qx 'measured spans: simulator 21.3-21.3 s (simulated, 20 s and the drain), kernel 20 s per point and its drain' ||
	fail "a drain of 1.3 s flagged: $(span 20 21.3)"
span 20 600 | grep -qx '! measured spans: simulator 600-600 s (simulated, 20 s and the drain), kernel 20 s per point and its drain: the rates cover different spans' ||
	fail "600 s against 20 s not flagged: $(span 20 600)"
span 20 15 | grep -q '^! measured spans: simulator 15-15 s' ||
	fail "15 s against 20 s not flagged: $(span 20 15)"
# --probe: the block layer on both hosts, none against noop's, a
# scheduler's held requests from its own tags.
python3 - "$T" <<'PY' || fail "probe fixture"
import json, sys
d = sys.argv[1]
k = json.load(open(f"{d}/kernel.json"))
k["probe"] = [{"workload": "randread", "threads": 4, "sched": "none", "wbt_inflight_mean": 1.5,
               "tags_busy_mean": 30.0, "tags_waiters_mean": 2.0, "write_rq_kb": None},
              {"workload": "randread", "threads": 4, "sched": "deadline-read",
               "wbt_inflight_mean": 0.0, "tags_busy_mean": 20.0, "sched_busy_mean": 50.0,
               "sched_waiters_mean": 3.0, "write_rq_kb": None, "dirty_writeback_kb_mean": 6500.0}]
json.dump(k, open(f"{d}/kernel.json", "w"))
s = json.load(open(f"{d}/sim.json"))
for r in s:
    r.update(avg_wbt_inflight=0.5, avg_tags_used=40, avg_tag_sleepers=1, avg_dev_inflight=10,
             write_rq_kb=0, avg_dirty_kb=0 if r["sched"] == "noop" else 7000)
json.dump(s, open(f"{d}/sim.json", "w"))
PY
out=$("$B" --report-only "$T") || fail "probe report exit $?"
printf '%s\n' "$out" | grep -qE '^randread +none +4 +0\.5 / 1\.5 +40 / 30 +1 / 2 +10 / 30 +- / - +- / -$' ||
	fail "--probe: none's block-layer row wrong: $(printf '%s\n' "$out" | grep '^randread')"
printf '%s\n' "$out" | grep -qE '^randread +deadline-read +4 +0\.5 / 0 +40 / 50 +1 / 3 +10 / 20 +- / - +7000 / 6500$' ||
	fail "--probe: deadline-read's block-layer row wrong"
printf '%s\n' "$out" | grep -qE '^randread +deadline-read +1 ' && fail "--probe: a point the kernel did not sample"
# --trace-wake's wbt windows (waketrace.py's rows) against the simulator's
# wbt_*_pct (with a half range over the seeds on one), for none's point only.
python3 - "$T" <<'PY' || fail "wbt fixture"
import json, sys
d = sys.argv[1]
k = json.load(open(f"{d}/kernel.json"))
k["wake"] = [{"workload": "randread", "threads": 4, "sched": "none", "metric": "wbt_" + m,
              "dir": None, "unit": "%", "value": v}
             for m, v in (("exceeded_issue", 10), ("exceeded_min", 20), ("ok", 30),
                          ("unknown_writes", 40), ("unknown", 0))]
json.dump(k, open(f"{d}/kernel.json", "w"))
s = json.load(open(f"{d}/sim.json"))
for r in s:
    r.update(wbt_exceeded_issue_pct=50, wbt_exceeded_min_pct=5, wbt_ok_pct=5, wbt_ok_pct_pm=1.5,
             wbt_unknown_writes_pct=40, wbt_unknown_pct=0)
json.dump(s, open(f"{d}/sim.json", "w"))
PY
out=$("$B" --report-only "$T") || fail "wbt report exit $?"
printf '%s\n' "$out" | grep -q "^== wbt's windows" || fail "no wbt windows table"
printf '%s\n' "$out" | sed -n "/^== wbt's windows/,\$p" | grep -qE '^randread +none +4 +50 / 10 +5 / 20 +5±1\.5 / 30 +40 / 40 +0 / 0$' ||
	fail "wbt windows: none's row wrong: $(printf '%s\n' "$out" | sed -n "/^== wbt's windows/,\$p")"
printf '%s\n' "$out" | sed -n "/^== wbt's windows/,\$p" | grep -qE '^randread +deadline-read ' &&
	fail "wbt windows: a point the kernel did not trace"
for bad in "--resim /nonexistent" "--runtime 0" "--runs 0" "--runs x" "--threads 1,,2" "--workloads seqwrite" "--profile nosuch" "--report-only /nonexistent" "--bogus" "--tune async_depth" "--tune a=1,a=2" "--nr-requests 0"; do
	# shellcheck disable=SC2086 # word splitting of the bad arguments is wanted
	msg=$("$B" $bad 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = 2 ] || fail "'$bad' exited $rc, want 2"
	[ "$(printf '%s\n' "$msg" | wc -l)" = 1 ] || fail "'$bad': not one line: $msg"
done
# Checked before anything runs: no output directory, no bench-kernel.sh
# (whose own checks printed three lines), no boot (a kernel that is not
# installed stands beside each, so that nothing could boot in any case).
for bad in "--limit abc" "--limit -5" "--threads 1,1" "--threads 999" "--kernel 9.9.9-nope" "--kernel ../x"; do
	# shellcheck disable=SC2086 # word splitting of the bad arguments is wanted
	msg=$("$B" --kernel 9.9.9-nope $bad --out "$T/never" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = 2 ] || fail "'$bad' exited $rc, want 2: $msg"
	[ "$(printf '%s\n' "$msg" | wc -l)" = 1 ] || fail "'$bad': not one line: $msg"
	case $msg in "bench-sim-vs-kernel: ${bad%% *}: "*) ;; *) fail "'$bad': '$msg'" ;; esac
	[ ! -e "$T/never" ] || fail "'$bad': output directory made"
done
"$B" --report-only "$T" --limit 2x >/dev/null 2>&1
[ $? = 2 ] || fail "--report-only with --limit 2x must exit 2"
python3 scripts/lib/sim-vs-kernel.py "$T/kernel.json" "$T/sim.json" 2>/dev/null
[ $? = 2 ] || fail "files swapped must exit 2"
echo ok
