# shellcheck shell=bash
# Shared facts about the kernel matrix, sourced by the scripts.
# Kernels are found by what is installed, not hard-coded release strings.

K72_ROOT=${K72_ROOT:-/var/lib/elvkit/sid-root}

# Newest installed release of a series ("6.1", "6.12", "7.2"), or nothing.
k_release() {
	local series=$1 d
	for d in /lib/modules/"$series".*-amd64; do
		[ -d "$d" ] || continue
		# The generic flavour only: -rt and -cloud differ in config.
		case "$d" in *-rt-amd64 | *-cloud-amd64) continue ;; esac
		basename "$d"
	done | sort -V | tail -n1
}
k61_release() { k_release 6.1; }
k612_release() { k_release 6.12; }
k72_release() { k_release 7.2; }

# The kernel image to boot for a release.
k_vmlinuz() {
	local ver=$1
	if [ -e "/boot/vmlinuz-$ver" ]; then echo "/boot/vmlinuz-$ver"
	elif [ -e "/lib/modules/$ver/vmlinuz" ]; then echo "/lib/modules/$ver/vmlinuz"
	else return 1; fi
}

# Where a release's kbuild tree lives: the host when its headers are installed
# there, else the sid build root (7.2's headers need sid's gcc-16).
# Prints the root directory ("" for the host).
k_build_root() {
	local ver=$1
	if [ -e "/lib/modules/$ver/build/Makefile" ]; then echo ""
	elif [ -e "$K72_ROOT/lib/modules/$ver/build/Makefile" ]; then echo "$K72_ROOT"
	else return 1; fi
}

