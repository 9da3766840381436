#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="bench-overhead --profile: the QEMU plugin and its marker build warning-free; insnprof-report.py counts only what ran between a job's first start and last end marker, per function and per I/O, and refuses a missing profile"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
R=$TOP/scripts/lib/insnprof-report.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# the rules bench-overhead.sh --profile builds them with (warnings are errors)
if command -v cc >/dev/null; then
	make --no-print-directory -s -C "$TOP" build/insnprof.so build/ek-mark ||
		fail "insnprof.c or ek-mark.c does not build"
	nm -D --defined-only "$TOP/build/insnprof.so" | grep -q ' T qemu_plugin_install$' ||
		fail "the plugin does not export qemu_plugin_install"
	"$TOP/build/ek-mark" || fail "the marker program failed"
fi

# Two jobs of two fio clones each: markers 1-4 are mq-deadline's, 5-8
# fair-queue's. Profile k holds what ran from marker k-1 to marker k, so
# a job is profiles first-start+1 .. last-end: 2-4 and 6-8. 1 (boot) and
# 5 (between the jobs) must not count.
d=$T/run
mkdir -p "$d"
cat >"$d/kallsyms.txt" <<'K'
ffffffff81000000 T fn_a
ffffffff81000100 T fn_b
ffffffff81000200 d some_data
ffffffffc0000000 t fq_insert	[fair_queue]
K
printf '%s\n' 1.mq-deadline.start 1.mq-deadline.start 1.mq-deadline.end \
	1.mq-deadline.end 1.fair-queue.start 1.fair-queue.start \
	1.fair-queue.end 1.fair-queue.end >"$d/marks.txt"
printf '1 mq-deadline 1000 100 0 100\n1 fair-queue 1000 100 0 100\n' >"$d/results.txt"
echo "ffffffff81000000 10 999999" >"$d/prof-0001.txt"
echo "ffffffff81000000 10 100" >"$d/prof-0002.txt"
echo "ffffffff81000110 5 200" >"$d/prof-0003.txt"
echo "400000 2 500" >"$d/prof-0004.txt"
echo "ffffffff81000100 10 999999" >"$d/prof-0005.txt"
printf '%s\n' "ffffffff81000000 10 100" "ffffffff81000110 5 200" >"$d/prof-0006.txt"
echo "ffffffffc0000010 4 250" >"$d/prof-0007.txt"
echo "400000 2 500" >"$d/prof-0008.txt"

out=$(python3 "$R" "$d") || fail "the report failed: $out"
grep -qF '| mq-deadline | 30 | 20 | 10 | +0 |' <<<"$out" || fail "mq-deadline's totals: $out"
grep -qF '| fair-queue | 40 | 30 | 10 | +10 |' <<<"$out" || fail "fair-queue's totals: $out"
grep -qF '| fq_insert [fair_queue] | 0.0 | +10.0 |' <<<"$out" || fail "fq_insert's difference: $out"
grep -qF '| fn_b | 10.0 | +0.0 |' <<<"$out" || fail "fn_b (a block inside it, data after it): $out"

out=$(python3 "$R" "$d" --base fair-queue) || fail "--base fair-queue failed"
grep -qF '| fq_insert [fair_queue] | 10.0 | -10.0 |' <<<"$out" || fail "against fair-queue: $out"
if out=$(python3 "$R" "$d" --base bfq 2>&1); then
	fail "--base of an unmeasured scheduler accepted"
fi
grep -q 'bfq was not measured' <<<"$out" || fail "unclear --base error: $out"

rm "$d/prof-0007.txt"
if out=$(python3 "$R" "$d" 2>&1); then
	fail "a missing profile went unnoticed"
fi
grep -q 'prof-0007.txt missing' <<<"$out" || fail "unclear error for a missing profile: $out"
echo "insnprof: report and plugin OK"
