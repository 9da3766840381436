#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="a read the driver sends back without RQF_DONTPREP (ekdisk's requeue, re-inserted 1.5 s later) is off the device for the scheduler meanwhile: a running writer goes on (anticipatory held it for the read to complete), and the read returns its data"
PER_SCHED=1
# blk-mq re-inserts such a request from its requeue list's work, after a
# delay the driver chooses (blk_mq_delay_kick_requeue_list). The shim
# tells the policy at the requeue (requeue_request), as bfq does; it
# used to wait for the re-insert, and anticipatory counted the read on
# the device until then: the writer's next write, a direction switch,
# waited for that read to drain.
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"
out=$(mktemp) data=$(mktemp) back=$(mktemp)
trap 'ekdisk_unload; rm -f "$out" "$data" "$back"' EXIT
ekdisk_load profile=null memory_backed=1 capacity_gb=1 || fail "insmod ekdisk failed"
set_sched ekdisk0 "$SCHED" || fail "could not select $SCHED"
rq=/sys/block/ekdisk0/ekdisk/requeue
[ -e "$rq" ] || fail "no $rq"

# bad input is refused, and the old setting kept
for bad in "x" "5 x" "5 60001" "-1" "1 2 3" ""; do
	echo "$bad" >"$rq" 2>/dev/null && fail "requeue accepted '$bad'"
done
[ "$(cat "$rq")" = "off 0 0" ] || fail "requeue after bad input: $(cat "$rq")"

# 4 KiB at 512 MiB (sector 1048576), away from what udev's probe reads,
# hold known data
head -c 4096 /dev/urandom >"$data"
dd if="$data" of=/dev/ekdisk0 bs=4k seek=131072 oflag=direct status=none ||
	fail "could not write the data"
udevadm settle 2>/dev/null
echo "1048576 1500" >"$rq" || fail "could not arm the requeue"

# a writer far away, 4 s; once it writes, the read of the known block
w0=$(ekstat writes)
timeout 60 fio --output-format=json --name=w --filename=/dev/ekdisk0 \
	--rw=randwrite --bs=4k --direct=1 --ioengine=psync --offset=64m \
	--size=64m --time_based --runtime=4 >"$out" 2>&1 &
fio_pid=$!
for _ in $(seq 300); do
	[ "$(ekstat writes)" -lt $((w0 + 200)) ] || break
	sleep 0.1
done
[ "$(ekstat writes)" -ge $((w0 + 200)) ] || fail "the writer did not start: $(cat "$out")"
t0=$(date +%s%N)
dd if=/dev/ekdisk0 of="$back" bs=4k skip=131072 count=1 iflag=direct status=none ||
	fail "the requeued read failed"
t1=$(date +%s%N)
wait "$fio_pid" || fail "fio failed: $(cat "$out")"
read_ms=$(((t1 - t0) / 1000000))
read -r sector ms n <"$rq"
[ "$sector $ms $n" = "off 1500 1" ] || fail "the read was not requeued once: requeue reads '$sector $ms $n'"
cmp -s "$data" "$back" || fail "the requeued read returned other data"
# max write completion latency in ms, and the writes done
read -r wmax wios < <(python3 - "$out" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
w = json.loads(text[text.index("{"):])["jobs"][0]["write"]
print(int(w["clat_ns"]["max"] / 1e6), w["total_ios"])
PY
) || fail "no fio result: $(cat "$out")"
echo "$SCHED: the read took $read_ms ms; the writer did $wios writes, the slowest $wmax ms"
[ "$read_ms" -ge 1000 ] || fail "the read took $read_ms ms: not held back 1.5 s by the requeue"
[ "$wmax" -lt 750 ] || fail "a write waited $wmax ms, held back by the requeued read"
