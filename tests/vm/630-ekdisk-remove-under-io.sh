#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="removing busy ekdisk devices (nr_devices=0) completes or fails every request: fio ends, nothing hangs, the module unloads"
. "$(dirname "$0")/lib.sh"
ekdisk_load profile=hdd nr_devices=2 || fail "insmod ekdisk failed"
all_scheds ekdisk0 >/dev/null || fail "loading the schedulers failed"
# A deep queue in the scheduler, and an elvkit scheduler with its own timers.
s1=mq-deadline
case " $ELVKIT_SCHEDS " in *" anticipatory "*) s1=anticipatory ;; esac
set_sched ekdisk0 "$s1" || fail "could not select $s1"
set_sched ekdisk1 bfq || fail "could not select bfq"
out=$(mktemp -d)
pids=()
for d in ekdisk0 ekdisk1; do
	fio --name=busy --filename=/dev/$d --bs=4k --rw=randrw --direct=1 --ioengine=libaio \
		--iodepth=32 --numjobs=4 --time_based --runtime=60 --output-format=terse \
		>"$out/$d.txt" 2>&1 &
	pids+=($!)
done
# Until both devices are busy (fio starts slowly under TCG).
for _ in $(seq 1 60); do
	[ "$(ekstat "done" ekdisk0)" -gt 50 ] && [ "$(ekstat "done" ekdisk1)" -gt 50 ] && break
	sleep 0.5
done
sleep 1
stats=$(cat /sys/block/ekdisk0/ekdisk/stats)
t0=$SECONDS
# In the background: a removal stuck in the kernel cannot be killed, but the
# test can still say what is stuck.
(echo 0 >/sys/module/ekdisk/parameters/nr_devices) &
rm_pid=$!
for _ in $(seq 1 60); do
	kill -0 "$rm_pid" 2>/dev/null || break
	sleep 0.5
done
if kill -0 "$rm_pid" 2>/dev/null; then
	hung_report ekdisk0 ekdisk1
	fail "removing the devices took over 30 s"
fi
wait "$rm_pid" || fail "removing the devices failed"
echo "    removed in $((SECONDS - t0)) s; ekdisk0 had served: $stats"
! ls -d /sys/block/ekdisk* 2>/dev/null || fail "devices still there"
for p in "${pids[@]}"; do
	for _ in $(seq 1 40); do
		kill -0 "$p" 2>/dev/null || break
		sleep 0.5
	done
	if kill -0 "$p" 2>/dev/null; then
		kill -9 "$p"
		fail "fio still running 20 s after the removal"
	fi
	wait "$p"
done
echo "    fio: $(head -c 300 "$out/ekdisk0.txt" | tr '\n' ' ')"
# A device comes back; the module unloads.
echo 1 >/sys/module/ekdisk/parameters/nr_devices || fail "re-adding a device failed"
udevadm settle 2>/dev/null || true
dd if=/dev/ekdisk0 of=/dev/null bs=4k count=8 iflag=direct 2>/dev/null || fail "re-added device does not read"
ekdisk_unload || fail "rmmod ekdisk failed"
