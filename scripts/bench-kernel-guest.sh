#!/bin/bash
# The guest side of scripts/bench-kernel.sh: runs inside one QEMU boot of the
# kernel under test. Loads the elvkit modules (elvkit.ko first) and the
# kernel's modular schedulers, creates a device per profile (null_blk, or
# ekdisk.ko with one of the simulator's device models) and runs a
# tiobench-style fio thread sweep for every scheduler on the same device.
# Writes raw results only (fio JSON per point, per-I/O latency shares, a
# meta file); the host parses them.
# usage: bench-kernel-guest.sh OUTDIR   (OUTDIR/config.sh is written by the host:
#   KVER KO_DIR DEVICES WORKLOADS THREADS RUNS SCHEDS RUNTIME)
set -u
OUT=${1:?usage: bench-kernel-guest.sh OUTDIR}
# shellcheck source=/dev/null
. "$OUT/config.sh"
: "${KVER:?}" "${KO_DIR:?}" "${DEVICES:?}" "${WORKLOADS:?}" "${THREADS:?}" \
	"${RUNS:?}" "${SCHEDS:?}" "${RUNTIME:?}"
META=$OUT/meta.txt
: >"$META"
meta() { printf '%s %s\n' "$1" "$2" >>"$META"; }
log() { printf '[%s] %s\n' "$(date +%T)" "$*" | tee -a "$OUT/guest.log"; }

meta kernel "$(uname -r)"
meta cpus "$(nproc)"
meta mem_kb "$(awk '/MemTotal/ {print $2}' /proc/meminfo)"
meta fio "$(fio --version)"
if [ "$(uname -r)" != "$KVER" ]; then
	meta error "booted $(uname -r), expected $KVER"
	touch "$OUT/done"
	exit 1
fi

# load_mod NAME [PARAMS...]: modprobe, retried, then insmod of the file: the
# guest sees the host's /lib/modules live, and another job on the host may be
# rewriting modules.dep (depmod, DKMS) at that moment.
load_mod() {
	local m=$1 f i
	shift
	for i in 1 2 3; do
		modprobe "$m" "$@" 2>/dev/null && return 0
		sleep "$i"
	done
	f=$(find "/lib/modules/$KVER/kernel" -name "${m//-/_}.ko*" -print -quit)
	[ -n "$f" ] || f=$(find "/lib/modules/$KVER/kernel" -name "$m.ko*" -print -quit)
	[ -n "$f" ] || { echo "modprobe $m failed and no $m.ko* found"; return 1; }
	insmod "$f" "$@"
}

# The elvkit modules: the shim first, then every scheduler module built
# (ekdisk.ko is the block device, loaded per device below).
mod_loaded() { [ -d "/sys/module/${1//-/_}" ]; }
if ! err=$(insmod "$KO_DIR/elvkit.ko" 2>&1); then
	meta load_error "elvkit: $err"
