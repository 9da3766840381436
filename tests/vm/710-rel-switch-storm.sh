#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="switch storm: 150 (full: 1500) switches among every scheduler while fio runs random and sequential, direct and buffered reads and writes, all verified"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rel-lib.sh"
load_modules || fail "insmod failed"
want=$(rel_n 150)
read -ra all < <(rel_all_scheds "$DEV")
[ "${#all[@]}" -ge 3 ] || fail "only ${#all[@]} schedulers: ${all[*]}"
echo "schedulers: ${all[*]}"
# shellcheck disable=SC2317 # called by the EXIT trap (rel-lib.sh)
rel_cleanup() { set_sched "$DEV" none 2>/dev/null; }

# 64..80 and 80..96 MiB are written once, in the block sizes the read jobs
# use (a verify header covers one written block); they verify them every round.
set_sched "$DEV" none
rel_fio prefill --filename="/dev/$DEV" --rw=write --direct=1 --verify=crc32c --do_verify=0 \
	--name=seq --offset=64m --size=16m --bs=32k \
	--name=rand --offset=80m --size=16m --bs=4k || fail "prefill"
rel_fio_ok prefill

round() {
	rel_fio "storm$1" --filename="/dev/$DEV" --verify=crc32c --verify_fatal=1 \
		--name=randw-direct --offset=0 --size=8m --bs=4k --rw=randwrite --direct=1 \
		--ioengine=libaio --iodepth=16 --verify_backlog=64 \
		--name=seqw-direct --offset=16m --size=16m --bs=64k --rw=write --direct=1 \
		--ioengine=libaio --iodepth=8 \
		--name=randw-buffered --offset=40m --size=4m --bs=4k --rw=randwrite --direct=0 \
		--ioengine=psync --end_fsync=1 \
		--name=seqw-buffered --offset=48m --size=8m --bs=16k --rw=write --direct=0 \
		--ioengine=psync --end_fsync=1 \
		--name=seqr-buffered --offset=64m --size=16m --bs=32k --rw=read --direct=0 \
		--ioengine=psync \
		--name=randr-direct --offset=80m --size=16m --bs=4k --rw=randread --direct=1 \
		--ioengine=libaio --iodepth=8 --number_ios=2048
}

n=0 fails=0 r=0 i=0
declare -A per
while [ "$n" -lt "$want" ]; do
	r=$((r + 1))
	round "$r" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null && [ "$n" -lt "$want" ]; do
		# every scheduler in turn, the order shuffled per pass
		if [ $((i % ${#all[@]})) = 0 ]; then
			mapfile -t order < <(printf '%s\n' "${all[@]}" | shuf)
		fi
		s=${order[$((i % ${#all[@]}))]}
		i=$((i + 1))
		if echo "$s" >"$(sched_file "$DEV")" 2>/dev/null; then
			n=$((n + 1))
			per[$s]=$((${per[$s]:-0} + 1))
		else
			fails=$((fails + 1))
		fi
		sleep 0.0$((RANDOM % 10))
	done
	rel_wait_pid "$pid" 300
	[ $? != 124 ] || { rel_hung_report "$DEV"; fail "fio round $r hung"; }
	rel_fio_ok "storm$r"
done
for s in "${all[@]}"; do
	echo "  $s: ${per[$s]:-0} switches"
	[ "${per[$s]:-0}" -gt 0 ] || fail "never switched to $s"
done
echo "$n switches in $r fio rounds; $fails refused"
[ "$fails" = 0 ] || fail "$fails switches refused"
rel_metric load switches "$n"
rel_metric load devices 1
exit 0
