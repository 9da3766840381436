#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="fio verify on a memory-backed ekdisk passes through none, mq-deadline, kyber, bfq and every elvkit scheduler"
. "$(dirname "$0")/lib.sh"
ekdisk_load profile=ssd memory_backed=1 capacity_gb=1 || fail "insmod ekdisk failed"
offered=$(all_scheds ekdisk0) || fail "loading the schedulers failed"
out=$(mktemp)
for s in $EKDISK_SCHEDS $ELVKIT_SCHEDS; do
	case " $offered " in *" $s "*) ;; *) fail "$s not offered: $offered" ;; esac
	set_sched ekdisk0 "$s" || fail "could not select $s"
	# One fio process per scheduler (fio starts slowly under TCG).
	fio --filename=/dev/ekdisk0 --bs=4k --verify=crc32c --verify_fatal=1 \
		--output-format=terse --direct=1 --ioengine=libaio \
		--name=randwrite --rw=randwrite --size=4m --iodepth=16 \
		--name=seqwrite --stonewall --rw=write --size=4m --offset=4m --bs=64k --iodepth=8 \
		--name=mixed --stonewall --rw=randrw --size=2m --offset=8m --numjobs=2 \
		--offset_increment=2m --iodepth=32 \
		--name=buffered --stonewall --rw=randwrite --size=2m --offset=12m --direct=0 \
		--ioengine=psync >"$out" 2>&1 || { cat "$out"; fail "$s: fio failed"; }
	errs=$(fio_errors "$out")
	[ "$errs" = 0 ] || { cat "$out"; fail "$s: $errs fio errors"; }
	echo "    $s: verified ($(cat /sys/block/ekdisk0/ekdisk/stats))"
done
# Every request done is counted once in the timer's lateness histogram:
# 16 buckets, a power of two of us each, the last open ("inf").
hist=/sys/block/ekdisk0/ekdisk/late_hist
read -r -a st </sys/block/ekdisk0/ekdisk/stats
awk -v done="${st[9]}" '{ n++; sum += $2; last = $1 }
	END { exit !(n == 16 && last == "inf" && sum == done && done > 0) }' "$hist" ||
	fail "late_hist does not count the ${st[9]} requests done: $(tr '\n' ' ' <"$hist")"
echo "    late_hist (us, count): $(tr '\n' ' ' <"$hist")"
set_sched ekdisk0 none
ekdisk_unload || fail "rmmod ekdisk failed"
