#!/bin/bash
# Run the policy unit tests and record each result (group "unit").
# usage: run.sh BUILD_DIR TEST_SOURCE...
# Runs every test even after a failure; exits 1 if any failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
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
	log=$out/$name.log
	if [ ! -x "$bin" ]; then
		record unit FAIL "unit/$name"
		echo "     $name did not build"
		failed=1
		continue
	fi
	timeout 300 "$bin" >"$log" 2>&1
	rc=$?
	case $rc in
	0) record unit PASS "unit/$name" ;;
	77) record unit SKIP "unit/$name" ;;
	*)
		record unit FAIL "unit/$name"
		echo "     $(describe "$src") (exit $rc); log: $log"
		tail -n 20 "$log" | sed 's/^/     | /'
		failed=1
		;;
	esac
done
exit $failed
