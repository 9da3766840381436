#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by guest.sh
DESCRIPTION="anticipatory: two processes reading alternate 128k blocks of one region on a QD1 hdd-model ekdisk stay in step: their reads cost the disk model at most 1.75x a lone sequential reader's, not the skipped block's rotation each"
# Once one of them thinks longer than a read takes, the other's next read
# skips its block. Anticipation used to keep that one streaming over the
# gaps (each read the model's time for two blocks), and the one behind
# got a read per FIFO deadline. The model's own time per read is the
# access pattern's measure, not the guest's speed; the rate is printed,
# not asserted (numbers come from benchmarks).
. "$(dirname "$0")/lib.sh"
need_sched anticipatory
load_modules || fail "insmod failed"
out=$(mktemp)
trap 'ekdisk_unload; rm -f "$out"' EXIT
ekdisk_load profile=hdd qd=1 || fail "insmod ekdisk failed"
set_sched ekdisk0 anticipatory || fail "could not select anticipatory"
d=$(iosched_dir ekdisk0)

# read_cost JOB...: fio JOBs (6 s, 128k reads) run; prints the model's
# mean time per request in us, then the rate in KiB/s.
read_cost() {
	local n0 m0
	n0=$(ekstat "done") m0=$(ekstat model_ns)
	timeout 120 fio --output-format=terse --filename=/dev/ekdisk0 \
		--direct=1 --ioengine=psync --bs=128k --size=4g \
		--time_based --runtime=6 "$@" >"$out" 2>&1 ||
		fail "fio failed: $(cat "$out")"
	[ "$(fio_errors "$out")" = 0 ] || fail "fio errors: $(cat "$out")"
	echo "$((($(ekstat model_ns) - m0) / ($(ekstat "done") - n0) / 1000))" \
		"$(awk -F';' '$1 == 3 { s += $7 } END { print s + 0 }' "$out")"
}

read -r lone lone_kbs < <(read_cost --rw=read --name=lone)
# job a reads blocks 0, 2, 4, ...; job b blocks 1, 3, 5, ...
read -r pair pair_kbs < <(read_cost --rw=read:128k --name=a --offset=0 \
	--name=b --offset=128k)
echo "model us per read: lone reader $lone, the pair $pair;" \
	"KiB/s: $lone_kbs and $pair_kbs;" \
	"antic_started $(cat "$d/antic_started"), antic_hits $(cat "$d/antic_hits")"
[ "$lone" -gt 0 ] || fail "no model time for the lone reader"
# 1.15-1.3x in step (the latter with the host busy), 2.5x apart
[ $((pair * 4)) -le $((lone * 7)) ] ||
	fail "the readers fell apart: $pair us of the model per read against a lone reader's $lone"
