#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="bench-kernel: bad arguments exit 2 in one line; the report's ratios, shares, runs and wall from a fixture, --probe's table, startup and dbench too"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=$TOP/scripts/bench-kernel.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# shellcheck source=tests/tools/usage.sh
. "$(dirname "$0")/usage.sh"
expect_usage --match "unknown argument" "$B" --bogus
expect_usage --match "needs a value" "$B" --threads
expect_usage --match "--threads: invalid item '0'" "$B" --threads 1,0
expect_usage --match "--threads: invalid item 'x'" "$B" --threads 1,x
expect_usage --match "comma-separated" "$B" --threads 1,,4
expect_usage --match "over 256" "$B" --threads 1,300
expect_usage --match "repeated" "$B" --threads 4,4
expect_usage --match "--runs" "$B" --runs 0
expect_usage --match "--runtime" "$B" --runtime 1.5
expect_usage --match "--device: invalid item 'sda'" "$B" --device sda
expect_usage --match "--device: invalid item 'ekdisk-floppy'" "$B" --device nullb,ekdisk-floppy
expect_usage --match "--workloads: invalid item 'mixed'" "$B" --workloads seqread,mixed
expect_usage --match "--scheds: invalid item" "$B" --scheds 'none,../x'
expect_usage --match "--kernel: .* is not installed" "$B" --kernel 0.0-nope
expect_usage --match "--json: no directory" "$B" --json /nonexistent/dir/x.json
expect_usage --match "--report-only: no run" "$B" --report-only "$T/nothing"
expect_usage --match "--plot needs a value" "$B" --plot
expect_usage --match "--plot: .* is not a directory" "$B" --plot "$TOP/README.md"
expect_usage --match "--tune: invalid item 'async_depth'" "$B" --tune async_depth
expect_usage --match "--tune: invalid item 'x=1.5'" "$B" --tune x=1.5
expect_usage --match "--tune: invalid item '../x=1'" "$B" --tune ../x=1
expect_usage --match "--tune: a tunable is given twice" "$B" --tune a=1 --tune a=2
expect_usage --match "--nr-requests: expected" "$B" --nr-requests 0
expect_usage --match "--nr-requests: expected" "$B" --nr-requests 64k
"$B" --help | grep -q '^usage: scripts/bench-kernel.sh' || fail "--help"
# Every workload it takes, the report can name (interleaved was taken and
# its report died on it).
read -ra wls < <(sed -n 's/^ALL_WORKLOADS="\(.*\)"$/\1/p' "$B")
[ "${#wls[@]}" -gt 5 ] || fail "no ALL_WORKLOADS in $B"
for w in "${wls[@]}"; do
	grep -q "^    \"$w\": " "$TOP/scripts/bench-kernel-report.py" ||
		fail "bench-kernel-report.py has no description of workload $w"
done

# A fixture run: 2 thread counts x 2 runs x {none, anticipatory, and
# anticipatory+antic_expire=0, a variant}; the reader groups' latencies and
# the logs' shares are made up.
R=$T/run
mkdir -p "$R/raw/nullb"
cat >"$R/config.sh" <<'EOF'
KVER='9.9.9-test'
KO_DIR='/nonexistent'
DEVICES='nullb'
WORKLOADS='randread'
THREADS='1 4'
RUNS=2
SCHEDS='none anticipatory anticipatory+antic_expire=0'
RUNTIME=5
BLKTRACE='randread:4'
TUNES='async_depth=16 slice_idle=0'
NR_REQUESTS='128'
EOF
# btt's "All Devices" table for the --blktrace point: anticipatory's I/Os wait
# 4 ms in the scheduler (I2D), none has no insert (no I2D row); btt 1.2
# calls Q2C Q2Cdm.
mkdir -p "$R/raw/nullb/blktrace"
btt_fixture() {
	printf '%s\n' "==================== All Devices ====================" "" \
		"            ALL           MIN           AVG           MAX           N" \
		"--------------- ------------- ------------- ------------- -----------" "" \
		"Q2Q               0.000001000   0.000100000   0.001000000        9999" "$@" "" \
		"==================== Device Overhead ====================" "" \
		"D2C               0.000001000   0.999000000   0.001000000        9999"
}
btt_fixture "D2C               0.000050000   0.000100000   0.000300000         999" \
	"Q2C               0.000060000   0.000150000   0.000400000        1000" \
	>"$R/raw/nullb/blktrace/randread-t4-none.btt"
