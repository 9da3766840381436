#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="after the whole suite, the kernel log has no WARNING, BUG, Oops, lockup, RCU stall or hung task"
. "$(dirname "$0")/lib.sh"
# Each bad line under the test that was running (guest.sh logs "running").
bad=$(dmesg_since 0 |
	awk -v bad="$KERNEL_BAD" '/elvkit-guest: running / { t = $NF; next }
		$0 ~ bad { if (t != shown) print "during " (shown = t) ":"; print }')
[ -z "$bad" ] || { echo "$bad"; fail "kernel log shows the lines above"; }
exit 0
