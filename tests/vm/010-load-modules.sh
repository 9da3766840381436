#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="the shim and every scheduler module load; each registers its elevator"
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
for s in $ELVKIT_SCHEDS; do
	module_loaded "$s" || fail "module $s not loaded"
	dmesg | grep -q "elvkit: registered io scheduler $s" || fail "$s did not register"
done
