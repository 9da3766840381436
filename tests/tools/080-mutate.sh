#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="mutate.py: one mutant of deadline-read in a throwaway clone, reported with a summary; bad arguments exit 2 in one line; the work tree is left as it was"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
M=$TOP/scripts/mutate.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# shellcheck source=tests/tools/usage.sh
. "$(dirname "$0")/usage.sh"
expect_usage "$M"
expect_usage "$M" --bogus
expect_usage "$M" --sample
expect_usage "$M" --sample x src/policy/deadline_read.c
expect_usage "$M" README.md
expect_usage "$M" src/policy/no-such.c
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
