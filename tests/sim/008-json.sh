#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim --json: an array with one object per run and every documented field"
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
        "iops", "avg_lat_ms", "max_lat_ms", "pct_over_2s", "pct_over_10s"]
for r in rows:
    for k in need:
        assert k in r, (k, r)
    assert r["device"] == "hdd"
    assert r["rate_mbs"] > 0, r
rvw = [r for r in rows if r["workload"] == "read-vs-write"]
assert all(r["write_mbs"] > 0 for r in rvw), rvw
print("ok:", len(rows), "objects")
PY
