#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="late-hist.py: ekdisk's late_hist from meta.txt, and per point from bench-kernel's JSON, as elvkit-sim --late-us points, which elvkit-sim accepts; none for a device or point without one"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
L=$TOP/scripts/lib/late-hist.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1000 completions: 10 under 1 us, 500 in [2, 4) us, ..., 1 in [2048, 4096)
# us; an open bucket's bound is twice its start.
{
	echo "dirty_bytes.ekdisk-hdd 8388608 2097152"
	echo "ekdisk_late_hist.ekdisk-hdd 1 10 2 0 4 500 8 300 16 100 32 50 64 30 128 5 256 3 512 1 1024 0 2048 0 4096 1 8192 0 16384 0 inf 0 "
	echo "ekdisk_late_hist.ekdisk-ssd 1 0 2 0 4 0 8 0 16 0 32 0 64 0 128 0 256 0 512 0 1024 0 2048 0 4096 0 8192 0 16384 0 inf 2 "
	echo "ekdisk_late_hist.ekdisk-bad 1 5 2"
} >"$T/meta.txt"
p=$(python3 "$L" "$T/meta.txt" ekdisk-hdd) || fail "exit $? on ekdisk-hdd"
[ "$p" = "0:0,1:1,51:4,81:8,91:16,96:32,99:64,99.5:128,99.8:256,99.9:512,100:4096" ] ||
	fail "ekdisk-hdd points: $p"
p=$(python3 "$L" "$T/meta.txt" ekdisk-ssd) || fail "exit $? on ekdisk-ssd"
[ "$p" = "0:0,100:32768" ] || fail "ekdisk-ssd points (open bucket): $p"
python3 "$L" "$T/meta.txt" ekdisk-nullb >/dev/null && fail "points for a device without late_hist"
out=$(python3 "$L" "$T/meta.txt" ekdisk-bad 2>&1) && fail "a malformed late_hist accepted: $out"
[ -n "$out" ] || fail "a malformed late_hist: no reason given"
# Per point and scheduler from bench-kernel.sh's JSON (late_hist summed
# over the runs); a result without one prints nothing.
cat >"$T/k.json" <<'JSON'
{"results": [
 {"workload": "seqread", "threads": 1, "sched": "none", "late_hist": [10, 0, 500, 300, 100, 50, 30, 5, 3, 1, 0, 0, 1, 0, 0, 0]},
 {"workload": "seqread", "threads": 4, "sched": "none", "late_hist": null},
 {"workload": "seqread", "threads": 1, "sched": "fair-queue"}
]}
JSON
p=$(python3 "$L" --json "$T/k.json") || fail "--json exit $?"
[ "$p" = "seqread 1 none 0:0,1:1,51:4,81:8,91:16,96:32,99:64,99.5:128,99.8:256,99.9:512,100:4096" ] ||
	fail "--json: $p"
echo '{"results": [{"workload": "w", "threads": 1, "sched": "s", "late_hist": [1, 2]}]}' >"$T/bad.json"
out=$(python3 "$L" --json "$T/bad.json" 2>&1) && fail "--json: 2 buckets accepted: $out"
# What elvkit-sim takes as --late-us.
[ -x "$TOP/build/elvkit-sim" ] || make -s -C "$TOP" build/elvkit-sim >/dev/null || fail "cannot build elvkit-sim"
"$TOP/build/elvkit-sim" --sched noop --workload seqread --threads 1 --size 16m --time-limit 2 \
	--late-us "$(python3 "$L" "$T/meta.txt" ekdisk-hdd)" >/dev/null || fail "elvkit-sim refused the points"
echo ok
