#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runner
DESCRIPTION="elvkit-sim --list and --tunables NAME stand alone: an extra argument, an unknown option or another option with them exits 2 (they printed and exited 0, the rest unread); alone they print and exit 0"
set -u
# shellcheck source=tests/sim/bad_args.sh
. "$(dirname "$0")/bad_args.sh"
bad --list extra
bad --list --bogus
bad --list --sched noop
bad --sched noop --list
bad --tunables noop --bogus
bad --tunables noop extra
bad --tunables noop --tunables deadline-read
good --list
good --tunables deadline-read
[ "$("$sim" --tunables deadline-read | wc -l)" -gt 0 ] || { echo "FAIL: --tunables deadline-read printed nothing"; fail=1; }
exit $fail
