#!/bin/bash
# shellcheck disable=SC2054 # commas separate values inside one argument
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim: every disk profile (write cache on and off) and the 2.4 baselines give byte-identical results for the same seed"
set -eu
sim=${ELVKIT_SIM:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dev in "hdd" "hdd-laptop" "hdd-2002" "hdd --dev wce=0" "hdd-laptop --dev wce=0 --dev qd=1"; do
	read -ra devargs <<<"$dev"	# a device name and its options
	args=(--sched elevator,read-latency2,deadline-read --device "${devargs[@]}"
	      --workload randread,read-vs-write,seqwrite --threads 1,16 --bg write
	      --ios 300 --size 8m --time-limit 20)
	"$sim" "${args[@]}" --seed 3 --json "$tmp/a.json" >"$tmp/a.txt"
	"$sim" "${args[@]}" --seed 3 --json "$tmp/b.json" >"$tmp/b.txt"
	cmp "$tmp/a.txt" "$tmp/b.txt"
	cmp "$tmp/a.json" "$tmp/b.json"
done
echo ok
