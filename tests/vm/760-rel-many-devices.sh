#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="64 null_blk devices, each on an elvkit scheduler, all under verified fio at once; memory per device reported"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rel-lib.sh"
ndev=64
size=$(rel_n 1)
load_modules || fail "insmod failed"
read -ra scheds <<<"$ELVKIT_SCHEDS"
devs=()
# shellcheck disable=SC2317 # called by the EXIT trap (rel-lib.sh)
rel_cleanup() {
	local i
	for d in "${devs[@]}"; do echo none >"$(sched_file "$d")" 2>/dev/null; done
	for ((i = 0; i < ndev; i++)); do nullb_remove "relmany$i"; done
}
kb() { awk -v k="$1:" '$1 == k {print $2}' /proc/meminfo; }
for ((i = 0; i < ndev; i++)); do
	d=$(rel_nullb_create "relmany$i" 16 hw_queue_depth=16) || fail "null_blk device $i"
	devs+=("$d")
done
for d in "${devs[@]}"; do bdev_node "$d" || fail "/dev/$d"; done
sync
echo 3 >/proc/sys/vm/drop_caches
slab0=$(kb Slab) used0=$(($(kb MemTotal) - $(kb MemFree)))
for i in "${!devs[@]}"; do
	s=${scheds[$((i % ${#scheds[@]}))]}
	set_sched "${devs[$i]}" "$s" || fail "select $s on ${devs[$i]}"
done
slab1=$(kb Slab) used1=$(($(kb MemTotal) - $(kb MemFree)))
slab_per=$(((slab1 - slab0) / ndev)) used_per=$(((used1 - used0) / ndev))
echo "memory per device for its elvkit scheduler (none -> elvkit, $ndev devices):" \
	"Slab +$slab_per KiB, used +$used_per KiB"
for s in "${scheds[@]}"; do
	echo "  $s: refcnt $(cat "/sys/module/${s//-/_}/refcnt")"
done

args=()
for d in "${devs[@]}"; do
	args+=(--name="$d" --filename="/dev/$d")
done
rel_fio many --size="${size}m" --bs=4k --rw=randwrite --direct=1 --ioengine=libaio \
	--iodepth=4 --verify=crc32c --verify_backlog=32 "${args[@]}" &
pid=$!
sleep 2
inflight=0
for d in "${devs[@]}"; do
	read -r r w <"/sys/block/$d/inflight"
	[ $((r + w)) = 0 ] || inflight=$((inflight + 1))
done
echo "devices with I/O in flight at one sample: $inflight of $ndev"
rel_wait_pid "$pid" 600
[ $? != 124 ] || { rel_hung_report "$DEV"; fail "fio on $ndev devices hung"; }
rel_fio_ok many
for d in "${devs[@]}"; do echo none >"$(sched_file "$d")" || fail "$d back to none"; done
rel_metric load devices "$ndev"
rel_metric load mem_kib_per_device_slab "$slab_per"
rel_metric load mem_kib_per_device_used "$used_per"
exit 0
