#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim: a number is range-checked while 64 bits wide: 2^32+1 for --wdepth, --nr-requests, --requeue, --runs, --startup-ios, --threads, 2^32 for --startup-ios, 2^32+1024 for --max-kb, and a --tune or --dev value beyond 2^63 exit 2 (they were cut to 1, 0 or 1024, or wrapped, and ran)"
set -u
# shellcheck source=tests/sim/bad_args.sh
. "$(dirname "$0")/bad_args.sh"
run=(--sched noop --threads 1 --size 1m --min-time 0)
for o in --wdepth --nr-requests --requeue --runs --startup-ios --tag-wake-batch; do
	bad "${run[@]}" "$o" 4294967297
done
bad "${run[@]}" --startup-ios 4294967296
bad "${run[@]}" --max-kb 4294968320
bad --sched noop --size 1m --min-time 0 --threads 4294967297
bad "${run[@]}" --dirty-kb 8192 --wb-bw-init 4294967300
# -(2^64 - 125) was 125 as an ek_s64, deadline-read's default read_expire
bad --sched deadline-read --threads 1 --size 1m --min-time 0 \
	--tune read_expire=-18446744073709551491
bad "${run[@]}" --tune read_expire=18446744073709551615
bad "${run[@]}" --dev rpm=-18446744073709544416
bad "${run[@]}" --dev rpm=9223372036854775808
good "${run[@]}" --wdepth 65536 --nr-requests 1000000 --requeue 100 --startup-ios 1000000 --max-kb 65536
exit $fail
