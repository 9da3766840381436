#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim --json: an array with one object per run and every documented field, p99_lat_ms, p999_lat_ms, the shares over 100 ms to 10 s (each within the last), jain, thread_bytes (one entry per thread) and the scheduler's counters among them"
set -eu
sim=${ELVKIT_SIM:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$sim" --sched deadline-read,noop --workload seqread,read-vs-write --threads 1,4 --size 8m \
	--time-limit 20 --json "$tmp/r.json" >/dev/null
python3 - "$tmp/r.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
assert isinstance(rows, list) and len(rows) == 8, len(rows)
need = ["sched", "device", "workload", "threads", "rate_mbs", "read_mbs", "write_mbs",
        "iops", "avg_lat_ms", "max_lat_ms", "pct_over_100ms", "pct_over_500ms",
        "pct_over_2s", "pct_over_10s",
        "p99_lat_ms", "p999_lat_ms", "jain", "thread_bytes", "dev_iops", "counters"]
for r in rows:
    for k in need:
        assert k in r, (k, r)
    assert r["device"] == "hdd"
    assert r["rate_mbs"] > 0, r
    tb = r["thread_bytes"]
    assert isinstance(tb, list) and len(tb) == r["threads"] and all(b > 0 for b in tb), r
    assert 0 < r["jain"] <= 1.000001, r
    assert r["avg_lat_ms"] <= r["max_lat_ms"], r
    over = [r[f"pct_over_{t}"] for t in ("100ms", "500ms", "2s", "10s")]
    assert over == sorted(over, reverse=True) and over[0] <= 100, over
    assert (over[0] > 0) == (r["max_lat_ms"] > 100), (over, r["max_lat_ms"])
    assert r["p99_lat_ms"] <= r["p999_lat_ms"] + 1e-9 and r["p999_lat_ms"] <= r["max_lat_ms"] + 1e-9, r
    c = r["counters"]
    if r["sched"] == "deadline-read":
        # its sysfs statistics, at the end of the run: every dispatch counted
        assert c["dispatched_reads"] > 0 and "expired_batches" in c, c
    else:
        assert c == {}, c
rvw = [r for r in rows if r["workload"] == "read-vs-write"]
assert all(r["write_mbs"] > 0 for r in rvw), rvw
print("ok:", len(rows), "objects")
PY
