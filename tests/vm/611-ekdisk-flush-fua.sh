#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="ekdisk's hdd write cache: fsync sends flushes and O_SYNC sends FUA writes to the model, data verifies; wce=0 gets neither"
. "$(dirname "$0")/lib.sh"
out=$(mktemp)
for wce in 1 0; do
	ekdisk_load profile=hdd memory_backed=1 capacity_gb=1 params=wce=$wce ||
		fail "insmod ekdisk wce=$wce failed"
	fio --filename=/dev/ekdisk0 --bs=64k --verify=crc32c --verify_fatal=1 \
		--output-format=terse --ioengine=psync \
		--name=fsync --rw=write --size=4m --direct=1 --fsync=4 \
		--name=osync --stonewall --rw=write --size=4m --offset=4m --direct=1 --sync=1 \
		>"$out" 2>&1 || { cat "$out"; fail "wce=$wce: fio failed"; }
	errs=$(fio_errors "$out")
	[ "$errs" = 0 ] || { cat "$out"; fail "wce=$wce: $errs fio errors"; }
	st=$(cat /sys/block/ekdisk0/ekdisk/stats)
	echo "    wce=$wce: $(cat /sys/block/ekdisk0/queue/write_cache): $st"
	if [ $wce = 1 ]; then
		[ "$(ekstat flushes)" -gt 0 ] || fail "wce=1: no flush reached the model: $st"
		[ "$(ekstat fua)" -gt 0 ] || fail "wce=1: no FUA write reached the model: $st"
	else
		[ "$(ekstat flushes)/$(ekstat fua)" = 0/0 ] ||
			fail "wce=0: the block layer should send no flush or FUA: $st"
	fi
done
ekdisk_unload || fail "rmmod ekdisk failed"
