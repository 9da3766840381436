#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim --runtime: as fio's --time_based, no new request after it, what is queued drains into the run's time, the jobs exit together (fair-queue idles after each drained read); a buffered writer stops at it, its rate over its own run"
set -eu
# shellcheck source=tests/sim/json_runs.sh
. "$(dirname "$0")/json_runs.sh"
# 8 sequential readers on hdd, far apart: a slot each in turn
args=(--sched fair-queue --workload seqread --threads 8 --block 128k --readahead 0 --size 900g)
sim_json cut "${args[@]}" --min-time 2 --time-limit 2
sim_json drain "${args[@]}" --runtime 2 --time-limit 30 --trace "$tmp/trace.txt"
# 32 readers beside a buffered writer: the writer stops at --runtime too
rvw=(--sched fair-queue --workload read-vs-write --threads 32 --block 128k --bg-block 128k
	--readahead 0 --size 450g --dirty-kb 8192)
sim_json rvw-cut "${rvw[@]}" --min-time 5 --time-limit 5
sim_json rvw-drain "${rvw[@]}" --runtime 5 --time-limit 30
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
cut, drain = (json.load(open(f"{d}/{k}.json"))[0] for k in ("cut", "drain"))
ev = [l.split() for l in open(f"{d}/trace.txt") if not l.startswith("#")]
last_i = max(float(e[3]) for e in ev if e[5] == "I")
cs = [float(e[3]) for e in ev if e[5] == "C"]
late_c = sum(1 for t in cs if t > 2.0)
print(f"cut: {cut['elapsed_s']} s, {cut['counters']['idle_timeouts']} idle timeouts, truncated {cut.get('truncated')}")
print(f"drain: {drain['elapsed_s']:.3f} s, {drain['counters']['idle_timeouts']} idle timeouts, "
      f"last insert {last_i:.6f} s, {late_c} completions after 2 s, the last {max(cs):.6f} s")
assert cut.get("truncated") and not drain.get("truncated"), "--runtime ends by itself, a --time-limit cut does not"
assert last_i <= 2.0, f"a request inserted after --runtime: {last_i}"
# each reader not in service had a read queued at 2 s: it completes after
assert late_c >= 7, late_c
assert abs(drain["elapsed_s"] - max(cs)) < 1e-6 and 2.0 < drain["elapsed_s"] < 3.0, drain["elapsed_s"]
# fair-queue waited for the next read of each (alive until the last is done)
more = drain["counters"]["idle_timeouts"] - cut["counters"]["idle_timeouts"]
assert more >= 7, f"{more} more idle timeouts in the drain"
# the rates take in the drain: the same reads over a longer time
assert drain["rate_mbs"] < cut["rate_mbs"], (drain["rate_mbs"], cut["rate_mbs"])
# the writer as fio's time-based job: no writes in the readers' drain, its
# rate over its own run (before: 3.14 MB/s against 3.07, written into the
# room the drain left, over the drain's time)
wc, wd = (json.load(open(f"{d}/rvw-{k}.json"))[0] for k in ("cut", "drain"))
print(f"writer: {wc['app_write_mbs']} MB/s cut at 5 s, {wd['app_write_mbs']} MB/s with --runtime 5 "
      f"(readers' drain to {wd['elapsed_s']:.3f} s)")
assert wd["elapsed_s"] > 5.1, wd["elapsed_s"]
assert abs(wd["app_write_mbs"] - wc["app_write_mbs"]) <= 0.002 * wc["app_write_mbs"], \
    (wd["app_write_mbs"], wc["app_write_mbs"])
print("ok")
PY
