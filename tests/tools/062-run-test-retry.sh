#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="run_test runs a test once more only when its failure's log matches RUN_TEST_RETRY (a crash of a tool it uses), and the second run decides"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 1
. scripts/lib/results.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export ELVKIT_RESULTS=$dir/results
fail() { echo "FAIL: $*"; cat "$dir"/*.log 2>/dev/null; exit 1; }
# A test that crashes "fio" on its first run and passes on its second.
cat >"$dir/once.sh" <<'T'
[ -e "$1" ] && exit 0
touch "$1"
echo "line 8:  3189 Aborted                 fio --filename=/dev/ekdisk0"
exit 1
T
RUN_TEST_RETRY='Aborted +fio '
RUN_TEST_BEFORE_RETRY="touch $dir/reaped"
out=$(run_test g t/crash 10 "$dir/crash.log" "$dir/once.sh" bash "$dir/once.sh" "$dir/m1")
grep -q '^PASS t/crash' <<<"$out" || fail "a crash of the tool, then a pass: $out"
grep -q 'once more' <<<"$out" || fail "the console does not say why: $out"
[ -e "$dir/reaped" ] || fail "RUN_TEST_BEFORE_RETRY did not run"
[ "$(grep -c . "$dir/crash.log")" = 2 ] || fail "the first run's log is not kept"
# Any other failure is final: no second run.
printf 'echo "verify: bad crc"\nexit 1\n' >"$dir/bad.sh"
out=$(run_test g t/bad 10 "$dir/bad.log" "$dir/bad.sh" bash "$dir/bad.sh")
grep -q '^FAIL t/bad' <<<"$out" || fail "a verify failure passed: $out"
! grep -q 'once more' <<<"$out" || fail "a verify failure ran again: $out"
[ "$(grep -c . "$dir/bad.log")" = 1 ] || fail "a verify failure ran twice"
# A skip is not a failure, whatever its log says; without RUN_TEST_RETRY a
# crash is final.
printf 'echo "Aborted  fio x"\nexit 77\n' >"$dir/skip.sh"
out=$(run_test g t/skip 10 "$dir/skip.log" "$dir/skip.sh" bash "$dir/skip.sh")
grep -q '^SKIP t/skip' <<<"$out" || fail "a skip: $out"
RUN_TEST_RETRY=
rm -f "$dir/m2"
out=$(run_test g t/plain 10 "$dir/plain.log" "$dir/once.sh" bash "$dir/once.sh" "$dir/m2")
grep -q '^FAIL t/plain' <<<"$out" || fail "without RUN_TEST_RETRY: $out"
exit 0
