#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="ab-plot: PNGs from elvkit-sim's and bench-kernel's JSON and from bench-sim-profiles.sh --plot; bad arguments exit 2 in one line"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
P=$TOP/scripts/lib/ab-plot.py
SIM=$TOP/build/elvkit-sim
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# shellcheck source=tests/tools/usage.sh
. "$(dirname "$0")/usage.sh"
# is_png FILE: the 8-byte PNG signature.
is_png() {
	[ "$(head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		fail "$1 is not a PNG"
}

[ -x "$SIM" ] || { echo "no $SIM (make build/elvkit-sim)"; exit 77; }
# A short sweep: 3 thread counts, 2 schedulers, a few MB; well under a second.
"$SIM" --sched noop,deadline-read --device hdd --workload seqread,randread \
	--threads 1,4,16 --size 4m --ios 200 --min-time 0 --json "$T/sim.json" >/dev/null ||
	fail "elvkit-sim exit $?"
# bench-kernel.sh's --json shape, no p99; its walls are taken as given.
cat >"$T/kernel.json" <<'EOF'
{"kernel": "9.9.9-test", "results": [
 {"device": "nullb", "workload": "randread", "threads": 1, "sched": "none", "rate_mbs": 100, "max_lat_ms": 5},
 {"device": "nullb", "workload": "randread", "threads": 4, "sched": "none", "rate_mbs": 200, "max_lat_ms": 20},
 {"device": "nullb", "workload": "randread", "threads": 1, "sched": "bfq", "rate_mbs": 60, "max_lat_ms": 10},
 {"device": "nullb", "workload": "randread", "threads": 4, "sched": "bfq", "rate_mbs": 100, "max_lat_ms": 3000}],
 "walls": [{"device": "nullb", "workload": "randread", "sched": "none", "wall_threads": null},
  {"device": "nullb", "workload": "randread", "sched": "bfq", "wall_threads": 4}]}
EOF
echo '{"x": 1}' >"$T/other.json"

# Bad arguments, checked before gnuplot is needed.
expect_usage "$P"
expect_usage "$P" "$T/sim.json"
expect_usage "$P" --bogus "$T/sim.json" "$T/out"
expect_usage "$P" "$T/missing.json" "$T/out"
expect_usage "$P" "$TOP/README.md" "$T/out"
expect_usage "$P" "$T/other.json" "$T/out"
expect_usage "$P" "$T/sim.json" "$T/sim.json"
expect_usage "$P" "$T/sim.json" "$T/sim.json" "$T/out"
expect_usage "$TOP/scripts/bench-sim-profiles.sh" --plot
expect_usage "$TOP/scripts/bench-sim-profiles.sh" --plot "$T/sim.json"
[ ! -e "$T/out" ] || fail "a bad argument left $T/out behind"

command -v gnuplot >/dev/null || { echo "gnuplot not installed (make deps)"; exit 77; }
"$P" "$T/sim.json" "$T/kernel.json" "$T/out" || fail "ab-plot exit $?"
for s in hdd-seqread hdd-randread nullb-randread; do
	for f in latency throughput; do is_png "$T/out/$s-$f.png"; done
done
# What the plots say: p99 where there is one, its absence where not, the wall.
grep -q 'max (solid) and p99 (dashed)' "$T/out/hdd-seqread.gp" || fail "sim plot lacks p99"
grep -q 'no p99' "$T/out/nullb-randread.gp" || fail "kernel plot does not say it has no p99"
grep -q 'bfq (wall 4)' "$T/out/nullb-randread.gp" || fail "kernel wall not marked"
grep -q 'none (no wall)' "$T/out/nullb-randread.gp" || fail "kernel: none's missing wall"

# bench-sim-profiles.sh --plot, one profile, a short sweep.
"$TOP/scripts/bench-sim-profiles.sh" --profiles hdd --scheds noop,anticipatory --threads 1,4 \
	--plot "$T/prof" -- --size 4m --min-time 0 >/dev/null || fail "bench-sim-profiles --plot exit $?"
for s in hdd-seqread hdd-read-vs-write; do
	for f in latency throughput; do is_png "$T/prof/$s-$f.png"; done
done
echo ok
