#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="switching away from the scheduler while its wait or idle timer is pending (a reader mid-anticipation) loses no I/O; the readers verify"
PER_SCHED=1
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rel-lib.sh"
load_modules || fail "insmod failed"
want=$(rel_n 8)
# shellcheck disable=SC2317 # called by the EXIT trap (rel-lib.sh)
rel_cleanup() {
	[ -z "${pid:-}" ] || rel_signal TERM "$pid"
	set_sched "$DEV" none 2>/dev/null
}
# REL_OTHERS: the schedulers to switch to; by default every one the kernel
# offers (none, its own and elvkit's) but SCHED.
others=()
for s in ${REL_OTHERS:-$(rel_all_scheds "$DEV")}; do [ "$s" = "$SCHED" ] || others+=("$s"); done

set_sched "$DEV" none
rel_fio prefill --name=prefill --filename="/dev/$DEV" --offset=128m --size=32m \
	--bs=4k --rw=write --direct=1 --ioengine=libaio --iodepth=16 --verify=crc32c --do_verify=0 || fail "prefill"
rel_fio_ok prefill
set_sched "$DEV" "$SCHED" || fail "select $SCHED"
rel_tune_waits "$DEV" "$SCHED"

# A thinking sequential reader (the one anticipated), a random reader whose
# requests queue behind the wait, and a buffered writer.
rel_fio pending --filename="/dev/$DEV" --time_based --runtime=900 --verify=crc32c \
	--name=thinker --offset=128m --size=16m --bs=4k --rw=read --direct=1 \
	--ioengine=psync --thinktime=20000 \
	--name=random --offset=144m --size=16m --bs=4k --rw=randread --direct=1 \
	--ioengine=psync \
	--name=writer --offset=192m --size=16m --bs=64k --rw=write --direct=0 \
	--ioengine=psync --verify_backlog=32 &
pid=$!
sleep 1
n=0 with_wait=0 counted=0
for ((k = 0; k < want; k++)); do
	p=$(rel_waits_pending "$DEV")
	if [ -n "$p" ]; then
		counted=1
		# catch the scheduler mid-wait (a few tries)
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			[ "${p:-0}" -gt 0 ] && break
			p=$(rel_waits_pending "$DEV")
		done
	fi
	to=${others[$((k % ${#others[@]}))]}
	rel_log "switch $k: $SCHED -> $to, waits pending: ${p:-?}"
	set_sched "$DEV" "$to" || fail "switch $SCHED -> $to (wait pending: ${p:-?})"
	n=$((n + 1))
	[ "${p:-0}" -le 0 ] || with_wait=$((with_wait + 1))
	kill -0 "$pid" 2>/dev/null || fail "fio ended during the switches"
	sleep 0.1
	set_sched "$DEV" "$SCHED" || fail "switch back to $SCHED"
	n=$((n + 1))
	rel_tune_waits "$DEV" "$SCHED"
	sleep 0.$((2 + RANDOM % 3))
done
rel_log "stopping fio"
rel_signal INT "$pid"
rel_wait_pid "$pid" 120
if [ $? = 124 ]; then
	rel_hung_report "$DEV"
	# Tell a lost wake-up (the queue is never run again) from a policy that
	# keeps refusing: a tunable write makes the shim run the queue.
	f=$(iosched_dir "$DEV")/$(tunable_table "$SCHED" | awk 'NR == 1 {print $1}')
	v=$(cat "$f") && echo "$v" >"$f"
	rel_wait_pid "$pid" 20
	if [ $? = 124 ]; then
		fail "fio did not stop: I/O stuck in $SCHED, still stuck after a queue run"
	fi
	pid=
	fail "fio did not stop: I/O stuck in $SCHED until a tunable write ran the queue (a lost queue run)"
fi
pid=
rel_fio_ok pending
echo "$n switches, $with_wait of them away from $SCHED while a wait was pending"
if [ "$counted" = 1 ]; then
	[ "$with_wait" -gt 0 ] || fail "no switch caught a pending wait"
	rel_metric fault switch_with_wait_pending "$with_wait"
else
	echo "$SCHED has no wait counters: switched with requests queued"
	rel_metric fault switch_with_requests_queued "$((n / 2))"
fi
rel_metric load switches "$n"
exit 0
