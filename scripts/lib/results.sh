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
