#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim: by default every run lasts at least 10x the longest ms tunable of the schedulers compared (--tune counted); --min-time 0 runs just the work"
set -eu
sim=${ELVKIT_SIM:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() {	# JSON, smallest elapsed_s, largest elapsed_s
	python3 - "$@" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
lo, hi = float(sys.argv[2]), float(sys.argv[3])
for r in rows:
    assert lo <= r["elapsed_s"] <= hi, (r["sched"], r["workload"], r["elapsed_s"], lo, hi)
    assert not r["truncated"], r
print("ok:", [(r["sched"], r["workload"], round(r["elapsed_s"], 2)) for r in rows])
PY
}
# deadline-read's write_expire is 5000 ms: 50 s for everyone compared with it
"$sim" --sched deadline-read,noop --workload seqread,randread --threads 1,4 --size 1m --ios 50 \
	--json "$tmp/a.json" >/dev/null
check "$tmp/a.json" 50 52
# anticipatory alone: read_batch_expire 500 ms, here raised to 800 by --tune
"$sim" --sched anticipatory --workload seqread --threads 2 --size 1m --tune read_batch_expire=800 \
	--json "$tmp/b.json" >/dev/null
check "$tmp/b.json" 8 9
# no tunables in ms (noop) or --min-time 0: just the work
"$sim" --sched noop --workload seqread --threads 1 --size 1m --json "$tmp/c.json" >/dev/null
check "$tmp/c.json" 0 1
"$sim" --sched deadline-read --workload seqread --threads 1 --size 1m --min-time 0 \
	--json "$tmp/d.json" >/dev/null
check "$tmp/d.json" 0 1
# never past the time limit, and not "cut" for it
"$sim" --sched deadline-read --workload seqread --threads 1 --size 1m --time-limit 20 \
	--json "$tmp/e.json" >/dev/null
check "$tmp/e.json" 19.9 20.1
