#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="mutate.py: one mutant of deadline-read in a throwaway clone, reported with a summary; bad arguments exit 2 in one line; the work tree is left as it was"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
M=$TOP/scripts/mutate.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_usage ARGS...: exit 2, one line on stderr, nothing on stdout.
expect_usage() {
	local out err rc
	out=$("$M" "$@" 2>"$T/err")
	rc=$?
	err=$(cat "$T/err")
	[ "$rc" = 2 ] || fail "mutate.py $*: exit $rc, expected 2 ($err)"
	[ -z "$out" ] || fail "mutate.py $*: printed on stdout: $out"
	[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "mutate.py $*: not one line: $err"
}
expect_usage
expect_usage --bogus
expect_usage --sample
expect_usage --sample x src/policy/deadline_read.c
expect_usage README.md
expect_usage src/policy/no-such.c
"$M" --help | grep -q '^usage: scripts/mutate.py' || fail "--help: no usage line"

cd "$TOP" || exit 1
before=$(git status --porcelain src)
"$M" --sample 1 --seed 3 src/policy/deadline_read.c >"$T/out" 2>"$T/err" ||
	fail "exit $?: $(cat "$T/err")"
cat "$T/out"
grep -qE '^(killed|survived|no build) +src/policy/deadline_read\.c:[0-9]+ ' "$T/out" ||
	fail "no mutant line"
grep -qE '^1 mutants: [01] killed, [01] survived, [01] did not build$' "$T/out" ||
	fail "no summary line"
[ "$(git status --porcelain src)" = "$before" ] || fail "the work tree's sources changed"