btt_fixture "I2D               0.000001000   0.004000000   0.010000000         998" \
	"D2C               0.000050000   0.000100000   0.000300000         999" \
	"Q2Cdm             0.000060000   0.004250000   0.010400000        1000" \
	>"$R/raw/nullb/blktrace/randread-t4-anticipatory.btt"
cp "$R/raw/nullb/blktrace/randread-t4-anticipatory.btt" "$R/raw/nullb/blktrace/randread-t4-anticipatory+antic_expire=0.btt"
# --probe's samples at 4 threads (t group wb_normal wb_background wbt_inflight
# tags_busy tags_waiters sched_busy sched_waiters dirty_kb writeback_kb
# rd_ios rd_sectors wr_ios wr_sectors): before the first group, then none's
# two runs (300 reads of 128 KiB, 10 writes of 512 KiB), with idle samples
# before and after their jobs that must not count, anticipatory's, one of
# them with sbitmap's busy torn below zero (4294967294: not counted).
cat >"$R/raw/nullb/randread-t4.probe" <<'EOF'
# t group wb_normal wb_background wbt_inflight tags_busy tags_waiters sched_busy sched_waiters dirty_kb writeback_kb rd_ios rd_sectors wr_ios wr_sectors
1.0 - 1 1 99 99 99 - - 0 0 0 0 0 0
1.1 r1-none 4 2 0 0 0 - - 0 0 100 0 0 0
1.2 r1-none 4 2 2 10 0 - - 2048 0 100 0 0 0
1.4 r1-none 4 2 4 20 2 - - 4096 1024 300 51200 10 10240
1.6 r2-none 4 2 3 30 4 - - 2048 0 300 51200 10 10240
1.8 r2-none 4 2 3 40 6 - - 2048 0 400 76800 10 10240
1.9 r2-none 4 2 0 0 0 - - 0 0 400 76800 10 10240
2.0 r1-anticipatory 6 3 1 5 0 60 3 1024 0 400 76800 10 10240
2.1 r1-anticipatory 6 3 1 4294967294 0 61 4 1024 0 405 78080 10 10240
2.2 r1-anticipatory 6 3 1 7 0 62 5 1024 0 410 79360 10 10240
EOF
printf '%s\n' "kernel 9.9.9-test" "cpus 2" "mem_kb 2000000" "fio fio-3.33" \
	"device.nullb null_blk test" "rotational.nullb 0" "nr_requests.nullb.none 32" \
	"nr_requests.nullb.anticipatory 64" "tune_refused.nullb.anticipatory async_depth=16 refused" \
	"tune_unused.nullb slice_idle" "nr_requests.nullb.anticipatory+antic_expire=0 64" \
	"ekdisk_stats.nullb reads 9 writes 1 flushes 0 fua 0 done 10 model_ns 125000000 late_ns 5000000" \
	>"$R/meta.txt"
python3 - "$R/raw/nullb" <<'EOF'
import json, sys
d = sys.argv[1]
# (threads, run, sched): (MB/s, cpu, mean ms, max ms)
pts = {(1, 1, "none"): (100, 10, 1, 5), (1, 2, "none"): (110, 12, 1, 7),
       (1, 1, "anticipatory"): (50, 20, 2, 10), (1, 2, "anticipatory"): (70, 20, 2, 10),
       (4, 1, "none"): (200, 10, 4, 20), (4, 2, "none"): (200, 10, 4, 20),
       (4, 1, "anticipatory"): (100, 40, 8, 3000), (4, 2, "anticipatory"): (100, 40, 8, 3000)}
for t, r in ((1, 1), (1, 2), (4, 1), (4, 2)):
    pts[(t, r, "anticipatory+antic_expire=0")] = (80, 20, 2, 30)
