#!/bin/bash
# PID 1 of the guest booted by scripts/lib/vm.sh, in the host's root (under
# an overlay): a minimal system (tmpfs, udev, debugfs, configfs), then the
# command from the file named by elvkit_cmd=, with its exit status printed
# last on the console for the host to read. Then power off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8
cmd=
read -ra words </proc/cmdline
for a in "${words[@]}"; do
	case $a in elvkit_cmd=*) cmd=${a#*=} ;; esac
done

# No tmpfs over /tmp: the checkout under test may live there (a CI clone),
# and the overlay root already keeps guest writes in memory.
mount -t tmpfs -o mode=0755 tmpfs /run
mkdir -p /run/lock /run/udev /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
modprobe configfs 2>/dev/null
mount -t configfs configfs /sys/kernel/config 2>/dev/null
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
hostname elvkit-vm
echo 1 >/proc/sys/kernel/sysrq
ln -sf /proc/self/fd /dev/fd 2>/dev/null

# udev: tests settle on it, and ioschedctl's persisted rules are applied by it.
udevd=/lib/systemd/systemd-udevd
if [ -x "$udevd" ]; then
	"$udevd" --daemon --resolve-names=never >/dev/null 2>&1
	udevadm trigger --type=subsystems --action=add >/dev/null 2>&1
	udevadm trigger --type=devices --action=add >/dev/null 2>&1
	udevadm settle --timeout=30 >/dev/null 2>&1
fi

rc=125
# The host's mark that the kernel booted (vm_died_booting).
echo "elvkit-vm: start"
if [ -r "$cmd" ]; then
	bash "$cmd" </dev/null
	rc=$?
else
	echo "elvkit-vm: no command file '$cmd'"
fi
sync
echo "elvkit-vm: exit $rc"
# PID 1 must outlive the power-off, and without a program from the root:
# the power-off takes the 9p root away, an exec of sleep then failed (127)
# and the kernel logged "Kernel panic - Attempted to kill init" on every
# boot (6.1, 6.12). A read with a timeout on a FIFO in /run is bash alone.
# Should the power-off not come in 30 s, PID 1 ends: the kernel panics and
# QEMU (-no-reboot) exits all the same.
mkfifo /run/elvkit-poweroff
echo o >/proc/sysrq-trigger
read -rt 30 <>/run/elvkit-poweroff
