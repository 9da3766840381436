# shellcheck shell=bash
# The supported kernels, listed once, and where each one lives. Sourced by
# every script that builds for, boots or installs a kernel.
#
# A leg is one supported kernel series. Its release string is found from
# what is installed, never hard-coded, so Debian's point releases (and sid's
# next kernel, for the "newest" leg) are followed without an edit here.
#
#   LEG     WHERE                  PACKAGES (installed by scripts/install-deps.sh)
#   6.1     host, Debian 12        linux-image-amd64 linux-headers-amd64
#   6.12    host, Debian 12        linux-image-6.12-amd64 linux-headers-6.12-amd64
#   newest  private sid root       the newest linux-headers-X.Y.Z+debN-amd64 sid
#                                  carries, its image and modules, and the gcc
#                                  its headers need (never on the host)
#
# Adding a kernel: one line in EK_KERNEL_LEGS (and k_leg_packages if it is
# installed from the host's release), plus the shim only if the elevator ABI
# changed.

# shellcheck disable=SC2034 # read by the scripts that source this
EK_KERNEL_LEGS=(6.1 6.12 newest)
# The leg on which `make check` runs part of the reliability suite, and
# which part (tests/vm globs; scripts/check.sh): the tests that found bugs
# in the shim's wait timers and teardown, about 3 minutes. The rest (the
# storm, module churn, hotplug, fault injection, 64 devices: 8 more minutes)
# does not fit the 40-minute budget on a slow machine; `make
# check-reliability` runs all of it.
# shellcheck disable=SC2034 # read by scripts/check.sh
EK_REL_CHECK_LEG=6.12
# shellcheck disable=SC2034
EK_REL_CHECK_TESTS='711-* 730-* 770-*'

# Private roots: everything from a suite newer than the host's lives here.
EK_VAR=${EK_VAR:-/var/lib/elvkit}
EK_SID_ROOT=${EK_SID_ROOT:-$EK_VAR/sid-root}
# The debug kernel (scripts/debug-kernel.sh): built with the host's compiler,
# so its modules build on the host, not in a chroot.
EK_DEBUG_ROOT=${EK_DEBUG_ROOT:-$EK_VAR/debug-root}

# k_leg_packages LEG: "SUITE PACKAGE..." for a leg installed on the host.
k_leg_packages() {
	case $1 in
	6.1) echo "bookworm linux-image-amd64 linux-headers-amd64" ;;
	6.12) echo "bookworm linux-image-6.12-amd64 linux-headers-6.12-amd64" ;;
	*) return 1 ;;
	esac
}

# _k_newest DIR PATTERN: newest release under DIR/lib/modules matching
# PATTERN that has a kbuild tree. The generic flavour only (-rt and -cloud
# differ in config).
_k_newest() {
	local root=$1 pat=$2 d
	for d in "$root"/lib/modules/$pat; do
		[ -e "$d/build/Makefile" ] || continue
		case "$d" in *-rt-amd64 | *-cloud-amd64) continue ;; esac
		basename "$d"
	done | sort -V | tail -n1
}

# k_leg_release LEG: the installed release of a leg, or nothing.
k_leg_release() {
	case $1 in
	newest) _k_newest "$EK_SID_ROOT" '*-amd64' ;;
	*) _k_newest "" "$1.*-amd64" ;;
	esac
}

# k_root RELEASE: the root a release's modules, headers and image live
# under: "" for the host, the private sid root for the newest leg.
k_root() {
	local ver=$1
	if [ -e "/lib/modules/$ver/build/Makefile" ]; then echo ""
	elif [ -d "$EK_SID_ROOT/lib/modules/$ver" ]; then echo "$EK_SID_ROOT"
	elif [ -e "$EK_DEBUG_ROOT/lib/modules/$ver/build/Makefile" ]; then echo "$EK_DEBUG_ROOT"
	else return 1; fi
}

# k_vmlinuz RELEASE: the kernel image to boot.
k_vmlinuz() {
	local ver=$1 root f
	root=$(k_root "$ver") || return 1
	for f in "$root/boot/vmlinuz-$ver" "$root/lib/modules/$ver/vmlinuz"; do
		if [ -e "$f" ]; then echo "$f"; return 0; fi
	done
	return 1
}

# k_moddir RELEASE: the release's module tree (what the guest sees as
# /lib/modules/RELEASE).
k_moddir() {
	local root
	root=$(k_root "$1") || return 1
	echo "$root/lib/modules/$1"
}

# k_in_root RELEASE CMD...: run CMD where RELEASE's headers live: on the host,
# or chrooted into the private root with /proc mounted (objtool reads
# /proc/self). Calls may overlap (a build in one checkout, a DKMS test in
# another, a background leg): the first mounts /proc, the last one out
# unmounts it, and only if elvkit mounted it. Two locks beside the root:
# .elvkit-proc.lock serialises the mount decisions, every running command
# holds .elvkit-proc.users shared. Without them a build that ended
# unmounted /proc under another's objtool ("read_stack_limit: fopen
# failed", 7.2, 2026-12-02).
k_in_root() {
	local ver=$1 root rc=0 lk us
	shift
	root=$(k_root "$ver") || return 1
	if [ -z "$root" ] || [ "$root" = "$EK_DEBUG_ROOT" ]; then
		"$@"
		return
	fi
	exec {lk}>>"$root.elvkit-proc.lock" {us}>>"$root.elvkit-proc.users"
	flock -x "$lk"
	flock -s "$us"
	if ! mountpoint -q "$root/proc"; then
		mount -t proc proc "$root/proc" && : >"$root.elvkit-proc.mounted"
	fi
	flock -u "$lk"
	chroot "$root" "$@" || rc=$?
	flock -u "$us"
	flock -x "$lk"
	if [ -e "$root.elvkit-proc.mounted" ] && flock -x -n "$us"; then
		umount "$root/proc" && rm -f "$root.elvkit-proc.mounted"
	fi
	exec {lk}>&- {us}>&-
	return $rc
}

# k_tree_copy RELEASE: a directory inside RELEASE's root for a copy of this
# checkout (one per checkout and release, so two clones never share it).
# Prints the host path; strip $(k_root RELEASE) for the path inside.
k_tree_copy() {
	local ver=$1 root
	root=$(k_root "$ver") || return 1
	if [ -z "$root" ] || [ "$root" = "$EK_DEBUG_ROOT" ]; then
		echo "$PWD/build/$ver/tree"
	else
		echo "$root/build/elvkit-$(printf '%s' "$PWD" | md5sum | cut -c1-8)-$ver"
	fi
}