fi
for ko in "$KO_DIR"/*.ko; do
	n=$(basename "$ko" .ko)
	case $n in elvkit | ekdisk) continue ;; esac
	mod_loaded "$n" && continue
	err=$(insmod "$ko" 2>&1) || meta load_error "$n: $err"
done
# The kernel's own schedulers, where they are modules (mq-deadline is built in
# on Debian; kyber and bfq are modules).
for m in mq-deadline-iosched kyber-iosched bfq; do
	load_mod "$m" >/dev/null 2>&1 || true
done

# Writeback: small dirty limits so that buffered writers reach the device
# within a few seconds (the guest has 2 GiB).
set_dirty() {
	echo "$1" >/proc/sys/vm/dirty_bytes
	echo "$2" >/proc/sys/vm/dirty_background_bytes
}

# Device profiles: the driver and its parameters, and writeback limits.
#   nullb:     100 us per request, depth 32, non-rotational (an SSD-like queue)
#   nullb-rot: 5 ms per request, depth 2, rotational=1 (a disk-like queue: no
#              seeks, but a slow, shallow device, so requests wait in the
#              scheduler and its order decides the latencies)
#   ekdisk-P:  ekdisk.ko with the simulator's device model P (hdd, hdd-laptop,
#              hdd-2002, ssd, null): seeks, rotation, zones, NCQ, write cache
profile() {
	MOD=null_blk DEV=nullb0
	case $1 in
	ekdisk-*)
		MOD=ekdisk DEV=ekdisk0
		NULL_PARAMS="profile=${1#ekdisk-} nr_devices=1 memory_backed=0"
		ROT=0 DIRTY=67108864 DIRTY_BG=16777216
		case $1 in ekdisk-hdd*) ROT=1 DIRTY=8388608 DIRTY_BG=2097152 ;; esac
		return ;;
	nullb)
		NULL_PARAMS="irqmode=2 completion_nsec=100000 hw_queue_depth=32"
		ROT=0 DIRTY=67108864 DIRTY_BG=16777216 ;;
	nullb-rot)
		NULL_PARAMS="irqmode=2 completion_nsec=5000000 hw_queue_depth=2"
		ROT=1 DIRTY=8388608 DIRTY_BG=2097152 ;;
	*) return 1 ;;
	esac
	NULL_PARAMS="nr_devices=1 memory_backed=0 gb=64 submit_queues=1 $NULL_PARAMS"
	# null_blk's own rotational parameter where it has one (7.2); older
	# kernels get queue/rotational written after loading.
	if [ "$ROT" = 1 ] && modinfo -F parm null_blk 2>/dev/null | grep -q '^rotational:'; then
		NULL_PARAMS="$NULL_PARAMS rotational=1"
	fi
}

# Set per device by profile() and after loading: DEV, SYSQ, DEVSIZE.
DEV=nullb0
DEVSIZE=$((64 << 30))
SYSQ=/sys/block/$DEV/queue
TMP=$(mktemp -d)
# Run by fio before each scheduler's group: select the scheduler and print
# the scheduler line, which lands in setup-KEY.prerun.txt. No cache dropping
# here: fio invalidates the device's page cache (BLKFLSBUF, which writes back
# first) when a job opens it, and dropping every cache would evict fio itself,
# which takes ~25 s to read back over 9p under TCG.
write_prep() {
	cat >"$TMP/prep.sh" <<EOF
#!/bin/bash
echo "\$1" >$SYSQ/scheduler
read -r line <$SYSQ/scheduler
echo "\$line"
EOF
	chmod +x "$TMP/prep.sh"
}

cur_sched() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$SYSQ/scheduler"; }

# job_args WORKLOAD THREADS NAME: the fio job(s) of one measured group, named
# NAME (the mixed workload adds a concurrent group wNAME for its writer).
# Latency logs go to $TMP/NAME_lat.*.log.
job_args() {
	local wl=$1 t=$2 name=$3 region
	local lat=(--write_lat_log="$TMP/$name" --log_avg_msec=0)
	region=$(( (DEVSIZE / t) >> 20 << 20 ))
	JOB=(--name="$name" --stonewall)
	case $wl in
	seqread) JOB+=(--rw=read --bs=128k --direct=1) ;;
	randread) JOB+=(--rw=randread --bs=4k --direct=1) ;;
	seqwrite) JOB+=(--rw=write --bs=128k --direct=0) ;;
	randwrite) JOB+=(--rw=randwrite --bs=4k --direct=0) ;;
	read-vs-write)
		# N synchronous sequential readers in the first half, one buffered
		# streaming writer in the second, at the same time.
		region=$(( (DEVSIZE / 2 / t) >> 20 << 20 ))
		JOB+=(--rw=read --bs=128k --direct=1 --numjobs="$t" --size="$region"
			--offset_increment="$region" "${lat[@]}" --time_based --runtime="$RUNTIME"
			--name="w$name" --new_group --rw=write --bs=128k --direct=0
			--numjobs=1 --offset=$((DEVSIZE / 2)) --size=$((DEVSIZE / 4)))
		return ;;
	*) return 1 ;;
	esac
	JOB+=(--numjobs="$t" --size="$region" --offset_increment="$region" "${lat[@]}")
}

# run_point DEVICE WORKLOAD THREADS SCHED...: one fio process for every run
# and scheduler of a (workload, thread count), as fio takes ~3.5 s to start
# under TCG; each scheduler's group is preceded by a 4 KiB setup job that
# selects it. Schedulers are interleaved run by run, so drift over the boot
# hits them alike.
run_point() {
	local dev=$1 wl=$2 t=$3 base r s rc f
	shift 3
	base=$OUT/raw/$dev/$wl-t$t
	local args=(--output-format=json --group_reporting --ioengine=psync
		--filename="/dev/$DEV" --randrepeat=0)
	for r in $(seq 1 "$RUNS"); do
		for s in "$@"; do
			args+=(--name="setup-r$r-$s" --stonewall --exec_prerun="$TMP/prep.sh $s"
				--rw=read --bs=4k --size=4k --direct=1 --numjobs=1)
			job_args "$wl" "$t" "r$r-$s"
			args+=("${JOB[@]}" --time_based --runtime="$RUNTIME")
		done
	done
	rm -f "$TMP"/*_lat.*.log "$TMP"/*_clat.*.log "$TMP"/*_slat.*.log
	# In $TMP: fio saves each prerun's output in its working directory.
	(cd "$TMP" && timeout $(( (RUNTIME + 10) * RUNS * $# + 120 )) \
		fio "${args[@]}" >"$base.json" 2>"$base.err")
	rc=$?
	# Exact shares: every I/O's total latency (ns) from the per-I/O logs.
	{
		printf '{"rc": %d' "$rc"
		for r in $(seq 1 "$RUNS"); do
			for s in "$@"; do
				f=("$TMP/r$r-$s"_lat.*.log)
				cat "${f[@]}" 2>/dev/null | awk -F, -v k="r$r-$s" '
					{ n++; v = $2 + 0; if (v > 2e9) a++; if (v > 1e10) b++ }
					END { printf ", \"%s\": {\"n\": %d, \"over_2s\": %d, \"over_10s\": %d", k, n, a, b }'
				# Whether the setup job really selected the scheduler.
				sel=0
				grep -qF "[$s]" "$TMP/setup-r$r-$s.prerun.txt" 2>/dev/null && sel=1
				printf ', "selected": %d}' "$sel"
			done
		done
		echo "}"
	} >"$base.lat"
	rm -f "$TMP"/*_lat.*.log "$TMP"/*_clat.*.log "$TMP"/*_slat.*.log "$TMP"/*.prerun.txt
	[ -s "$base.err" ] || rm -f "$base.err"
	log "$dev $wl t=$t: fio exit $rc"
}

for dev in $DEVICES; do
	profile "$dev" || { meta "error" "unknown device $dev"; continue; }
	mkdir -p "$OUT/raw/$dev"
	mod_loaded "$MOD" && rmmod "$MOD"
	if [ "$MOD" = ekdisk ]; then
		# shellcheck disable=SC2086 # word splitting of the parameter list
		err=$(insmod "$KO_DIR/ekdisk.ko" $NULL_PARAMS 2>&1)
	else
		# shellcheck disable=SC2086 # word splitting of the parameter list
		err=$(load_mod "$MOD" $NULL_PARAMS 2>&1)
	fi
	# shellcheck disable=SC2181 # the status of the load just above
	if [ $? -ne 0 ]; then
		meta "device_error.$dev" "loading $MOD: $err $(dmesg | grep "$MOD: " | tail -n 1)"
		continue
	fi
	udevadm settle 2>/dev/null || true
	SYSQ=/sys/block/$DEV/queue
	DEVSIZE=$(($(cat "/sys/block/$DEV/size") * 512))
	write_prep
	if [ "$ROT" = 1 ] && [ "$(cat "$SYSQ/rotational")" != 1 ]; then
		echo 1 >"$SYSQ/rotational" 2>/dev/null
	fi
	meta "device.$dev" "$MOD $NULL_PARAMS, $((DEVSIZE / 1000000000)) GB"
	meta "rotational.$dev" "$(cat "$SYSQ/rotational")"
	meta "schedulers.$dev" "$(cat "$SYSQ/scheduler")"
	meta "max_sectors_kb.$dev" "$(cat "$SYSQ/max_sectors_kb")"
	set_dirty "$DIRTY" "$DIRTY_BG"
	meta "dirty_bytes.$dev" "$DIRTY $DIRTY_BG"
	avail=()
	for s in $SCHEDS; do
		if echo "$s" >"$SYSQ/scheduler" 2>/dev/null && [ "$(cur_sched)" = "$s" ]; then
			avail+=("$s")
			meta "nr_requests.$dev.$s" "$(cat "$SYSQ/nr_requests")"
		else
			meta "missing.$dev" "$s"
		fi
	done
	log "$dev: $(cat "$SYSQ/scheduler") rotational=$(cat "$SYSQ/rotational")"
	if [ ${#avail[@]} -gt 0 ]; then
		for wl in $WORKLOADS; do
			for t in $THREADS; do
				run_point "$dev" "$wl" "$t" "${avail[@]}"
			done
		done
	fi
	echo none >"$SYSQ/scheduler" 2>/dev/null
	# ekdisk: how late its timer handed completions back (the guest's
	# vCPUs waiting for host cores), next to the model's own latency.
	[ "$MOD" = ekdisk ] && meta "ekdisk_stats.$dev" "$(cat "/sys/block/$DEV/ekdisk/stats")"
	rmmod "$MOD"
done
meta end "$(date +%s)"
rm -rf "$TMP"
touch "$OUT/done"
