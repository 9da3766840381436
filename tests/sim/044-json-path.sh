#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim --json FILE that cannot be opened (missing directory, empty name, a directory) exits 2 before anything runs, as --trace does (it ran every simulation, then exited 1); a bad argument leaves an existing FILE as it was; a write that fails after the runs (/dev/full) exits 1 and says so in one line"
set -u
# shellcheck source=tests/sim/bad_args.sh
. "$(dirname "$0")/bad_args.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run=(--sched noop --threads 1 --size 1m --min-time 0)
bad "${run[@]}" --json /nonexistent-dir/x.json
bad "${run[@]}" --json ""
bad "${run[@]}" --json "$tmp"
echo keep >"$tmp/keep.json"
bad "${run[@]}" --json "$tmp/keep.json" --threads 0
[ "$(cat "$tmp/keep.json")" = keep ] || { echo "FAIL: a bad argument truncated the --json file"; fail=1; }
if [ -w /dev/full ]; then
	err=$(timeout 60 "$sim" "${run[@]}" --json /dev/full 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 1 ] || [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] ||
		! grep -q "writing '/dev/full' failed" <<<"$err"; then
		echo "FAIL: --json /dev/full -> exit $rc, stderr: $err"
		fail=1
	else
		echo "ok: --json /dev/full -> exit 1: $err"
	fi
fi
good "${run[@]}" --json "$tmp/r.json"
python3 -c 'import json, sys; assert len(json.load(open(sys.argv[1]))) == 1' "$tmp/r.json" ||
	{ echo "FAIL: $tmp/r.json"; fail=1; }
exit $fail
