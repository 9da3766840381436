#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="after the whole suite, the kernel log has no WARNING, BUG, Oops, lockup, RCU stall or hung task"
. "$(dirname "$0")/lib.sh"
if dmesg | grep -v 'module verification failed' | grep -E "$KERNEL_BAD"; then
	fail "kernel log shows the lines above"
fi
exit 0
