#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="reliability.sh: an unknown option or a release not installed exits 2 in one line before anything is built or booted, wherever it stands among the releases"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
R=$TOP/scripts/reliability.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
FAILS=0
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
# shellcheck source=tests/tools/usage.sh
. "$(dirname "$0")/usage.sh"

# Whatever would build or boot only logs here (and fails): nothing may.
mkdir -p "$T/bin"
for c in qemu-system-x86_64 make; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\nexit 1\n' "$c" "$T" >"$T/bin/$c"
	chmod +x "$T/bin/$c"
done
export PATH=$T/bin:$PATH ELVKIT_RESULTS=$T/results
# A release "installed" in a private root of its own (a debug root: no
# chroot), with an image: accepted by the check, so only the bad argument
# beside it stops the run. The machine's own kernels are never named.
export EK_DEBUG_ROOT=$T/debug-root EK_SID_ROOT=$T/sid-root
mkdir -p "$EK_DEBUG_ROOT/lib/modules/7.7.7-fake/build" "$EK_DEBUG_ROOT/boot"
: >"$EK_DEBUG_ROOT/lib/modules/7.7.7-fake/build/Makefile"
: >"$EK_DEBUG_ROOT/boot/vmlinuz-7.7.7-fake"
mkdir -p "$EK_DEBUG_ROOT/lib/modules/7.7.8-noimage/build"
: >"$EK_DEBUG_ROOT/lib/modules/7.7.8-noimage/build/Makefile"

expect_usage --match "^reliability: unknown option '--bogus'" timeout 20 "$R" --bogus
expect_usage --match "^reliability: release: 9.9.9-nope is not installed$" timeout 20 "$R" 9.9.9-nope
expect_usage --match "unknown option '--bogus'" timeout 20 "$R" 7.7.7-fake --bogus
expect_usage --match "unknown option '-x'" timeout 20 "$R" 9.9.9-nope -x
expect_usage --match "9.9.9-nope is not installed" timeout 20 "$R" 7.7.7-fake 9.9.9-nope
expect_usage --match "'\.\./x' is not a kernel release" timeout 20 "$R" ../x
expect_usage --match "'' is not a kernel release" timeout 20 "$R" ""
ELVKIT_REL_SCALE=x expect_usage --match "ELVKIT_REL_SCALE" timeout 20 "$R" 7.7.7-fake
# Installed without an image: a failure (exit 1), still before anything runs.
msg=$(timeout 20 "$R" 7.7.7-fake 7.7.8-noimage 2>&1 >/dev/null)
rc=$?
[ "$rc" = 1 ] || fail "a release without its image: exit $rc, want 1 ($msg)"
[ "$msg" = "reliability: release: no kernel image for 7.7.8-noimage" ] || fail "no image: '$msg'"
"$R" --help | grep -q '^Usage: scripts/reliability.sh \[--help\] \[RELEASE...\]' || fail "--help"

[ ! -e "$T/calls" ] || fail "built or booted: $(cat "$T/calls")"
[ ! -e "$T/results" ] || fail "results directory created before the arguments were checked"
[ ! -e "$TOP/build/7.7.7-fake" ] || fail "build/7.7.7-fake created"
[ "$FAILS" = 0 ] || exit 1
echo ok
