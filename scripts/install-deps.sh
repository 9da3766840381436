#!/usr/bin/env bash
# Install what elvkit's build and tests need, idempotently, without changing
# the host's Debian release:
#   - the host gets packages from its own release (Debian 12 "bookworm",
#     with its updates and security suites: the 6.12 kernel is there) and
#     from nowhere else; no source list or pin is added to the host.
#   - everything from a newer suite (the newest kernel sid carries, its
#     headers and the gcc they need, dkms for it) lives in a private root,
#     /var/lib/elvkit/sid-root, made with debootstrap and used through chroot.
#   - every package it adds to the host is recorded in
#     /var/lib/elvkit/host-packages, so `make deps-clean` removes exactly those.
# It prints what it will install, and where, before doing it.
#
# Usage: scripts/install-deps.sh [--simulate] [host|kernels|private|all]...
#   --simulate   print what apt would install on the host (apt-get -s) and
#                change nothing but apt's package lists; skips the private root
set -euo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh

export DEBIAN_FRONTEND=noninteractive
MIRROR=${ELVKIT_MIRROR:-http://deb.debian.org/debian}
MANIFEST=$EK_VAR/host-packages
log() { printf 'install-deps: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

HOST_PKGS=(make gcc libc6-dev bc kmod fio dwarves sparse valgrind
	qemu-system-x86 busybox-static cpio udev dkms debootstrap xz-utils zstd
	python3 e2fsprogs procps util-linux shellcheck gnuplot-nox dbench blktrace
	man-db)
SID_PKGS=(make gcc-16 libc6-dev kmod dkms python3 dwarves xz-utils zstd
	ca-certificates)

simulate=0
# retry CMD...: a mirror hiccup should not fail a fresh machine's first run.
retry() {
	local n
	for n in 1 2 3; do
		"$@" && return 0
		log "attempt $n of '$*' failed"
		sleep $((n * 10))
	done
	return 1
}

host_release() ( . /etc/os-release && echo "${VERSION_CODENAME:-unknown}" )

# An earlier elvkit added trixie and sid sources to the host (pinned, but
# any `-t sid` install still pulled sid's libc): take them away for good.
remove_legacy_sources() {
	local f changed=0
	for f in /etc/apt/sources.list.d/elvkit.sources /etc/apt/preferences.d/elvkit \
		/var/lib/elvkit-apt-updated; do
		[ -e "$f" ] || continue
		log "removing $f (an older elvkit's sid/trixie source; it must not upgrade this host)"
		rm -f "$f"
		changed=1
	done
	[ $changed = 0 ] || rm -f "$EK_VAR/apt-updated"
}

# Once a day at most: lists older than that may name files the mirror dropped.
apt_update() {
	[ -z "$(find "$EK_VAR/apt-updated" -mmin -1440 2>/dev/null)" ] || return 0
	log "apt-get update"
	retry apt-get update -qq
	mkdir -p "$EK_VAR"
	touch "$EK_VAR/apt-updated"
}

# grep to the end, not -q: under pipefail a producer cut short by -q fails the test
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep 'install ok installed' >/dev/null; }
missing() {
	local p
	for p in "$@"; do have_pkg "${p%%/*}" || echo "$p"; done
}
installed_list() { dpkg-query -W -f='${Status} ${Package}\n' | awk '$3 == "installed" { print $4 }' | sort; }

# host_install PKG...: install on the host and record what was added, dependencies included.
host_install() {
	[ $# -gt 0 ] || return 0
	apt_update
	if [ $simulate = 1 ]; then
		apt-get -s install --no-install-recommends "$@"
		return
	fi
	local before
	before=$(mktemp)
	installed_list >"$before"
	log "apt-get install $*"
	retry apt-get install -y -qq --no-install-recommends "$@" >/dev/null
	mkdir -p "$EK_VAR"
	installed_list | comm -13 "$before" - >>"$MANIFEST"
	sort -u -o "$MANIFEST" "$MANIFEST"
	rm -f "$before"
}

host_pkgs_missing() { missing "${HOST_PKGS[@]}"; }

# Kernel packages of the host legs, as PKG or PKG/SUITE, for the missing ones.
kernel_pkgs_missing() {
	local leg spec suite p
	for leg in "${EK_KERNEL_LEGS[@]}"; do
		spec=$(k_leg_packages "$leg") || continue
		[ -z "$(k_leg_release "$leg")" ] || continue
		suite=${spec%% *}
		for p in ${spec#* }; do
			have_pkg "$p" && continue
			if [ "$suite" = "$(host_release)" ]; then echo "$p"; else echo "$p/$suite"; fi
		done
	done
}

private_ready() {
	local ver
	ver=$(k_leg_release newest)
	[ -n "$ver" ] && [ -x "$EK_SID_ROOT/usr/bin/gcc-16" ] && [ -x "$EK_SID_ROOT/usr/sbin/dkms" ] &&
		[ -n "$(k_vmlinuz "$ver" 2>/dev/null)" ]
}

plan() {
	local h k
	h=$(host_pkgs_missing | tr '\n' ' ')
	k=$(kernel_pkgs_missing | tr '\n' ' ')
	log "plan (host: Debian $(host_release); undo everything with 'make deps-clean'):"
	log "  host packages from $(host_release): ${h:-none missing}"
	log "  host test kernels: ${k:-none missing}"
	if private_ready; then
		log "  private root $EK_SID_ROOT: present ($(k_leg_release newest))"
	else
		log "  private root $EK_SID_ROOT (debootstrap sid, about 1 GB, nothing on the host):"
		log "    ${SID_PKGS[*]}, the newest kernel sid carries (image, modules, headers)"
	fi
}

install_host() {
	local m
	mapfile -t m < <(host_pkgs_missing)
	host_install "${m[@]}"
}

install_kernels() {
	local m
	mapfile -t m < <(kernel_pkgs_missing)
	host_install "${m[@]}"
}

# chroot_apt ROOT ARGS...: apt-get inside the private root.
chroot_apt() {
	local root=$1
	shift
	chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get -qq "$@"
}

# The private sid root: gcc-16, dkms, the newest kernel sid carries with its
# headers, image and modules. Starts from scratch when half-made, so a retry
# never builds on a broken root.
install_private() {
	private_ready && return 0
	local root=$EK_SID_ROOT
	command -v debootstrap >/dev/null || die "debootstrap is missing (install-deps.sh host)"
	if [ ! -x "$root/usr/bin/gcc-16" ] || [ ! -e "$root/etc/elvkit-root" ]; then
		log "debootstrapping sid into $root"
		retry make_sid_root "$root"
	fi
	cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
	retry chroot_apt "$root" update
	local hdr ver
	hdr=$(chroot "$root" apt-cache pkgnames linux-headers- |
		grep -E '^linux-headers-[0-9]+\.[0-9]+\.[0-9]+\+deb[0-9]+-amd64$' | sort -V | tail -n1)
	[ -n "$hdr" ] || die "sid carries no linux-headers-X.Y.Z+debN-amd64 package"
	ver=${hdr#linux-headers-}
	log "newest kernel in sid: $ver"
	retry chroot_apt "$root" install -y --no-install-recommends "$hdr" "${SID_PKGS[@]}" >/dev/null
	if [ ! -e "$root/lib/modules/$ver/vmlinuz" ] && [ ! -e "$root/boot/vmlinuz-$ver" ]; then
		fetch_sid_kernel "$root" "$ver"
	fi
	private_ready || die "the private root at $root is incomplete"
}

make_sid_root() {
	local root=$1
	if mountpoint -q "$root/proc" 2>/dev/null; then umount "$root/proc"; fi
	rm -rf "$root"
	mkdir -p "$root"
	debootstrap --variant=minbase --include="$(IFS=,; echo "${SID_PKGS[*]}")" \
		sid "$root" "$MIRROR" >/dev/null
	# sid's Release file may be past its Valid-Until on this mirror.
	echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99elvkit"
	echo "elvkit private root: sid, made by scripts/install-deps.sh" >"$root/etc/elvkit-root"
}

# The image and modules: unpacked into the root (no maintainer scripts: no
# initramfs or bootloader is wanted there), then depmod inside it.
fetch_sid_kernel() {
	local root=$1 ver=$2 dir pkgs d
	dir=$root/tmp/elvkit-kernel
	rm -rf "$dir"
	mkdir -p "$dir"
	if chroot "$root" apt-cache show "linux-binary-$ver" >/dev/null 2>&1; then
		pkgs=("linux-binary-$ver" "linux-modules-$ver")
	else
		pkgs=("linux-image-$ver-unsigned")
	fi
	log "fetching ${pkgs[*]} into $root"
	(cd "$dir" && retry chroot "$root" sh -c "cd /tmp/elvkit-kernel && apt-get download -qq ${pkgs[*]}")
	for d in "$dir"/*.deb; do dpkg-deb -x "$d" "$dir/x"; done
	mkdir -p "$root/lib/modules"
	cp -a "$dir/x/usr/lib/modules/$ver/." "$root/lib/modules/$ver/" 2>/dev/null ||
		cp -a "$dir/x/lib/modules/$ver/." "$root/lib/modules/$ver/"
	if [ ! -e "$root/lib/modules/$ver/vmlinuz" ] && [ -e "$dir/x/boot/vmlinuz-$ver" ]; then
		cp "$dir/x/boot/vmlinuz-$ver" "$root/lib/modules/$ver/vmlinuz"
	fi
	chroot "$root" depmod "$ver"
	rm -rf "$dir"
}

targets=()
for a in "$@"; do
	case "$a" in
	--simulate) simulate=1 ;;
	host | kernels | private | all) targets+=("$a") ;;
	*) echo "install-deps: unknown target '$a' (host, kernels, private, all, --simulate)" >&2; exit 2 ;;
	esac
done
[ ${#targets[@]} -gt 0 ] || targets=(all)
[ "$(id -u)" = 0 ] || die "must run as root (it installs packages)"

remove_legacy_sources
[ $simulate = 1 ] || plan
for t in "${targets[@]}"; do
	case "$t" in
	host) install_host ;;
	kernels) install_kernels ;;
	private) [ $simulate = 1 ] || install_private ;;
	all)
		if [ $simulate = 1 ]; then
			# One transaction, as a fresh machine would see it.
			mapfile -t all < <(host_pkgs_missing; kernel_pkgs_missing)
			host_install "${all[@]}"
		else
			install_host
			install_kernels
			install_private
		fi
		;;
	esac
done
