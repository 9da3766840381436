#!/usr/bin/env bash
# Install everything elvkit's build and tests need, idempotently: host tools,
# the Debian 6.1 and 6.12 kernels with headers, the sid 7.2 kernel image and a
# sid build root with gcc-16 and 7.2 headers. Skips whatever is present.
# Usage: scripts/install-deps.sh [host|k61|k612|k72|all]...   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh

export DEBIAN_FRONTEND=noninteractive
log() { printf 'install-deps: %s\n' "$*" >&2; }

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

apt_sources() {
	local f=/etc/apt/sources.list.d/elvkit.sources p=/etc/apt/preferences.d/elvkit
	if [ ! -f "$f" ]; then
		log "adding bookworm-backports, trixie, sid sources"
		cat >"$f" <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports trixie sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
		rm -f /var/lib/elvkit-apt-updated
	fi
	if [ ! -f "$p" ]; then
		cat >"$p" <<'PIN'
# elvkit: never upgrade the host from newer suites by accident.
Package: *
Pin: release n=trixie
Pin-Priority: 100

Package: *
Pin: release n=sid
Pin-Priority: 100

Package: *
Pin: release a=unstable
Pin-Priority: 100
PIN
	fi
	if [ ! -f /var/lib/elvkit-apt-updated ]; then
		log "apt-get update"
		retry apt-get update -qq
		touch /var/lib/elvkit-apt-updated
	fi
}

have_pkgs() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || return 1
	done
}

apt_install() {
	# apt_install [-t suite] pkg...
	local tgt=()
	if [ "$1" = -t ]; then tgt=(-t "$2"); shift 2; fi
	have_pkgs "$@" && return 0
	apt_sources
	log "apt-get install ${tgt[*]} $*"
	retry apt-get install -y -qq --no-install-recommends "${tgt[@]}" "$@" >/dev/null
}

install_host() {
	apt_install make gcc libc6-dev bc kmod fio dwarves sparse valgrind \
		qemu-system-x86 qemu-utils busybox-static udev dkms debootstrap \
		xz-utils python3 e2fsprogs procps util-linux shellcheck
	if ! command -v vng >/dev/null; then
		apt_install -t sid virtme-ng
	fi
}

install_k61() {
	apt_install linux-image-amd64 linux-headers-amd64
}

install_k612() {
	apt_install -t bookworm-backports linux-image-6.12-amd64 linux-headers-6.12-amd64
}

install_k72() {
	local ver
	ver=$(k72_release || true)
	if [ -z "$ver" ] || [ ! -e "/lib/modules/$ver/vmlinuz" ]; then
		apt_sources
		local dir pkgs
		dir=$(mktemp -d)
		pkgs=$(apt-cache pkgnames linux-binary-7.2 | grep -E '^linux-binary-7\.2\.[0-9]+\+deb[0-9]+-amd64$' | sort -V | tail -n1)
		[ -n "$pkgs" ] || { log "no linux-binary-7.2.*-amd64 package in sid"; return 1; }
		ver=${pkgs#linux-binary-}
		log "fetching 7.2 kernel $ver from sid"
		(cd "$dir" && retry apt-get download -qq "linux-binary-$ver" "linux-modules-$ver")
		for d in "$dir"/*.deb; do dpkg-deb -x "$d" "$dir/root"; done
		cp -a "$dir/root/usr/lib/modules/$ver" /usr/lib/modules/
		[ -e "/lib/modules/$ver/vmlinuz" ] || cp "$dir"/root/boot/vmlinuz-"$ver" "/lib/modules/$ver/vmlinuz" 2>/dev/null || true
		depmod "$ver"
		rm -rf "$dir"
	fi
	local root=$K72_ROOT
	if [ ! -e "$root/lib/modules/$ver/build/Makefile" ] || [ ! -x "$root/usr/bin/gcc-16" ]; then
		log "debootstrapping sid build root at $root (gcc-16, linux-headers-$ver)"
		retry make_sid_root "$root" "$ver"
	fi
}

# A sid root holding gcc-16 and RELEASE's headers; starts from scratch so
# that a retry never builds on a half-made root.
make_sid_root() {
	local root=$1 ver=$2
	if mountpoint -q "$root/proc" 2>/dev/null; then umount "$root/proc"; fi
	rm -rf "$root"
	mkdir -p "$(dirname "$root")"
	debootstrap --variant=minbase \
		--include=make,gcc-16,libc6-dev,linux-headers-"$ver" \
		sid "$root" http://deb.debian.org/debian >/dev/null
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(all)
for t in "${targets[@]}"; do
	case "$t" in
	host) install_host ;;
	k61) install_k61 ;;
	k612) install_k612 ;;
	k72) install_k72 ;;
	all) install_host; install_k61; install_k612; install_k72 ;;
	*) echo "install-deps: unknown target '$t'" >&2; exit 2 ;;
	esac
done