for t in (1, 4):
    jobs, lat = [], {"rc": 0}
    for r in (1, 2):
        for s in ("none", "anticipatory", "anticipatory+antic_expire=0"):
            mbs, cpu, mean, mx = pts[(t, r, s)]
            k = f"r{r}-{s}"
            jobs.append({"jobname": "setup-" + k, "groupid": len(jobs), "error": 0})
            jobs.append({"jobname": k, "groupid": len(jobs), "error": 0,
                         "usr_cpu": cpu / 2, "sys_cpu": cpu / 2,
                         "read": {"total_ios": 1000, "bw_bytes": mbs * 1e6,
                                  "lat_ns": {"mean": mean * 1e6, "max": mx * 1e6},
                                  # p99 half the max, p99.9 0.9 of it; none at 1
                                  # thread has no percentiles
                                  **({} if (t, s) == (1, "none") else
                                     {"clat_ns": {"percentile": {"99.000000": mx * 5e5,
                                                                 "99.900000": mx * 9e5}}})},
                         "write": {"total_ios": 0, "bw_bytes": 0}})
            over = 10 if mx >= 2000 else 0
            lat[k] = {"n": 1000, "over_2s": over, "over_10s": 0}
            if t == 4:      # the shares under 2 s, which runs before 2026-12-05 lack
                lat[k].update(over_100ms=50, over_500ms=20 + over)
    with open(f"{d}/randread-t{t}.json", "w") as f:
        f.write("setup : Saving output of prerun in setup.prerun.txt\n")
        json.dump({"jobs": jobs}, f)
    with open(f"{d}/randread-t{t}.lat", "w") as f:
        json.dump(lat, f)
EOF
out=$("$B" --report-only "$R" --json "$T/r.json") || fail "report exit $?: $out"
printf '%s\n' "$out"
line() { printf '%s\n' "$out" | grep -E "^ +$1 +$2 " || fail "no row $1 $2"; }
# anticipatory at 1 thread: 60 +/- 10 MB/s, 0.57x none's 105
line 1 anticipatory | grep -q '60.0±10.0 *0.57x' || fail "rate, +/- or ratio wrong"
printf '%s\n' "$out" | grep -q 'set after every switch.*: async_depth=16 slice_idle=0 nr_requests=128$' ||
	fail "--tune and --nr-requests not in the report's header"
printf '%s\n' "$out" | grep -q '^    anticipatory refused: async_depth=16 refused$' ||
	fail "a refused tunable not reported"
printf '%s\n' "$out" | grep -q '^    --tune slice_idle: no scheduler here has it; nothing was set$' ||
	fail "a tunable no scheduler has not reported"
line 4 anticipatory | grep -q ' 1.000 ' || fail ">2s share wrong"
line 4 anticipatory | grep -q ' 1500±0 \+2700±0 ' || fail "p99 or p99.9 wrong"
line 1 none | grep -qE ' - +- +0.000 ' || fail "a missing p99 and p99.9 must read -"
printf '%s\n' "$out" | grep -q 'the wall.*none -, anticipatory 4, anticipatory+antic_expire=0 -' || fail "wall wrong"
# The variant: its own row in the same boot, 80/105 of none, the column as wide as its name.
line 1 'anticipatory\+antic_expire=0' | grep -q ' 80.0±0.0  0.76x ' || fail "the variant's row wrong"
printf '%s\n' "$out" | grep -qE '^ +1 none {24} ' || fail "the scheduler column not as wide as the variant's name"
printf '%s\n' "$out" | grep -q 'ekdisk: 10 requests, model latency 12.50 ms .* 0.500 ms late' ||
	fail "ekdisk stats line wrong"
python3 - "$T/r.json" <<'EOF' || fail "JSON wrong"
import json, sys
j = json.load(open(sys.argv[1]))
r = {(x["threads"], x["sched"]): x for x in j["results"]}
a = r[(4, "anticipatory")]
assert a["rate_mbs"] == 100 and a["rate_vs_none"] == 0.5, a
assert a["max_lat_vs_none"] == 150 and a["pct_over_2s"] == 1.0 and a["nr_requests"] == 64, a
assert a["pct_over_100ms"] == 5.0 and a["pct_over_500ms"] == 3.0, a
assert r[(1, "none")]["pct_over_100ms"] is None and r[(1, "none")]["pct_over_500ms"] is None
assert r[(1, "none")]["cpu_pct_pm"] == 1.0
assert {(w["sched"], w["wall_threads"]) for w in j["walls"]} == {
    ("none", None), ("anticipatory", 4), ("anticipatory+antic_expire=0", None)}
