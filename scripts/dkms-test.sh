#!/usr/bin/env bash
# DKMS test for one kernel, as an admin would do it (issue 5):
#   1. make dkms-install KVER=R (dkms add, build, install)
#   2. one QEMU boot of R running tests/dkms/guest.sh: kernel autoload through
#      the module alias with nothing loaded before, modprobe, modinfo
#   3. make dkms-remove KVER=R, and nothing of elvkit is left behind
# Records "dkms/R/<name>" results (group dkms-R) into $ELVKIT_RESULTS.
# Usage: scripts/dkms-test.sh [--install | --finish] RELEASE
#   (root; exit 1 if anything failed)
#   --install  step 1 only, for a later boot to run step 2 (the guest suite's
#              boot does, first thing: scripts/vm-run.sh --dkms)
#   --finish   step 3, after such a boot: its checks must have run
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh
. scripts/lib/vm.sh
. scripts/lib/results.sh
. scripts/lib/dkms-modules.sh
steps="install boot finish"
case ${1:-} in
--install) steps=install; shift ;;
--finish) steps=finish; shift ;;
esac
ver=${1:?usage: dkms-test.sh [--install | --finish] RELEASE}
export ELVKIT_RESULTS=${ELVKIT_RESULTS:-$PWD/build/results}
mkdir -p "$ELVKIT_RESULTS"
# One group per kernel: the host records one kernel's steps while a guest
# records another's over 9p, and two writers never share a file.
G=dkms-$ver
P=dkms/$ver
failed=0
ok() { record "$G" PASS "$P/$1"; }
bad() { record "$G" FAIL "$P/$1"; shift; printf '    %s\n' "$@" >&2; failed=1; }
log=$ELVKIT_RESULTS/dkms-$ver.log
want() { case " $steps " in *" $1 "*) ;; *) return 1 ;; esac; }
want install && : >"$log"

img=$(k_vmlinuz "$ver") || { bad kernel-image "no vmlinuz for $ver"; exit 1; }
version=$(scripts/version.sh)
# Where the kernel lives (the host, or the private sid root): DKMS runs
# there, as an admin of that system would run it, from a copy of the tree.
root=$(k_root "$ver")
if [ -z "$root" ]; then
	src=$PWD
else
	src=$(k_tree_copy "$ver")-dkms
	if want install || [ ! -d "$src" ]; then
		rm -rf "$src"
		mkdir -p "$src"
		cp -a Makefile Kbuild dkms.conf README.md include src scripts "$src/"
	fi
fi
in_root() { k_in_root "$ver" "$@"; }
dk_make() { in_root make --no-print-directory -C "${src#"$root"}" "$@"; }
mapfile -t modules < <(dkms_modules "$ver")

# The kernel's module index as it was before the install, for a guest to
# put back once it has checked the DKMS modules (tests/dkms/guest.sh
# --hide): faster than a depmod under TCG (80 s), and exactly the state the
# guest suite runs in without DKMS.
index=$ELVKIT_RESULTS/dkms-$ver-index

# 1. install
install_step() {
	rm -rf "$index"
	mkdir -p "$index"
	cp -p "$root/lib/modules/$ver"/modules.* "$index/"
	echo "dkms-test: make dkms-install KVER=$ver"
	if dk_make dkms-install KVER="$ver" >>"$log" 2>&1; then
		ok install
	else
		bad install "make dkms-install failed; tail of $log:" "$(tail -n 15 "$log")"
	fi
	why=""
	in_root dkms status -m elvkit -v "$version" -k "$ver" 2>/dev/null | grep ': installed' >/dev/null ||
		why="$why dkms status is not 'installed';"
	[ -f "$root/usr/src/elvkit-$version/dkms.conf" ] || why="$why no $root/usr/src/elvkit-$version;"
	for m in "${modules[@]}"; do
		ls "$root/lib/modules/$ver/updates/dkms/$m.ko"* >/dev/null 2>&1 ||
			why="$why $m not in updates/dkms;"
		in_root modinfo -k "$ver" -F alias "$m" >/dev/null 2>&1 || why="$why modinfo -k $ver $m fails;"
	done
	if [ -z "$why" ]; then ok installed-files; else bad installed-files "$why"; fi
	# The guest's done marker is from this install's boot only.
	rm -f "$ELVKIT_RESULTS/dkms-$ver.done"
}

# 2. the guest, in a boot of its own, when installed
boot_step() {
	echo "dkms-test: booting $ver ($img)"
	vm_boot "$ver" 900 "$log.console" --rw "$ELVKIT_RESULTS" -- \
		tests/dkms/guest.sh "$ver" "$ELVKIT_RESULTS" ||
		echo "dkms-test: the guest exited $?" >>"$log"
	tr -d '\r' <"$log.console" >>"$log"
	tr -d '\r' <"$log.console" | grep -E '^(PASS|FAIL|SKIP) |^    ' | grep -v '^    - ' || true
}

# 3. the guest's checks ran (in its own boot or the suite's), then remove,
# and nothing is left
finish_step() {
	# (No guest checks after a failed install: that failure says it.)
	if [ ! -e "$ELVKIT_RESULTS/dkms-$ver.done" ] &&
		! grep -q "^FAIL $P/install" "$ELVKIT_RESULTS/$G.txt" 2>/dev/null; then
		bad guest-finished "the guest's checks did not run or did not finish (console: $log.console, or vm-$ver-console.log when the suite's boot ran them)"
	fi
	grep -q "^FAIL $P/" "$ELVKIT_RESULTS/$G.txt" 2>/dev/null && failed=1
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
	rm -rf "$index"
}

want install && install_step
# An install that failed leaves nothing for a guest to check.
installed=$([ "$failed" = 0 ] && echo 1)
want boot && [ -n "$installed" ] && boot_step
want finish && finish_step
exit $failed
