#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="fio-regions.sh: the guest's split of ekdisk-hdd among 16 fio jobs (from its size in sectors, as elvkit-sim --list has it), and the simulator given it as bench-sim-vs-kernel gives it starts its 16 threads on those sectors"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# shellcheck source=scripts/lib/fio-regions.sh
. scripts/lib/fio-regions.sh
make --no-print-directory -s build/elvkit-sim || fail "build"
# ekdisk-hdd's /sys/block/DEV/size in a guest (6.12, 2026-12-05)
cap=1953163410
build/elvkit-sim --list | grep -q "^      = capacity *$cap sectors" || fail "hdd's capacity is not $cap sectors"
devsize=$(fio_devsize "$cap")
region=$(fio_region "$devsize" 16)
echo "devsize $devsize, region $region"
# the guest's fio jobs started at k x 122071040 sectors (its trace, 2026-12-05)
[ "$devsize" = 1000018542592 ] || fail "devsize $devsize"
[ "$region" = $((122071040 * 512)) ] || fail "region $region"
[ "$(fio_region $((devsize / 2)) 4)" = $((devsize / 8 >> 20 << 20)) ] || fail "half of it for 4"
build/elvkit-sim --sched noop --device hdd --workload seqread --threads 16 --block 128k \
	--readahead 0 --size "$devsize" --region-align "${FIO_REGION_ALIGN_MB}m" --runtime 1 \
	--trace "$T/trace" >/dev/null || fail "elvkit-sim"
firsts=$(awk '!/^#/ && $6 == "I" && !seen[$5]++ { print $5, $8 }' "$T/trace" | sort -n | awk '{ print $2 }' | tr '\n' ' ')
want=$(for k in $(seq 0 15); do printf '%s ' $((k * region / 512)); done)
echo "first sectors: $firsts"
[ "$firsts" = "$want" ] || fail "the simulator's threads start at $firsts, the guest's jobs at $want"
echo ok
