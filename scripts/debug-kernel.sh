#!/usr/bin/env bash
# Build a debug kernel for the reliability suite: Debian 12's own 6.1 source
# (linux-source-6.1, fetched with apt-get download and unpacked with dpkg -x:
# nothing is installed on the host) with a trimmed QEMU-guest config plus
# KASAN, lockdep (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP, hung-task and lockup
# detectors, list debugging, and fault injection (failslab, fail_make_request,
# null_blk's timeout/requeue injection). Everything lands in
# /var/lib/elvkit/debug-root (EK_VAR), never in /boot or /lib/modules:
#   debug-root/lib/modules/R/{vmlinuz,kernel/...,build -> the source tree}
# where scripts/lib/kernels.sh finds release R, so that
#   scripts/kbuild.sh R && scripts/vm-run.sh R && scripts/reliability.sh R
# build for it and boot it like any other leg.
# Usage: scripts/debug-kernel.sh [--jobs N]   (prints the release at the end)
set -euo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh
jobs=$(nproc)
case "${1:-}" in
--jobs) jobs=${2:?--jobs N} ;;
-h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
"") ;;
*) echo "debug-kernel: unknown argument $1" >&2; exit 2 ;;
esac
work=$EK_VAR/debug-kernel
root=$EK_DEBUG_ROOT
mkdir -p "$work" "$root"
t0=$SECONDS

# The kernel's build tools (flex, bison, libelf) are not host dependencies:
# when one is missing, build in a private Debian 12 root (debootstrap from
# the host's own release, like the sid root) instead of installing it.
broot=
missing=
for t in flex bison bc gcc make pahole; do command -v "$t" >/dev/null || missing+=" $t"; done
[ -e /usr/include/libelf.h ] || missing+=" libelf-dev"
[ -e /usr/include/openssl/ssl.h ] || missing+=" libssl-dev"
if [ -n "$missing" ]; then
	broot=$EK_VAR/debug-build-root
	echo "debug-kernel: host lacks$missing: building in $broot"
	if [ ! -x "$broot/usr/bin/flex" ]; then
		debootstrap --variant=minbase \
			--include=build-essential,flex,bison,bc,libelf-dev,libssl-dev,dwarves,cpio,kmod,python3,xz-utils \
			bookworm "$broot" "$(sed -n 's/^deb \(http[^ ]*\) bookworm main.*/\1/p' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | head -n1)"
	fi
	work=$broot/build
	mkdir -p "$work"
fi
# in_build CMD...: run CMD in the source tree, on the host or in the build root.
in_build() {
	if [ -z "$broot" ]; then
		(cd "$src" && "$@")
	else
		chroot "$broot" sh -c 'cd /build/src && exec "$@"' sh "$@"
	fi
}

# 1. The source, as Debian ships it.
if [ ! -e "$work/src/Makefile" ]; then
	(cd "$work" && rm -f linux-source-6.1_*.deb && apt-get download linux-source-6.1)
	rm -rf "$work/pkg" "$work/src"
	dpkg -x "$work"/linux-source-6.1_*.deb "$work/pkg"
	mkdir -p "$work/src"
	tar -xf "$work"/pkg/usr/src/linux-source-6.1.tar.xz -C "$work/src" --strip-components=1
	rm -rf "$work/pkg"
fi
src=$work/src

# 2. A trimmed config: x86_64 defconfig + KVM guest + what the guest suite
# boots with (9p root, overlay, virtio) + the test drivers + the debug options.
in_build make -s defconfig
in_build make -s kvm_guest.config
in_build scripts/config --set-str LOCALVERSION "-elvkit-debug" --disable LOCALVERSION_AUTO \
	--enable MODULES --enable MODULE_UNLOAD --disable MODULE_SIG \
	--enable BPF_SYSCALL --enable DEBUG_INFO_DWARF5 \
	--enable DEBUG_INFO_BTF --enable DEBUG_INFO_BTF_MODULES \
	--enable NET_9P --enable NET_9P_VIRTIO --enable 9P_FS --enable 9P_FS_POSIX_ACL \
	--enable OVERLAY_FS --enable TMPFS --enable DEVTMPFS --enable CONFIGFS_FS \
	--enable VIRTIO_PCI --enable VIRTIO_BLK --enable SERIAL_8250_CONSOLE \
	--enable BLK_DEBUG_FS --enable BLK_DEV_INTEGRITY \
	--module MQ_IOSCHED_DEADLINE --module MQ_IOSCHED_KYBER --module IOSCHED_BFQ \
	--module BLK_DEV_NULL_BLK --enable BLK_DEV_NULL_BLK_FAULT_INJECTION \
	--module BLK_DEV_BRD --enable SCSI --module BLK_DEV_SD --module SCSI_DEBUG \
	--enable HOTPLUG_CPU --enable MAGIC_SYSRQ --enable INOTIFY_USER --enable SIGNALFD \
	--enable KASAN --enable KASAN_GENERIC --enable KASAN_INLINE \
	--enable PROVE_LOCKING --enable DEBUG_ATOMIC_SLEEP --enable DEBUG_LIST \
	--enable DETECT_HUNG_TASK --set-val DEFAULT_HUNG_TASK_TIMEOUT 60 \
	--enable SOFTLOCKUP_DETECTOR --enable HARDLOCKUP_DETECTOR \
	--enable FAULT_INJECTION --enable FAILSLAB --enable FAIL_MAKE_REQUEST \
	--enable FAIL_IO_TIMEOUT --enable FAULT_INJECTION_DEBUG_FS \
	--enable DEBUG_FS
in_build make -s olddefconfig
# What the shim's layout check needs: without BTF the build stops there.
for opt in DEBUG_INFO_BTF DEBUG_INFO_BTF_MODULES KASAN PROVE_LOCKING FAILSLAB; do
	grep -q "^CONFIG_$opt=y" "$src/.config" ||
		{ echo "debug-kernel: CONFIG_$opt did not survive olddefconfig" >&2; exit 1; }
done
echo "debug-kernel: building with $jobs jobs in $src"

# 3. Build and lay out the private root. The release is known once the
# build has written it (kernelrelease before that omits LOCALVERSION).
in_build make -s -j"$jobs" bzImage modules
ver=$(cat "$src/include/config/kernel.release")
rm -rf "$root/lib/modules/$ver"
if [ -z "$broot" ]; then
	in_build make -s INSTALL_MOD_PATH="$root" modules_install
else
	rm -rf "$broot/build/modroot"
	in_build make -s INSTALL_MOD_PATH=/build/modroot modules_install
	mkdir -p "$root/lib/modules"
	mv "$broot/build/modroot/lib/modules/$ver" "$root/lib/modules/"
fi
cp "$src/arch/x86/boot/bzImage" "$root/lib/modules/$ver/vmlinuz"
ln -sfn "$src" "$root/lib/modules/$ver/build"
depmod -b "$root" "$ver"
echo "debug-kernel: $ver in $root/lib/modules/$ver ($(((SECONDS - t0) / 60)) min)"
echo "debug-kernel: next: scripts/kbuild.sh $ver && scripts/vm-run.sh $ver && scripts/reliability.sh $ver"
