#!/bin/bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="ioschedctl list: every device, current and available schedulers, rotational, depth"
. "$(dirname "$0")/lib.sh"
mkdev sda "mq-deadline [deadline-read] none" 1
mkdev nullb0 "[none] mq-deadline" 0
mkdev dm-0 "none" 0
printf 'alias deadline-read-iosched deadline_read\nalias anticipatory-iosched anticipatory\nalias pci:v* foo\n' \
	>"$T/modules/modules.alias"

expect 0 "" -- list
printf '%s\n' "$OUT" | head -n1 | grep -q '^DEVICE  *SCHEDULER  *ROTA  *DEPTH  *AVAILABLE$' ||
	fail "header: $OUT"
printf '%s\n' "$OUT" | grep -qE '^sda +deadline-read +1 +64 +mq-deadline deadline-read none$' ||
	fail "sda line: $OUT"
printf '%s\n' "$OUT" | grep -qE '^nullb0 +none +0 +64 +none mq-deadline$' || fail "nullb0 line: $OUT"
printf '%s\n' "$OUT" | grep -qE '^dm-0 +- +0 +64 +-$' || fail "dm-0 line (no scheduler): $OUT"
printf '%s\n' "$OUT" | grep -qx 'installed, not loaded: anticipatory' ||
	fail "installed-not-loaded line: $OUT"
done_test
