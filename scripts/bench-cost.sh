#!/bin/bash
# make bench-cost: instructions per request (insert + dispatch + completion)
# for each policy at queue depths 16 .. 65536, counted by callgrind inside
# elvkit-cost's cost_loop (deterministic), minus the harness's own functions.
# Flat, or log n at worst, is the goal.
set -eu
cost=${1:-build/elvkit-cost}
ops=${OPS:-20000}
depths=${DEPTHS:-"16 64 256 1024 4096 16384 65536"}
command -v valgrind >/dev/null || { echo "bench-cost: valgrind not installed" >&2; exit 1; }
# shellcheck source=scripts/lib/sim-list.sh
. "$(dirname "$0")/lib/sim-list.sh"
mapfile -t policies < <(sim_schedulers "$(dirname "$cost")/elvkit-sim")
# Per-process policies also with one process (one queue); the plain
# columns have 64 processes. ONEQ="" leaves these out.
for p in ${ONEQ-fair-queue}; do policies+=("$p:1"); done
# Policies whose path differs on flash also on a non-rotational device
# (NAME@nonrot), the path the kernel overhead benchmark (null_blk) takes.
# NONROT="" leaves these out.
for p in ${NONROT-anticipatory fair-queue}; do policies+=("$p@nonrot"); done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "instructions per request (insert + dispatch + completion), callgrind, $ops requests per cell"
echo "(policy code only: the harness loop in src/sim/cost.c is subtracted;"
echo " 64 processes, NAME:1 one process; a rotational device, NAME@nonrot not)"
printf '%8s' depth
for p in "${policies[@]}"; do printf ' %19s' "$p"; done
echo
declare -A first last
for d in $depths; do
	printf '%8s' "$d"
	for p in "${policies[@]}"; do
		out=$tmp/cg.$p.$d
		args=("$p")
		[[ $p != *@nonrot ]] || args=(--nonrot "${p%@nonrot}")
		valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect=cost_loop \
			"$cost" "${args[@]}" "$d" "$ops" >/dev/null 2>"$tmp/err" || {
			printf ' %19s' fail
			continue
		}
		ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out" | head -n1)
		# the harness's own instructions (cost.c: loop, fill, next) do not count
		harness=$(callgrind_annotate --auto=no "$out" 2>/dev/null |
			awk '/src\/sim\/cost\.c:/ { gsub(",", "", $1); s += $1 } END { print s + 0 }')
		per=$(awk -v a="$ir" -v h="$harness" -v b="$ops" 'BEGIN { printf "%.1f", (a - h) / b }')
		printf ' %19s' "$per"
		[ -n "${first[$p]:-}" ] || first[$p]=$per
		last[$p]=$per
	done
	echo
done
printf '%8s' "x growth"
for p in "${policies[@]}"; do
	if [ -n "${first[$p]:-}" ]; then
		printf ' %19s' "$(awk -v a="${last[$p]}" -v b="${first[$p]}" 'BEGIN { printf "%.2f", a / b }')"
	else
		printf ' %19s' "-"
	fi
done
echo
echo "(depth x4096 from first to last row; log2 growth would be about x5)"
