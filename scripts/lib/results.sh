# shellcheck shell=bash
# Test result recording, shared by every test runner (host and guest).
# A result is one line "PASS|FAIL|SKIP <name>" appended to $ELVKIT_RESULTS/<group>.txt.

# record GROUP STATUS NAME
record() {
	local group=$1 status=$2 name=$3
	mkdir -p "${ELVKIT_RESULTS:?ELVKIT_RESULTS not set}"
	printf '%s %s\n' "$status" "$name" >>"$ELVKIT_RESULTS/$group.txt"
	printf '%-4s %s\n' "$status" "$name"
}

# The one-line description of a test file: a line "DESCRIPTION=..." or
# "/* DESCRIPTION: ... */" or "# DESCRIPTION: ...".
describe() {
	sed -n -e 's/^DESCRIPTION="\(.*\)"$/\1/p' \
		-e 's/^\/\* DESCRIPTION: \(.*\) \*\/$/\1/p' \
		-e 's/^# DESCRIPTION: \(.*\)$/\1/p' "$1" | head -n1
}

# run_test GROUP NAME SECONDS LOG SRC CMD...: run one test with a time limit
# and record it by its exit code: 0 pass, 77 skip, anything else fail (the
# description from the test's source SRC and the log's tail are shown).
# Returns 1 on failure, so runners can go on and sum up. The limit only
# catches a hang: ELVKIT_TIMEOUT_SCALE multiplies it where tests run at a
# low priority beside other work (scripts/check.sh).
# RUN_TEST_RETRY (an extended regex): a failure whose log matches it is a
# crash of a tool the test uses, not of what it tests; the test runs once
# more (after RUN_TEST_BEFORE_RETRY, a command, if set), both runs in the
# log, and the second run decides.
run_test() {
	local group=$1 name=$2 secs=$3 log=$4 src=$5 rc why
	shift 5
	timeout "$((secs * ${ELVKIT_TIMEOUT_SCALE:-1}))" "$@" >"$log" 2>&1
	rc=$?
	if [ "$rc" != 0 ] && [ "$rc" != 77 ] && [ -n "${RUN_TEST_RETRY:-}" ] &&
		why=$(grep -m1 -E "$RUN_TEST_RETRY" "$log"); then
		echo "     (exit $rc after: $why; once more)"
		${RUN_TEST_BEFORE_RETRY:-:}
		echo "=== once more, after exit $rc ($why)" >>"$log"
		timeout "$((secs * ${ELVKIT_TIMEOUT_SCALE:-1}))" "$@" >>"$log" 2>&1
		rc=$?
	fi
	case $rc in
	0) record "$group" PASS "$name" ;;
	77)
		record "$group" SKIP "$name"
		tail -n 3 "$log" | sed 's/^/     | /'
		;;
	*)
		record "$group" FAIL "$name"
		echo "     $(describe "$src") (exit $rc); log: $log"
		tail -n 20 "$log" | sed 's/^/     | /'
		return 1
		;;
	esac
}
