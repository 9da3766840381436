# shellcheck shell=bash
# Boot a supported kernel in QEMU (TCG) and run one command inside it: the
# one place the project boots a guest (the guest suite, the DKMS test, the
# benchmarks). Everything it uses comes from the host's own release: QEMU,
# busybox-static for a tiny initramfs. No virtme-ng.
#
# The guest's root is the host's root, read-only over 9p, under a tmpfs
# overlay: guest writes (/etc, /var, /lib/modules/*/updates, ...) land in
# memory and vanish with the guest. Directories given with --rw are shared
# writable at their own paths (results go there). A release whose modules
# live in a private root (the newest leg) has that tree bound at
# /lib/modules/RELEASE in the guest. Source scripts/lib/kernels.sh first.
#
#   vm_boot RELEASE SECONDS LOG [--rw DIR]... [--append PARAMS] -- CMD [ARG]...
#
# Runs CMD (from the current directory) with the guest console in LOG, and
# returns CMD's exit status; 124 when SECONDS passed first, 125 when the
# guest never got to run CMD.

EK_VM_CPUS=${EK_VM_CPUS:-2}
EK_VM_MEM=${EK_VM_MEM:-2G}
# EK_VM_ICOUNT=SHIFT: single-threaded TCG with -icount shift=SHIFT,sleep=off,
# so that guest time counts guest instructions (2^SHIFT ns each) and a
# CPU-bound measurement repeats exactly, whatever the host is doing.
EK_VM_ICOUNT=${EK_VM_ICOUNT:-}
# Kernel parameters for the boots that run the guest suite (tests/vm/guest.sh):
# the trace events tests read (081, 083) are on from boot, while one CPU
# runs. Turning an event on later patches kernel text (breakpoint first) on
# running CPUs, and under QEMU's multi-threaded TCG another vCPU executed
# such a breakpoint after the patch was done: "Oops: int3" in __schedule
# (the sched_switch tracepoint that recording an event turns on), 6.12,
# 083-requeue-dontprep, 2026-12-01. See trace_event_enable in tests/vm/lib.sh.
# shellcheck disable=SC2034 # read by the scripts that source this
EK_VM_SUITE_APPEND="trace_event=block:block_rq_insert,block:block_rq_requeue"
# Modules the initramfs needs to mount the host's root (their dependencies
# follow from modprobe); whatever a kernel builds in is skipped.
EK_VM_INITRD_MODULES=(virtio_pci 9pnet_virtio 9p overlay)
# shellcheck source=scripts/lib/kernel-bad.sh
. "$(dirname "${BASH_SOURCE[0]}")/kernel-bad.sh"

