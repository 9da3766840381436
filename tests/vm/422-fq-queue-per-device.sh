#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by guest.sh
DESCRIPTION="fair-queue: two processes that alternate their I/O between two devices get a queue of their own on each device (each device raises both as new), and what they wrote reads back verified"
. "$(dirname "$0")/lib.sh"
need_sched fair-queue
load_modules || fail "insmod failed"
[ -d "$NULLB_CFS" ] || skip "null_blk has no configfs"
# The shim takes a process's io_cq from its io_context's hint, the one it
# used last, when that is this queue's, and asks the kernel otherwise.
# Alternating devices with every request, the hint is the other device's
# every time: each request takes the kernel's path, and a hint taken for
# the wrong queue would hand one device's process queue to the other's
# scheduler. That device would then see no new process (no raise), or
# worse.
out=$(mktemp)
trap 'rm -f "$out"; nullb_remove fqdev_a; nullb_remove fqdev_b' EXIT
devs=()
for n in fqdev_a fqdev_b; do
	d=$(nullb_create "$n" size=64 memory_backed=1 irqmode=0) ||
		fail "cannot create null_blk device $n"
	set_sched "$d" fair-queue || fail "could not select fair-queue on $d"
	devs+=("$d")
done
declare -A r0
for d in "${devs[@]}"; do r0[$d]=$(cat "$(iosched_dir "$d")/raises"); done

# Two jobs (processes), each writing then verifying its own 16 MiB of
# both devices, one request per device in turn (file_service_type).
timeout 300 fio --output-format=terse --output="$out" \
	--filename="/dev/${devs[0]}:/dev/${devs[1]}" --file_service_type=roundrobin \
	--direct=1 --ioengine=libaio --iodepth=4 --rw=randwrite --bs=4k \
	--size=32m --verify=crc32c --do_verify=1 --verify_fatal=1 \
	--name=a --offset=0 --name=b --offset=16m || { cat "$out"; fail "fio failed"; }
errs=$(fio_errors "$out")
[ "$errs" = 0 ] || { cat "$out"; fail "$errs errors"; }

for d in "${devs[@]}"; do
	s=$(iosched_dir "$d")
	raises=$(($(cat "$s/raises") - ${r0[$d]}))
	w=$(cat "$s/dispatched_writes")
	echo "    $d: raises $raises, dispatched_writes $w, reads $(cat "$s/dispatched_reads"), queue_switches $(cat "$s/queue_switches")"
	[ "$w" -ge 4096 ] || fail "$d: $w writes dispatched of the 8192 written to it"
	# Each process is new to each device once; it never idles for 2 s.
	[ "$raises" -ge 2 ] ||
		fail "$d: $raises raises: not every process got a queue of its own here"
	[ "$raises" -le 4 ] || fail "$d: $raises raises for 2 processes that stayed busy"
done
