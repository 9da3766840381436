#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="after the whole suite, the kernel log has no WARNING, BUG or Oops"
. "$(dirname "$0")/lib.sh"
if dmesg | grep -v 'module verification failed' |
	grep -E 'WARNING:|BUG:|Oops|general protection|elvkit: .*(fail|error|bad)'; then
	fail "kernel log shows the lines above"
fi
exit 0
