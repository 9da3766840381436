#!/bin/bash
# Run the policy unit tests and record each result (group "unit").
# usage: run.sh BUILD_DIR TEST_SOURCE...
# Runs every test even after a failure; exits 1 if any failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib/results.sh
. "$here/../../scripts/lib/results.sh"

out=$1
shift
# This runner owns the unit group: start it afresh so reruns do not pile up.
mkdir -p "${ELVKIT_RESULTS:?ELVKIT_RESULTS not set}"
: >"$ELVKIT_RESULTS/unit.txt"

failed=0
for src in "$@"; do
	name=$(basename "$src" .c)
	bin=$out/$name
	if [ ! -x "$bin" ]; then
		record unit FAIL "unit/$name"
		echo "     $name did not build"
		failed=1
		continue
	fi
	run_test unit "unit/$name" 300 "$out/$name.log" "$src" "$bin" || failed=1
done
exit $failed
