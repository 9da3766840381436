#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim --trace: every request inserted, dispatched and completed once, in order, in blkparse's text format, a header per run, results unchanged"
set -eu
# shellcheck source=tests/sim/json_runs.sh
. "$(dirname "$0")/json_runs.sh"
args=(--sched fair-queue --workload "seqread,randread" --threads 4 --block 64k --size 8m --ios 200 --min-time 1 --time-limit 1 --runs 2)
sim_json plain "${args[@]}"
sim_json traced "${args[@]}" --trace "$tmp/trace.txt"
cmp -s "$tmp/plain.json" "$tmp/traced.json" || { echo "FAIL: --trace changed the results"; exit 1; }
python3 - "$tmp" <<'PY'
import json, re, sys
d = sys.argv[1]
rows = json.load(open(f"{d}/traced.json"))
line = re.compile(r"^ +0,0 +0 +(\d+) +(\d+)\.(\d{9}) +(\d+) +([IDC]) +(F?[RW]S?) (\d+) \+ (\d+) \[t(\d+)\]$")
runs = []
for l in open(f"{d}/trace.txt"):
    if l.startswith("#"):
        runs.append((l, []))
        continue
    m = line.match(l)
    assert m, f"not blkparse's format: {l!r}"
    runs[-1][1].append(m.groups())
# workloads outermost, then seeds: 2 workloads x 2 runs
heads = [h for h, _ in runs]
assert len(runs) == 4, heads
for h, (wl, seed) in zip(heads, [("seqread", 1), ("seqread", 2), ("randread", 1), ("randread", 2)]):
    assert f"fair-queue on hdd: {wl}, 4 threads, seed {seed}" in h, h
for h, evs in runs:
    seqs = [int(e[0]) for e in evs]
    assert seqs == list(range(1, len(evs) + 1)), f"{h}: sequence numbers not 1..n"
    times = [int(e[1]) * 10**9 + int(e[2]) for e in evs]
    assert times == sorted(times), f"{h}: time goes back"
    state = {}
    for e in evs:
        pid, act, sector, n, name = int(e[3]), e[4], e[6], e[7], int(e[8])
        assert pid == name and 1 <= pid <= 4, e
        # a request grows by back merges while queued: keyed by its start
        key = (pid, sector)
        before, size = state.get(key, (None, 0))
        want = {"I": None, "D": "I", "C": "D"}[act]
        assert before == want, f"{h}: {act} of {key} after {before}"
        assert int(n) >= size if act == "D" else act == "I" or int(n) == size, f"{h}: {act} of {key}: {n} sectors after {size}"
        state[key] = (None if act == "C" else act, int(n))
    left = {k: v for k, v in state.items() if v[0]}
    assert not left, f"{h}: not completed: {list(left)[:3]}"
    print(f"{h.strip()}: {len(evs)} events")
# as many dispatches as the policy counted (the JSON has the 2 runs' mean)
total = {wl: sum(sum(1 for e in evs if e[4] == "D") for h, evs in runs if wl in h) for wl in ("seqread", "randread")}
for r in rows:
    c = r["counters"]
    want = c["dispatched_reads"] + c["dispatched_writes"] + c["dispatched_other"]
    assert abs(total[r["workload"]] / 2 - want) < 1e-9, (r["workload"], total, want)
print("ok")
PY
