#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim --late-us: 0 is the default, completions seen late cost one sequential reader its pace, a 1% tail of late completions puts its p99 on a lost revolution"
set -eu
# shellcheck source=tests/sim/json_runs.sh
. "$(dirname "$0")/json_runs.sh"
# One sequential reader of 128 KiB on hdd, 100 us between a completion and
# its next read, over a span no cache holds.
run() {
	sim_json "$1" --sched noop --workload seqread --threads 1 --block 128k --readahead 0 --size 900g \
		--think 100 --min-time 5 --time-limit 5 "${@:2}"
}
run default
run zero --late-us 0
run const --late-us 500
run tail --late-us 0:5,98.9:20,99:2000,100:4000
cmp -s "$tmp/default.json" "$tmp/zero.json" || { echo "FAIL: --late-us 0 differs from the default"; exit 1; }
python3 - "$tmp" <<'PY'
import json, sys
r = {k: json.load(open(f"{sys.argv[1]}/{k}.json"))[0] for k in ("default", "const", "tail")}
for k, v in r.items():
    print(f"{k}: {v['rate_mbs']:.1f} MB/s, p99 {v['p99_lat_ms']:.2f} ms, p99.9 {v['p999_lat_ms']:.2f} ms")
d, c, t = r["default"], r["const"], r["tail"]
# on time, the reader keeps up with the media and hits the read-ahead
assert d["p99_lat_ms"] < 1.5, d
# 500 us late every time: it reads slower than the platter turns out
assert c["rate_mbs"] < 0.9 * d["rate_mbs"], (c, d)
# 1% of completions 2-4 ms late: the stream stops, and as many reads wait
# for the platter to come round (more than a millisecond)
assert t["p99_lat_ms"] > 1.5 and t["rate_mbs"] > 0.8 * d["rate_mbs"], (t, d)
PY
