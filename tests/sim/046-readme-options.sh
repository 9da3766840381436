#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="README: every option elvkit-sim --help lists is named in README's simulator section (--bg-prio, --startup-ios, --warmup, --tunables were not, --bg-block only in another section's example)"
set -u
sim=${ELVKIT_SIM:?}
readme=$(dirname "$0")/../../README.md
# "## The simulator: elvkit-sim" up to the next heading outside a code block
section=$(awk '/^```/ { code = !code }
	/^## The simulator: elvkit-sim/ { p = 1; next }
	!code && /^#+ / { p = 0 }
	p' "$readme")
[ -n "$section" ] || { echo "FAIL: no simulator section in $readme"; exit 1; }
opts=$("$sim" --help | grep -oE '^  --[a-z-]+')
[ -n "$opts" ] || { echo "FAIL: --help lists no options"; exit 1; }
fail=0
for o in $opts; do
	if grep -qE -- "$o([^a-z-]|\$)" <<<"$section"; then
		echo "ok: $o"
	else
		echo "FAIL: $o is in --help but not in README's simulator section"
		fail=1
	fi
done
exit $fail