assert r[(1, "anticipatory+antic_expire=0")]["rate_vs_none"] == 80 / 105
b = {x["sched"]: x for x in j["blktrace"]}
assert b["none"]["i2d_ms"] is None and abs(b["none"]["q2d_ms"] - 0.05) < 1e-9, b
assert abs(b["anticipatory"]["i2d_ms"] - 4) < 1e-9 and abs(b["anticipatory"]["q2d_ms"] - 4.15) < 1e-9, b
assert b["anticipatory"]["d2c_ms"] == 0.1 and b["anticipatory"]["ios"] == 1000, b
EOF
# --probe: means and maxima over the scheduler's runs; KiB per request
# from the stat counters' growth within each group.
line 4 none | grep -qE ' 4 none +4 +4\.0 +3\.0 \(4\) +25\.0 \(40\) +3\.0 \(6\) +- +- +2\.5 +0\.2 +128 +512$' ||
	fail "--probe: none's row wrong"
line 4 anticipatory | grep -qE ' 3 +6\.0 +1\.0 \(1\) +6\.0 \(7\) +0\.0 \(0\) +61\.0 \(62\) +4\.0 \(5\) +1\.0 +0\.0 +128 +-$' ||
	fail "--probe: anticipatory's row wrong"
python3 - "$T/r.json" <<'EOF' || fail "--probe: JSON wrong"
import json, sys
p = {(x["threads"], x["sched"]): x for x in json.load(open(sys.argv[1]))["probe"]}
assert p[(4, "none")]["samples"] == 4 and p[(4, "none")]["write_rq_kb"] == 512, p
assert p[(4, "anticipatory")]["sched_busy_mean"] == 61 and p[(4, "anticipatory")]["write_rq_kb"] is None, p
assert (1, "none") not in p, p
EOF
printf '%s\n' "$out" | grep -qE '^anticipatory +4\.000 +4\.150 +0\.100 +4\.250 +1000$' ||
	fail "--blktrace: btt row of anticipatory wrong"
printf '%s\n' "$out" | grep -qE '^none +- +0\.050 ' || fail "--blktrace: none without I2D must read -"
"$B" --blktrace randread 2>/dev/null
[ $? = 2 ] || fail "--blktrace without :THREADS must exit 2"
"$B" --threads 1,4 --blktrace randread:16 2>/dev/null
[ $? = 2 ] || fail "--blktrace point off the sweep must exit 2"
# --plot with --report-only: the PNGs of the report's JSON (scripts/lib/ab-plot.py).
if command -v gnuplot >/dev/null; then
	"$B" --report-only "$R" --plot "$T/png" >/dev/null || fail "--plot exit $?"
	for f in latency throughput; do
		[ "$(head -c 4 "$T/png/nullb-randread-$f.png" | od -An -tx1 | tr -d ' ')" = 89504e47 ] ||
			fail "--plot: no PNG nullb-randread-$f.png"
	done
fi

