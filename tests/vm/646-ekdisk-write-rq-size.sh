#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by guest.sh
DESCRIPTION="buffered writeback reaches ekdisk in requests of more than 128 KiB, as on a disk whose page cache has 4 KiB blocks"
. "$(dirname "$0")/lib.sh"
ekdisk_load profile=hdd || fail "insmod ekdisk failed"
trap 'set_sched ekdisk0 none; ekdisk_unload' EXIT
set_sched ekdisk0 mq-deadline || fail "could not select mq-deadline"
# writes completed and sectors written (/sys/block/DEV/stat fields 5 and 7)
wstat() { awk '{print $5, $7}' /sys/block/ekdisk0/stat; }
read -r n0 s0 <<<"$(wstat)"
fio --name=w --filename=/dev/ekdisk0 --rw=write --bs=128k --direct=0 \
	--size=32m --offset=1g --end_fsync=1 >/dev/null 2>&1 || fail "fio failed"
read -r n1 s1 <<<"$(wstat)"
[ "$n1" -gt "$n0" ] || fail "no write reached the device"
kb=$(((s1 - s0) / 2 / (n1 - n0)))
echo "    32 MiB of buffered writes: $((n1 - n0)) requests, $kb KiB each" \
	"(max_sectors_kb $(cat /sys/block/ekdisk0/queue/max_sectors_kb)," \
	"max_segments $(cat /sys/block/ekdisk0/queue/max_segments))"
# With 1 KiB page-cache blocks (a capacity not in whole 4 KiB) each bio is
# 1 KiB and one segment: 128 segments make 128 KiB.
[ "$kb" -gt 256 ] || fail "$kb KiB per write request: the page cache's blocks are smaller than 4 KiB"
