#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim --start-us: 0 is the default byte for byte; threads then start in a per-seed order, which here moves what wbt allows (all at once, every seed runs the same); the same seed twice is the same run"
set -eu
# shellcheck source=tests/sim/json_runs.sh
. "$(dirname "$0")/json_runs.sh"
# read-vs-write on hdd under deadline-read: nothing in it draws from the
# seed but --start-us, so without it every seed runs the same
run() {
	sim_json "$1" --sched deadline-read --workload read-vs-write --threads 4 --block 128k \
		--bg-block 128k --readahead 0 --min-time 10 --time-limit 10 --dirty-kb 8192 "${@:2}"
}
run default
run zero --start-us 0
cmp -s "$tmp/default.json" "$tmp/zero.json" || { echo "FAIL: --start-us 0 differs from the default"; exit 1; }
for seed in 1 2 3 4; do
	run "at-once-$seed" --seed "$seed"
	run "spread-$seed" --seed "$seed" --start-us 2000
done
run spread-1b --seed 1 --start-us 2000
cmp -s "$tmp/spread-1.json" "$tmp/spread-1b.json" || { echo "FAIL: the same seed ran differently"; exit 1; }
python3 - "$tmp" <<'PY'
import json, sys
w = lambda k: json.load(open(f"{sys.argv[1]}/{k}.json"))[0]["avg_wbt_inflight"]
once = {w(f"at-once-{s}") for s in range(1, 5)}
spread = {round(w(f"spread-{s}"), 6) for s in range(1, 5)}
print("wbt writes in flight, all at once:", sorted(once), "spread:", sorted(spread))
assert len(once) == 1, once
assert len(spread) >= 3, spread
PY