# read-vs-write: the writer's MB per second of its CPU (10% of 20 s for
# 300 MB: 150), elvkit-sim's --copy-mbs; none where it used no CPU.
python3 - "$TOP/scripts/bench-kernel-report.py" <<'EOF' || fail "write_cpu_mbs, wb_bw_start_kbps or late_hist wrong"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("report", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
def fio(usr, sys_):
    rd = {"total_ios": 10, "bw_bytes": 5e6, "lat_ns": {"mean": 1e6, "max": 2e6}}
    return {"jobs": [{"jobname": "setup-r1-none", "error": 0},
                     {"jobname": "r1-none", "error": 0, "usr_cpu": 1, "sys_cpu": 1, "read": rd},
                     {"jobname": "wr1-none", "error": 0, "usr_cpu": usr, "sys_cpu": sys_,
                      "job_runtime": 20000, "write": {"bw_bytes": 15e6, "io_bytes": 300e6}}]}
lats = {"r1-none": {"n": 10, "over_2s": 0, "over_10s": 0}}
r = m.run_metrics(fio(1, 9), lats, "read-vs-write", "r1-none")
assert abs(r["write_cpu_mbs"] - 150) < 1e-9 and r["write_mbs"] == 15, r
assert m.run_metrics(fio(0, 0), lats, "read-vs-write", "r1-none")["write_cpu_mbs"] is None
# the writeback estimate the group started with (the guest's wb_bw_kbps), or none
assert r["wb_bw_start_kbps"] is None, r
lats["r1-none"]["wb_bw_kbps"] = 11264
assert m.run_metrics(fio(1, 9), lats, "read-vs-write", "r1-none")["wb_bw_start_kbps"] == 11264
# ekdisk's lateness over the group, counts per bucket: kept per run, not averaged
lats["r1-none"]["late_hist"] = [0] * 6 + [7, 2] + [0] * 8
r = m.run_metrics(fio(1, 9), lats, "read-vs-write", "r1-none")
assert r["late_hist"][6:8] == [7, 2], r
a = m.aggregate([r, dict(r)])
assert "late_hist" not in a and a["write_mbs"] == 15, a
EOF

# A second fixture: the startup and dbench workloads, 2 thread counts x 2 runs
# x {none, deadline-read}; fake fio JSON and fake dbench output.
R2=$T/run2
mkdir -p "$R2/raw/nullb"
sed -e "/^BLKTRACE=/d" -e "s/^WORKLOADS=.*/WORKLOADS='startup dbench'/" -e "s/^SCHEDS=.*/SCHEDS='none deadline-read'/" \
	"$R/config.sh" >"$R2/config.sh"
printf '%s\n' "kernel 9.9.9-test" "cpus 2" "mem_kb 2000000" "fio fio-3.33" "startup 200 1 1024" \
	"dbench dbench version 4.00" "device.nullb null_blk test" "rotational.nullb 0" \
	"dbench_fs.nullb ext4 384 MiB, memory-backed null_blk" >"$R2/meta.txt"
python3 - "$R2/raw/nullb" <<'EOF2'
import json, sys
d = sys.argv[1]
# startup (threads, run, sched): (start-up ms, idle ms, start-up max ms, streamers MB/s)
su = {(1, 1, "none"): (400, 200, 5, 300), (1, 2, "none"): (600, 200, 7, 300),
      (1, 1, "deadline-read"): (300, 200, 4, 200), (1, 2, "deadline-read"): (300, 200, 4, 200),
      (4, 1, "none"): (5000, 200, 100, 400), (4, 2, "none"): (5000, 200, 100, 400),
      (4, 1, "deadline-read"): (800, 200, 8, 350), (4, 2, "deadline-read"): (800, 200, 8, 350)}
def rd(ios, mbs, mean, mx):
    return {"total_ios": ios, "bw_bytes": mbs * 1e6,
            "lat_ns": {"mean": mean * 1e6, "max": mx * 1e6}}
for t in (1, 4):
    jobs, lat = [], {"rc": 0}
    for r in (1, 2):
        for s in ("none", "deadline-read"):
            ms, idle, mx, mbs = su[(t, r, s)]
            k = f"r{r}-{s}"
            jobs.append({"jobname": "setup-" + k, "error": 0})
            jobs.append({"jobname": "i" + k, "error": 0, "job_runtime": idle,
                         "read": rd(200, 1, 1, 2), "write": {"total_ios": 0, "bw_bytes": 0}})
            jobs.append({"jobname": "s" + k, "error": 0, "job_runtime": ms,
                         "read": rd(200, 1, ms / 200, mx), "write": {"total_ios": 0, "bw_bytes": 0}})
            jobs.append({"jobname": k, "error": 0, "usr_cpu": 5, "sys_cpu": 5,
                         "read": rd(1000, mbs, 2, 30), "write": {"total_ios": 0, "bw_bytes": 0}})
            lat[k] = {"n": 1000, "over_2s": 0, "over_10s": 0, "selected": 1}
    with open(f"{d}/startup-t{t}.json", "w") as f:
        json.dump({"jobs": jobs}, f)
    with open(f"{d}/startup-t{t}.lat", "w") as f:
        json.dump(lat, f)
# dbench (clients, run, sched): (MB/s, max ms); None: the run failed
db = {(1, 1, "none"): (20, 100), (1, 2, "none"): (30, 120),
      (1, 1, "deadline-read"): (30, 50), (1, 2, "deadline-read"): (30, 50),
      (4, 1, "none"): (60, 200), (4, 2, "none"): (60, 200),
      (4, 1, "deadline-read"): (90, 100), (4, 2, "deadline-read"): None}
for (t, r, s), v in db.items():
    with open(f"{d}/dbench-t{t}-r{r}-{s}.txt", "w") as f:
        f.write("dbench version 4.00 - Copyright Andrew Tridgell 1999-2004\n\n")
        if v is None:
            f.write("[1234] write failed on handle 10 (No space left on device)\n"
                    "elvkit-bench: exit 1 selected 1\n")
            continue
        f.write(f"   {t}      1234    {v[0] * 0.9:.2f} MB/sec  execute 4 sec  latency 12.3 ms\n"
                f" Operation      Count    AvgLat    MaxLat\n ----------------------------------------\n"
                f" NTCreateX        100     0.500    {v[1]:.3f}\n\n"
                f"Throughput {v[0]:.4f} MB/sec  {t} clients  {t} procs  max_latency={v[1]:.3f} ms\n"
                f"elvkit-bench: exit 0 selected 1\n")
EOF2
out=$("$B" --report-only "$R2" --json "$T/r2.json") || fail "report 2 exit $?: $out"
printf '%s\n' "$out"
# startup: 0.5 +/- 0.1 s, 2.50x its idle 0.2 s; deadline-read 0.3 s, 1.50x idle, 0.60x none
line 1 none | grep -qE ' 0\.500±0\.100 +2\.50x +0\.200±0\.000 +1\.00x ' || fail "startup s / xidle wrong"
line 1 deadline-read | grep -qE ' 0\.300±0\.000 +1\.50x +0\.200±0\.000 +0\.60x ' || fail "startup xnone wrong"
printf '%s\n' "$out" | grep -q 'start-up outlived the streamers (5 s) in: t4 none (2/2 runs)' ||
	fail "outlived note wrong"
printf '%s\n' "$out" | grep -q "the wall (the start-up job's max latency .*none 4, deadline-read -" ||
	fail "startup wall wrong"
# dbench: none 25 +/- 5 MB/s at 1 client; deadline-read 1.20x; at 4 only run 1 (run 2 failed)
line 1 none | grep -qE ' 25\.0±5\.0 +1\.00x +110\.0±10\.0 ' || fail "dbench MB/s wrong"
line 1 deadline-read | grep -qE ' 30\.0±0\.0 +1\.20x +50\.0±0\.0 +0\.45x ' || fail "dbench ratio wrong"
line 4 deadline-read | grep -qE ' 90\.0 +1\.50x ' || fail "dbench with a failed run wrong"
printf '%s\n' "$out" | grep -q 'nullb/dbench/t4/run2/deadline-read: dbench exit 1: .*No space left' ||
	fail "dbench failure not listed"
printf '%s\n' "$out" | grep -q 'ext4 384 MiB, memory-backed null_blk; dbench version 4.00' ||
	fail "dbench file-system line missing"
python3 - "$T/r2.json" <<'EOF2' || fail "JSON 2 wrong"
import json, sys
j = json.load(open(sys.argv[1]))
r = {(x["workload"], x["threads"], x["sched"]): x for x in j["results"]}
a = r[("startup", 1, "deadline-read")]
assert a["startup_s"] == 0.3 and a["startup_idle_s"] == 0.2 and abs(a["startup_vs_idle"] - 1.5) < 1e-9, a
assert abs(a["startup_vs_none"] - 0.6) < 1e-9 and a["startup_max_lat_ms"] == 4 and a["rate_mbs"] == 200, a
assert r[("startup", 4, "none")]["startup_outlived_load"] == 2
d = r[("dbench", 1, "deadline-read")]
assert d["dbench_mbs"] == 30 and abs(d["dbench_mbs_vs_none"] - 1.2) < 1e-9 and d["dbench_max_lat_ms"] == 50, d
assert r[("dbench", 4, "deadline-read")]["runs"] == 1
assert j["plot_fields"]["dbench"]["rate"] == "dbench_mbs"
assert j["plot_fields"]["startup"]["max"] == "startup_max_lat_ms"
w = {(x["workload"], x["sched"]): x["wall_threads"] for x in j["walls"]}
assert w[("startup", "none")] == 4 and w[("dbench", "none")] is None, w
EOF2
if command -v gnuplot >/dev/null; then
	"$B" --report-only "$R2" --plot "$T/png2" >/dev/null || fail "--plot 2 exit $?"
	for f in startup-latency startup-throughput startup-startup dbench-latency dbench-throughput; do
		[ "$(head -c 4 "$T/png2/nullb-$f.png" | od -An -tx1 | tr -d ' ')" = 89504e47 ] ||
			fail "--plot: no PNG nullb-$f.png"
	done
	grep -q '^1 50 ? 30 ?' "$T/png2/nullb-dbench.gp" || fail "dbench plot data: not dbench_mbs/max"
	grep -q '^4 8 ? 350 0.8' "$T/png2/nullb-startup.gp" || fail "startup plot data wrong"
fi
echo ok
