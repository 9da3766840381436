# shellcheck shell=bash
# expect_usage [--match REGEX] CMD...: CMD exits 2 with one line on stderr
# (matching REGEX if given) and nothing on stdout: the scripts' usage-error
# contract. Sourced by tests/tools/[0-9]*.sh, which give it $T (a scratch
# directory) and fail().
expect_usage() {
	local re='' out err rc
	if [ "$1" = --match ]; then
		re=$2
		shift 2
	fi
	out=$("$@" 2>"$T/err")
	rc=$?
	err=$(cat "$T/err")
	[ "$rc" = 2 ] || fail "$*: exit $rc, expected 2 ($err)"
	[ -z "$out" ] || fail "$*: printed on stdout: $out"
	[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "$*: not one line: $err"
	[ -z "$re" ] || printf '%s\n' "$err" | grep -Eq -- "$re" ||
		fail "$*: '$err' does not match '$re'"
}
