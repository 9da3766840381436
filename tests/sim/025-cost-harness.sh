#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-cost (make bench-cost) builds and runs every policy, rotational and not, one process and many, mixed and reads only, in random order and in turn; bad arguments exit 2"
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cost=${ELVKIT_COST:-$root/build/elvkit-cost}
sim=${ELVKIT_SIM:?}
[ -x "$cost" ] || { echo "no $cost: it did not build"; exit 1; }
# shellcheck source=scripts/lib/sim-list.sh
. "$root/scripts/lib/sim-list.sh"
mapfile -t policies < <(sim_schedulers "$sim")
[ "${#policies[@]}" -ge 3 ] || { echo "policies: ${policies[*]}"; exit 1; }
for p in "${policies[@]}"; do
	for dev in "" --nonrot "--nonrot --reads" "--reads --nonrot" "--round-robin --nonrot --reads"; do
		for procs in 1 64; do
			# shellcheck disable=SC2086 # dev is options or none
			"$cost" $dev "$p:$procs" 64 2000 || { echo "FAIL: $dev $p:$procs"; exit 1; }
		done
	done
done
for bad in "" "--reads --bogus fair-queue 16 10" "nosuch 16 10" "deadline-read 0 10" "deadline-read:0 16 10"; do
	rc=0
	# shellcheck disable=SC2086 # the arguments are meant to split
	"$cost" $bad 2>/dev/null || rc=$?
	[ "$rc" = 2 ] || { echo "FAIL: '$bad' exited $rc, not 2"; exit 1; }
done
echo "ok: ${policies[*]}"
