#!/usr/bin/env bash
# DKMS install/remove of elvkit, called by `make dkms-install` / `make
# dkms-remove` (scripts/install.mk). Root only.
#   dkms.sh install KVER     source to /usr/src/elvkit-<version>; dkms add,
#                            build and install for KVER
#   dkms.sh remove KVER|--all  remove for KVER (or every kernel); once no
#                            kernel has it, remove the source tree too
# A kernel of the private sid root is installed from inside that root
# (scripts/dkms-test.sh does so through chroot), never from the host.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/kernels.sh

die() { echo "dkms.sh: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "must run as root"
command -v dkms >/dev/null || die "dkms is not installed (scripts/install-deps.sh host)"

NAME=elvkit
VERSION=$(scripts/version.sh)
[ -n "$VERSION" ] || die "no ELVKIT_VERSION in include/elvkit/version.h"
SRC=${DKMS_SOURCE_TREE:-/usr/src}/$NAME-$VERSION
# What a DKMS build needs: the Makefile, Kbuild and everything they use.
PARTS=(Makefile Kbuild dkms.conf README.md include src scripts)

status() { dkms status -m "$NAME" -v "$VERSION" "$@" 2>/dev/null | grep -v '^$' || true; }

cmd=${1:-}
kver=${2:-}
case "$cmd" in
install)
	[ -n "$kver" ] || die "usage: dkms.sh install KVER"
	[ -d "/lib/modules/$kver" ] || die "kernel $kver is not installed"
	root=$(k_root "$kver") || die "no kernel headers for $kver"
	[ -z "$root" ] || die "kernel $kver lives in $root: run this inside it (chroot $root)"
	# Reinstalling replaces this kernel's copy with the current source.
	if [ -n "$(status -k "$kver")" ]; then
		dkms remove "$NAME/$VERSION" -k "$kver"
	fi
	rm -rf "$SRC"
	mkdir -p "$SRC"
	cp -a "${PARTS[@]}" "$SRC/"
	rm -rf "$SRC/build"
	[ -n "$(status)" ] || dkms add "$NAME/$VERSION"
	dkms build "$NAME/$VERSION" -k "$kver"
	dkms install "$NAME/$VERSION" -k "$kver"
	dkms status -m "$NAME" -v "$VERSION" -k "$kver"
	;;
remove)
	[ -n "$kver" ] || die "usage: dkms.sh remove KVER|--all"
	if [ "$kver" = --all ]; then
		[ -z "$(status)" ] || dkms remove "$NAME/$VERSION" --all
	elif [ -n "$(status -k "$kver")" ]; then
		dkms remove "$NAME/$VERSION" -k "$kver"
	else
		echo "dkms.sh: $NAME/$VERSION is not installed for $kver" >&2
	fi
	# Once no kernel has it, nothing of it stays: not in the DKMS tree and
	# not under /usr/src.
	if [ -z "$(status)" ]; then
		[ ! -d "/var/lib/dkms/$NAME/$VERSION" ] || dkms remove "$NAME/$VERSION" --all || true
		rm -rf "$SRC"
		rmdir "/var/lib/dkms/$NAME" 2>/dev/null || true
	fi
	;;
*) die "usage: dkms.sh install KVER | remove KVER|--all" ;;
esac
