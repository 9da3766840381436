#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="data written to an hdd-model ekdisk while switching through every scheduler reads back verified"
. "$(dirname "$0")/lib.sh"
ekdisk_load profile=hdd memory_backed=1 capacity_gb=1 || fail "insmod ekdisk failed"
all_scheds ekdisk0 >/dev/null || fail "loading the schedulers failed"
out=$(mktemp)
fio --name=switch --filename=/dev/ekdisk0 --size=4m --bs=4k --rw=randwrite \
	--direct=1 --ioengine=libaio --iodepth=32 --verify=crc32c --verify_fatal=1 \
	--loops=3 --output-format=terse >"$out" 2>&1 &
pid=$!
n=0
while kill -0 $pid 2>/dev/null && [ $n -lt 200 ]; do
	for s in $EKDISK_SCHEDS $ELVKIT_SCHEDS; do
		echo "$s" >"$(sched_file ekdisk0)" 2>/dev/null && n=$((n + 1))
		sleep 0.2
	done
done
wait $pid || { cat "$out"; fail "fio failed while switching"; }
errs=$(fio_errors "$out")
[ "$errs" = 0 ] || { cat "$out"; fail "$errs errors"; }
[ $n -gt 5 ] || fail "only $n switches before fio ended"
echo "    $n switches; $(cat /sys/block/ekdisk0/ekdisk/stats)"
set_sched ekdisk0 none
ekdisk_unload || fail "rmmod ekdisk failed"
