#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim --wb-bw-init: 102400 KiB/s is the default (INIT_BW), a lower start leaves less dirty data, one value per run (seed) with the last repeated"
set -eu
# shellcheck source=tests/sim/json_runs.sh
. "$(dirname "$0")/json_runs.sh"
# read-vs-write on hdd: 4 readers and a buffered writer under a 16 MiB limit
run() {
	sim_json "$1" --sched noop --workload read-vs-write --threads 4 --block 128k --bg-block 128k \
		--readahead 0 --min-time 5 --time-limit 5 --dirty-kb 16384 "${@:2}"
}
run default
run init --wb-bw-init 102400
run low --wb-bw-init 11264
run low2 --wb-bw-init 11264 --seed 2
run def2 --seed 2
run mixed --wb-bw-init 11264,102400 --runs 2
run last --wb-bw-init 11264 --runs 2
cmp -s "$tmp/default.json" "$tmp/init.json" || { echo "FAIL: --wb-bw-init 102400 differs from the default"; exit 1; }
python3 - "$tmp" <<'PY'
import json, sys
d = {k: json.load(open(f"{sys.argv[1]}/{k}.json"))[0]["avg_dirty_kb"]
     for k in ("default", "low", "low2", "def2", "mixed", "last")}
print("avg dirty KiB:", {k: round(v) for k, v in d.items()})
# The throttle starts at 11 MiB/s instead of 100: writers are held to it
# until the estimate has risen to the device's, so less is dirty.
assert d["low"] < 0.9 * d["default"], d
# run 1 (seed 1) starts low, run 2 (seed 2) at the default; one value repeats
assert abs(d["mixed"] - (d["low"] + d["def2"]) / 2) < 1e-6 * d["mixed"], d
assert abs(d["last"] - (d["low"] + d["low2"]) / 2) < 1e-6 * d["last"], d
PY
