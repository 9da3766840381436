#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim --think, --late-us, --tag-wake-us, --wbt-wake-us: a number above 1000000 us, 2^63 and 2^64-1 among them, exits 2 before anything runs (it did not spin or become -1, the default); 1000000 runs"
set -u
# shellcheck source=tests/sim/bad_args.sh
. "$(dirname "$0")/bad_args.sh"
run=(--sched noop --threads 1 --size 1m --min-time 0)
for o in --think --late-us --tag-wake-us --wbt-wake-us; do
	for v in 1000001 4294967297 9223372036854775807 9223372036854775808 \
		18446744073709551615; do
		bad "${run[@]}" "$o" "$v"
	done
	good "${run[@]}" "$o" 1000000
done
exit $fail
