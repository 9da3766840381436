#!/usr/bin/env bash
# Run the host-side ioschedctl tests (tests/tools/[0-9]*.sh) and record each
# as "tools/<name>" through scripts/lib/results.sh. Exit 1 if any failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=scripts/lib/results.sh
. scripts/lib/results.sh
: "${ELVKIT_RESULTS:=$PWD/build/results}"
export ELVKIT_RESULTS
mkdir -p "$ELVKIT_RESULTS"
: >"$ELVKIT_RESULTS/tools.txt"	# this runner owns the group: no pile-up on reruns
# The tools run as a user runs them, not as part of a make: a make they
# start themselves must not find the parent's jobserver flags (make -j
# check-user), or it warns on stderr, which the tests read.
unset MAKEFLAGS MFLAGS MAKELEVEL GNUMAKEFLAGS
failed=0
for t in tests/tools/[0-9]*.sh; do
	name=$(basename "$t" .sh)
	mkdir -p build/tools
	run_test tools "tools/$name" 120 "build/tools/$name.log" "$t" bash "$t" || failed=1
done
exit $failed
