#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim --time-limit, --min-time, --runtime (S) and --warmup (MS): above 1000000 s, where they wrapped when made nanoseconds (--time-limit 18446744074 was 0.29 s), exits 2 before anything runs; 1000000 s is accepted"
set -u
# shellcheck source=tests/sim/bad_args.sh
. "$(dirname "$0")/bad_args.sh"
run=(--sched noop --threads 1 --size 1m)
for v in 1000001 18446744074 18446744073709551615; do
	bad "${run[@]}" --min-time 0 --time-limit "$v"
	bad "${run[@]}" --min-time "$v"
	bad "${run[@]}" --runtime "$v"
done
for v in 1000000001 18446744073710 18446744073709551615; do
	bad "${run[@]}" --min-time 0 --workload startup --warmup "$v"
done
bad "${run[@]}" --min-time 0 --time-limit 0
good "${run[@]}" --min-time 0 --time-limit 1000000
good "${run[@]}" --min-time 1 --time-limit 1000000
exit $fail
