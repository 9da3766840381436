# shellcheck shell=bash disable=SC2034 # sim, fail: for the sourcing test
# Sourced by the simulator's shell tests of bad input: $sim, $fail, and
# bad ARGS...: elvkit-sim ARGS must exit 2 with a one-line reason on stderr
# and nothing on stdout (nothing ran), within 30 s (a value that slipped
# through may run or spin instead); the test ends with exit $fail.
sim=${ELVKIT_SIM:?}
fail=0
bad() {
	local err out rc
	out=$(mktemp)
	err=$(timeout 30 "$sim" "$@" 2>&1 >"$out")
	rc=$?
	if [ $rc -ne 2 ] || [ -z "$err" ] || [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] ||
		[ -s "$out" ]; then
		echo "FAIL: elvkit-sim $* -> exit $rc, stderr: $err, stdout: $(head -c 200 "$out")"
		fail=1
	else
		echo "ok: $* -> $err"
	fi
	rm -f "$out"
}
# good ARGS...: elvkit-sim ARGS must run and exit 0.
good() {
	local err rc
	err=$(timeout 120 "$sim" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL: elvkit-sim $* -> exit $rc, stderr: $err"
		fail=1
	else
		echo "ok: $* runs"
	fi
}
