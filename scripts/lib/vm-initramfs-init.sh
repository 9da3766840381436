#!/bin/busybox sh
# shellcheck shell=dash
# /init of the guest's initramfs (built by scripts/lib/vm.sh): mount the
# host's root read-only over 9p under a tmpfs overlay, share the writable
# directories at their own paths, bind a private module tree, then hand over
# to scripts/lib/vm-init.sh inside that root.
/bin/busybox --install -s /bin
export PATH=/bin
fail() {
	echo "elvkit-initramfs: $*"
	echo "elvkit-vm: exit 125"
	echo o >/proc/sysrq-trigger
	sleep 5
	exit 1
}
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in /mods/*.ko; do
	[ -e "$m" ] || continue
	insmod "$m" || echo "elvkit-initramfs: insmod $m failed"
done
read -r cmdline </proc/cmdline
for a in $cmdline; do
	case $a in
	elvkit_init=*) INIT=${a#*=} ;;
	elvkit_rw=*) RW=${a#*=} ;;
	elvkit_moddir=*) MODDIR=${a#*=} ;;
	esac
done
O=trans=virtio,version=9p2000.L,msize=262144
mount -t 9p -o "$O,ro,cache=loose" elvroot /host || fail "cannot mount the host root over 9p"
mount -t tmpfs -o mode=0755 tmpfs /up || fail "tmpfs"
mkdir -p /up/u /up/w
mount -t overlay overlay -o lowerdir=/host,upperdir=/up/u,workdir=/up/w /newroot ||
	fail "cannot mount the overlay root"
i=0
for p in $(echo "$RW" | tr , ' '); do
	mount -t 9p -o "$O" "rw$i" "/newroot$p" || fail "cannot mount $p writable"
	i=$((i + 1))
done
if [ -n "$MODDIR" ]; then
	k=$(uname -r)
	mkdir -p "/newroot/usr/lib/modules/$k"
	mount --bind "/newroot$MODDIR" "/newroot/usr/lib/modules/$k" || fail "cannot bind $MODDIR"
fi
mount --move /proc /newroot/proc
mount --move /sys /newroot/sys
mount --move /dev /newroot/dev
exec switch_root /newroot /bin/bash "$INIT"