# _vm_initramfs RELEASE OUT: busybox, the 9p/overlay modules, and /init.
_vm_initramfs() {
	local ver=$1 out=$2 root d n=0 line f m base
	root=$(k_root "$ver") || return 1
	d=$(mktemp -d)
	mkdir -p "$d"/{bin,mods,proc,sys,dev,host,newroot,up}
	cp /bin/busybox "$d/bin/busybox"
	mknod "$d/dev/console" c 5 1
	for m in "${EK_VM_INITRD_MODULES[@]}"; do
		modprobe -d "${root:-/}" -S "$ver" --show-depends "$m" 2>/dev/null || true
	done | while read -r line; do
		case $line in insmod\ *) ;; *) continue ;; esac
		f=${line#insmod }
		f=${f%% *}
		base=$(basename "$f")
		base=${base%%.ko*}
		ls "$d"/mods/*-"$base".ko >/dev/null 2>&1 && continue
		n=$((n + 1))
		case $f in
		*.ko.xz) xz -dc "$f" ;;
		*.ko.zst) zstd -qdc "$f" ;;
		*.ko.gz) gzip -dc "$f" ;;
		*) cat "$f" ;;
		esac >"$d/mods/$(printf '%02d' "$n")-$base.ko"
	done
	cp scripts/lib/vm-initramfs-init.sh "$d/init"
	chmod 0755 "$d/init"
	(cd "$d" && find . | cpio -o -H newc --quiet) | gzip -1 >"$out.tmp" &&
		mv "$out.tmp" "$out"
	local rc=$?
	rm -rf "$d"
	return $rc
}

vm_boot() {
	local ver=$1 secs=$2 log=$3 img initrd moddir root cmdfile rw=() i=0 rc params=
	shift 3
	while [ $# -gt 0 ]; do
		case $1 in
		--rw) rw+=("$(cd "$2" && pwd)"); shift 2 ;;
		--append) params+=" $2"; shift 2 ;;
		--) shift; break ;;
		*) echo "vm_boot: unknown option $1" >&2; return 125 ;;
		esac
	done
	img=$(k_vmlinuz "$ver") || { echo "vm_boot: no kernel image for $ver" >&2; return 125; }
	root=$(k_root "$ver")
	mkdir -p build/vm
	# Cached per release and per version of the init script.
	initrd=build/vm/initrd-$ver-$(md5sum <scripts/lib/vm-initramfs-init.sh | cut -c1-8).gz
	if [ ! -s "$initrd" ]; then
		_vm_initramfs "$ver" "$initrd" || { echo "vm_boot: initramfs for $ver failed" >&2; return 125; }
	fi
	cmdfile=$(mktemp "$PWD/build/vm/cmd.XXXXXX")
	{
		printf 'cd %q || exit 125\n' "$PWD"
		printf 'exec'
		printf ' %q' "$@"
		printf '\n'
	} >"$cmdfile"
	moddir=
	[ -z "$root" ] || moddir=$root/lib/modules/$ver
	# tsc=reliable: under TCG on a loaded host the clocksource watchdog
	# misjudges the emulated TSC and switches clocksource mid-test.
	local append="console=ttyS0 panic=-1 quiet tsc=reliable rdinit=/init elvkit_init=$PWD/scripts/lib/vm-init.sh"
	append+=" elvkit_cmd=$cmdfile elvkit_moddir=$moddir"
	# shellcheck disable=SC2054 # commas belong to QEMU's option syntax
	local accel=(-accel tcg,thread=multi)
	# shellcheck disable=SC2054
	[ -z "$EK_VM_ICOUNT" ] ||
		accel=(-accel tcg,thread=single -icount "shift=$EK_VM_ICOUNT,sleep=off")
	# shellcheck disable=SC2054
	local args=(-machine pc "${accel[@]}" -cpu max -smp "$EK_VM_CPUS" -m "$EK_VM_MEM"
		-nographic -no-reboot -kernel "$img" -initrd "$initrd"
		-fsdev local,id=root,path=/,security_model=none,readonly=on,multidevs=remap
		-device virtio-9p-pci,fsdev=root,mount_tag=elvroot)
	local rwlist=
	for d in "${rw[@]}"; do
		args+=(-fsdev "local,id=rw$i,path=$d,security_model=none,multidevs=remap"
			-device "virtio-9p-pci,fsdev=rw$i,mount_tag=rw$i")
		rwlist+=${rwlist:+,}$d
		i=$((i + 1))
	done
	append+=" elvkit_rw=$rwlist$params"
	# Debugging: ELVKIT_VM_APPEND adds kernel parameters (e.g. nokaslr),
	# ELVKIT_VM_QEMU adds QEMU options (e.g. -monitor unix:/tmp/m,server,nowait).
	append+=${ELVKIT_VM_APPEND:+ $ELVKIT_VM_APPEND}
	# shellcheck disable=SC2206 # word splitting of the debug options is wanted
	args+=(${ELVKIT_VM_QEMU:-})
	local boot
	for boot in 1 2; do
		timeout "$secs" qemu-system-x86_64 "${args[@]}" -append "$append" </dev/null >"$log" 2>&1
		rc=$?
		if [ $rc -eq 124 ] || [ $boot = 2 ] || ! vm_died_booting "$log"; then
			break
		fi
		cp "$log" "$log.boot1"
		echo "vm_boot: $ver died while booting, before anything of its command ran (console: $log.boot1); booting again" >&2
	done
	rm -f "$cmdfile"
	[ $rc -ne 124 ] || return 124
	# The guest prints its command's status last (the console adds \r).
	rc=$(tr -d '\r' <"$log" | sed -n 's/^elvkit-vm: exit \([0-9]*\)$/\1/p' | tail -n1)
	[ -n "$rc" ] || return 125
	return "$rc"
}

# vm_died_booting LOG: the kernel logged in LOG reported a bug before the
# guest's init got to the command (its "elvkit-vm: start" line). Nothing
# of elvkit has run then. Under QEMU's multi-threaded TCG, Debian's 6.12
# has died so while patching its own text at boot: another vCPU executed
# the breakpoint of a finished patch ("Oops: int3" in sched_clock_cpu
# from sched_init_debug, once in 7 boots on 2026-12-02), a defect of
# the emulation (cross-modifying code) that vm_boot meets with one more
# boot. A kernel that dies so every time still fails.
vm_died_booting() {
	local text
	text=$(tr -d '\r' <"$1")
	# Not anchored: the line follows the console's reset sequences.
	! grep -q 'elvkit-vm: start$' <<<"$text" && grep -qE "$KERNEL_BAD" <<<"$text"
}

# vm_emulator_fault LOG: the kernel logged in LOG saved, in a report's
# register dump, an EFLAGS with a reserved bit set (bits 22-31: no x86 CPU
# sets them, the hardware writes them as 0). Print that line. Under QEMU's
# multi-threaded TCG, Debian's 6.12 died so three times in
# kmem_cache_alloc_noprof ("Fatal exception in interrupt"; EFLAGS 8de39b82,
# 91bb2f02 under the kernel's bfq, cb9b6b02 under an elvkit scheduler): the
# emulator restored the flags from the wrong state, with the trap flag
# among them (README, "Guest-side hazard: flags no CPU writes").
vm_emulator_fault() {
	local f
	for f in $(tr -d '\r' <"$1" | sed -n 's/.* EFLAGS: \([0-9a-f]\{1,16\}\)\b.*/\1/p'); do
		if (((16#$f & ~16#3fffff) != 0)); then
			tr -d '\r' <"$1" | grep -m1 "EFLAGS: $f"
			return 0
		fi
	done
	return 1
}

# vm_unfinished WHO LOG RC: on stderr, that the guest run logged in LOG
# ended (status RC) before its command was done, and why as far as the
# console tells: the step it was on (a line "elvkit-guest: running STEP"),
# the kernel's first report with the lines that follow it (an oops and its
# call trace), and the console's last lines.
vm_unfinished() {
	local who=$1 log=$2 rc=$3 text step at
	text=$(tr -d '\r' <"$log")
	echo "$who: the guest did not finish (exit $rc)" >&2
	step=$(printf '%s\n' "$text" | sed -n 's/^elvkit-guest: running //p' | tail -n1)
	[ -z "$step" ] || echo "$who: it was running $step" >&2
	at=$(printf '%s\n' "$text" | grep -n -m1 -E "$KERNEL_BAD" | cut -d: -f1)
	if [ -n "$at" ]; then
		echo "$who: the kernel's first report (console line $at):" >&2
		printf '%s\n' "$text" | sed -n "$((at > 5 ? at - 5 : 1)),$((at + 70))p" >&2
	fi
	echo "$who: console tail:" >&2
	printf '%s\n' "$text" | tail -n 30 >&2
}
