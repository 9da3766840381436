#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim --region-align: each thread's region is --size / threads rounded down to it, one after another from sector 0, a writer after --size (as the guest's fio jobs); 512 is the default byte for byte; --list gives every device's capacity in sectors (tools/014: hdd's, and the guest's split)"
set -eu
# shellcheck source=tests/sim/json_runs.sh
. "$(dirname "$0")/json_runs.sh"
# 3 sequential readers of 10 MiB: 3413.33 KiB each, or 3 MiB each in MiB
args=(--sched noop --workload seqread --threads 3 --block 4k --readahead 0 --size 10m --runtime 1)
sim_json default "${args[@]}" --trace "$tmp/default.trace"
sim_json sector "${args[@]}" --region-align 512 --trace "$tmp/sector.trace"
sim_json mib "${args[@]}" --region-align 1m --trace "$tmp/mib.trace"
rvw=(--sched noop --workload read-vs-write --threads 3 --block 128k --bg-block 128k --readahead 0 --size 10m --runtime 1)
sim_json rvw-sector "${rvw[@]}" --trace "$tmp/rvw-sector.trace"
sim_json rvw-mib "${rvw[@]}" --region-align 1m --trace "$tmp/rvw-mib.trace"
cmp -s "$tmp/default.json" "$tmp/sector.json" || { echo "FAIL: --region-align 512 differs from the default"; exit 1; }
cmp -s "$tmp/default.trace" "$tmp/sector.trace" || { echo "FAIL: --region-align 512 traced differently"; exit 1; }
python3 - "$tmp" <<'PY'
import sys
def firsts(name):
    first = {}
    for l in open(f"{sys.argv[1]}/{name}.trace"):
        f = l.split()
        if not l.startswith("#") and f[5] == "I":
            first.setdefault(int(f[4]), int(f[7]))
    return [first[p] for p in sorted(first)]
sector, mib = firsts("sector"), firsts("mib")
print("first sectors, default:", sector, "--region-align 1m:", mib)
assert sector == [0, 6826, 13652], sector      # 10 MiB / 3 in sectors
assert mib == [0, 6144, 12288], mib            # 3 MiB each
# read-vs-write: the writer (thread 4) after --size, at 10 MiB, either way
for name in ("rvw-sector", "rvw-mib"):
    f = firsts(name)
    assert f[3] == 20480, (name, f)
print("ok")
PY
# every device says what capacity it has (bench-sim-vs-kernel.sh splits it)
"$sim" --list | awk '/^devices/ { d = 1; next } /^workloads:/ { d = 0 }
	d && /^  [^ ]/ { n++ } d && $1 == "=" && $2 == "capacity" && $3 > 0 { c++ }
	END { print n " devices, " c " capacities"; exit !(n > 0 && n == c) }'
