#!/usr/bin/env bash
# Run the host-side ioschedctl tests (tests/tools/[0-9]*.sh) and record each
# as "tools/<name>" through scripts/lib/results.sh. Exit 1 if any failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=scripts/lib/results.sh
. scripts/lib/results.sh
: "${ELVKIT_RESULTS:=$PWD/build/results}"
export ELVKIT_RESULTS
failed=0
for t in tests/tools/[0-9]*.sh; do
	name=$(basename "$t" .sh)
	log=$(timeout 120 bash "$t" 2>&1)
	rc=$?
	case $rc in
	0) record tools PASS "tools/$name" ;;
	77) record tools SKIP "tools/$name" ;;
	*)
		record tools FAIL "tools/$name"
		printf '  %s: %s\n' "$(describe "$t")" "rc=$rc" >&2
		printf '%s\n' "$log" | sed 's/^/  /' >&2
		failed=1
		;;
	esac
done
exit $failed
