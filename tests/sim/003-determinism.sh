#!/bin/bash
# shellcheck disable=SC2054 # commas separate values inside one argument
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim: same inputs and seed give byte-identical text and JSON; another seed changes random results"
set -eu
sim=${ELVKIT_SIM:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(--sched deadline-read,noop,elevator --device hdd --workload randread,read-vs-write
      --threads 1,16,64 --bg write --ios 600 --size 16m --time-limit 30 --requeue 5)
"$sim" "${args[@]}" --seed 7 --json "$tmp/a.json" >"$tmp/a.txt"
"$sim" "${args[@]}" --seed 7 --json "$tmp/b.json" >"$tmp/b.txt"
cmp "$tmp/a.txt" "$tmp/b.txt"
cmp "$tmp/a.json" "$tmp/b.json"
"$sim" "${args[@]}" --seed 8 --json "$tmp/c.json" >"$tmp/c.txt"
if cmp -s "$tmp/a.json" "$tmp/c.json"; then
	echo "seed 8 gave the same results as seed 7"
	exit 1
fi
# --runs: mean +/- half range, also reproducible
"$sim" --sched noop --workload randread --threads 4 --ios 400 --runs 3 >"$tmp/r1.txt"
"$sim" --sched noop --workload randread --threads 4 --ios 400 --runs 3 >"$tmp/r2.txt"
cmp "$tmp/r1.txt" "$tmp/r2.txt"
grep -q '+/-' "$tmp/r1.txt"
echo ok
