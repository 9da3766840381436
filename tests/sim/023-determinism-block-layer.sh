#!/bin/bash
# shellcheck disable=SC2054 # commas separate values inside one argument
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim: with wbt, the shared request pool, plugging, read-ahead and --min-time, the same seed still gives byte-identical text and JSON"
set -eu
sim=${ELVKIT_SIM:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(--sched deadline-read,anticipatory,noop --device hdd --dev qd=32 --workload read-vs-write,seqread,randwrite
      --threads 1,8 --bg write --ios 500 --size 8m --wbt on --min-time 5 --time-limit 60 --runs 2)
"$sim" "${args[@]}" --json "$tmp/a.json" >"$tmp/a.txt"
"$sim" "${args[@]}" --json "$tmp/b.json" >"$tmp/b.txt"
cmp "$tmp/a.txt" "$tmp/b.txt"
cmp "$tmp/a.json" "$tmp/b.json"
grep -q '"thread_bytes": \[' "$tmp/a.json"
echo ok
