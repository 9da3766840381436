#!/usr/bin/env bash
# DKMS test for one kernel, as an admin would do it (issue 5):
#   1. make dkms-install KVER=R (dkms add, build, install)
#   2. one QEMU boot of R running tests/dkms/guest.sh: kernel autoload through
#      the module alias with nothing loaded before, modprobe, modinfo
#   3. make dkms-remove KVER=R, and nothing of elvkit is left behind
# Records "dkms/R/<name>" results (group dkms) into $ELVKIT_RESULTS.
# Usage: scripts/dkms-test.sh RELEASE      (root; exit 1 if anything failed)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh
. scripts/lib/vm.sh
. scripts/lib/results.sh
ver=${1:?usage: dkms-test.sh RELEASE}
export ELVKIT_RESULTS=${ELVKIT_RESULTS:-$PWD/build/results}
mkdir -p "$ELVKIT_RESULTS"
G=dkms
P=dkms/$ver
failed=0
ok() { record "$G" PASS "$P/$1"; }
bad() { record "$G" FAIL "$P/$1"; shift; printf '    %s\n' "$@" >&2; failed=1; }
log=$ELVKIT_RESULTS/dkms-$ver.log
: >"$log"

img=$(k_vmlinuz "$ver") || { bad kernel-image "no vmlinuz for $ver"; exit 1; }
version=$(scripts/version.sh)
# Where the kernel lives (the host, or the private sid root): DKMS runs
# there, as an admin of that system would run it, from a copy of the tree.
root=$(k_root "$ver")
if [ -z "$root" ]; then
	src=$PWD
else
	src=$(k_tree_copy "$ver")-dkms
	rm -rf "$src"
	mkdir -p "$src"
	cp -a Makefile Kbuild dkms.conf README.md include src scripts "$src/"
fi
in_root() { k_in_root "$ver" "$@"; }
dk_make() { in_root make --no-print-directory -C "${src#"$root"}" "$@"; }
# The modules dkms.conf names (read the way dkms reads it).
mapfile -t modules < <(kernelver=$ver bash -c '. ./dkms.conf; printf "%s\n" "${BUILT_MODULE_NAME[@]}"')

# 1. install
echo "dkms-test: make dkms-install KVER=$ver"
if dk_make dkms-install KVER="$ver" >>"$log" 2>&1; then
	ok install
else
	bad install "make dkms-install failed; tail of $log:" "$(tail -n 15 "$log")"
fi
why=""
in_root dkms status -m elvkit -v "$version" -k "$ver" 2>/dev/null | grep -q ': installed' ||
	why="$why dkms status is not 'installed';"
[ -f "$root/usr/src/elvkit-$version/dkms.conf" ] || why="$why no $root/usr/src/elvkit-$version;"
for m in "${modules[@]}"; do
	ls "$root/lib/modules/$ver/updates/dkms/$m.ko"* >/dev/null 2>&1 ||
		why="$why $m not in updates/dkms;"
	in_root modinfo -k "$ver" -F alias "$m" >/dev/null 2>&1 || why="$why modinfo -k $ver $m fails;"
done
if [ -z "$why" ]; then ok installed-files; else bad installed-files "$why"; fi

# 2. the guest, when installed
if [ "$failed" = 0 ]; then
	rm -f "$ELVKIT_RESULTS/dkms-$ver.done"
	echo "dkms-test: booting $ver ($img)"
	vm_boot "$ver" 900 "$log.console" --rw "$ELVKIT_RESULTS" -- \
		tests/dkms/guest.sh "$ver" "$ELVKIT_RESULTS"
	rc=$?
	tr -d '\r' <"$log.console" >>"$log"
	tr -d '\r' <"$log.console" | grep -E '^(PASS|FAIL|SKIP) |^    ' | grep -v '^    - ' || true
	if [ ! -e "$ELVKIT_RESULTS/dkms-$ver.done" ]; then
		bad guest-finished "the guest did not finish (exit $rc); tail of $log:" "$(tail -n 20 "$log")"
	fi
	grep -q "^FAIL $P/" "$ELVKIT_RESULTS/$G.txt" && failed=1
fi

# 3. remove, and nothing is left
echo "dkms-test: make dkms-remove KVER=$ver"
if dk_make dkms-remove KVER="$ver" >>"$log" 2>&1; then
	ok remove
else
	bad remove "make dkms-remove failed; tail of $log:" "$(tail -n 15 "$log")"
fi
left=()
st=$(in_root dkms status -m elvkit 2>/dev/null)
[ -z "$st" ] || left+=("dkms status: $st")
for p in "$root"/usr/src/elvkit-* "$root"/var/lib/dkms/elvkit "$root"/lib/modules/"$ver"/updates/dkms/*elvkit*; do
	[ -e "$p" ] && left+=("$p")
done
for m in "${modules[@]}"; do
	for p in "$root"/lib/modules/"$ver"/updates/dkms/"$m".ko* "$root"/lib/modules/"$ver"/extra/"$m".ko*; do
		[ -e "$p" ] && left+=("$p")
	done
done
grep -E '^alias [A-Za-z0-9_.-]+-iosched ' "$root/lib/modules/$ver/modules.alias" 2>/dev/null |
	awk '{print $3}' | while read -r m; do
		for n in "${modules[@]}"; do [ "$m" = "${n//-/_}" ] && echo "modules.alias: $m"; done
	done >"$ELVKIT_RESULTS/dkms-$ver.alias-left"
[ -s "$ELVKIT_RESULTS/dkms-$ver.alias-left" ] && left+=("$(cat "$ELVKIT_RESULTS/dkms-$ver.alias-left")")
rm -f "$ELVKIT_RESULTS/dkms-$ver.alias-left"
if [ ${#left[@]} -eq 0 ]; then ok nothing-left; else bad nothing-left "left behind: ${left[*]}"; fi
[ -z "$root" ] || rm -rf "$src"
exit $failed
