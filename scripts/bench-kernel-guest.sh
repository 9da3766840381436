#!/bin/bash
# The guest side of scripts/bench-kernel.sh: runs inside one QEMU boot of the
# kernel under test. Loads the elvkit modules (elvkit.ko first) and the
# kernel's modular schedulers, creates a device per profile (null_blk, or
# ekdisk.ko with one of the simulator's device models) and runs a
# tiobench-style fio thread sweep for every scheduler on the same device,
# plus a start-up-under-load fio workload and dbench on ext4.
# Writes raw results only (fio JSON per point, per-I/O latency shares,
# dbench's output, a meta file); the host parses them.
# usage: bench-kernel-guest.sh OUTDIR   (OUTDIR/config.sh is written by the host:
#   KVER KO_DIR DEVICES WORKLOADS THREADS RUNS SCHEDS RUNTIME, and optional
#   BLKTRACE WAKETRACE WAKE_EVENTS TUNES NR_REQUESTS PROBE)
set -u
OUT=${1:?usage: bench-kernel-guest.sh OUTDIR}
# shellcheck source=/dev/null
. "$OUT/config.sh"
: "${KVER:?}" "${KO_DIR:?}" "${DEVICES:?}" "${WORKLOADS:?}" "${THREADS:?}" \
	"${RUNS:?}" "${SCHEDS:?}" "${RUNTIME:?}"
# The start-up workload's fresh process: its dependent 4 KiB reads, how long
# after the streamers it starts, and the region it reads (MiB).
STARTUP_IOS=200 STARTUP_DELAY=1 STARTUP_REGION_MB=1024
# shellcheck source=scripts/lib/fio-regions.sh
. "$(dirname "$0")/lib/fio-regions.sh"
META=$OUT/meta.txt
: >"$META"
meta() { printf '%s %s\n' "$1" "$2" >>"$META"; }
log() { printf '[%s] %s\n' "$(date +%T)" "$*" | tee -a "$OUT/guest.log"; }

# --trace-wake's events are on from boot; the ring buffer records only in
# wake_point.
[ -z "${WAKETRACE:-}" ] || echo 0 >/sys/kernel/tracing/tracing_on 2>/dev/null
meta kernel "$(uname -r)"
meta cpus "$(nproc)"
meta mem_kb "$(awk '/MemTotal/ {print $2}' /proc/meminfo)"
meta fio "$(fio --version)"
case " $WORKLOADS " in
*" startup "*) meta startup "$STARTUP_IOS $STARTUP_DELAY $STARTUP_REGION_MB" ;;
esac
case " $WORKLOADS " in
*" dbench "*) meta dbench "$(dbench --help 2>&1 | sed -n '1s/ - .*//p')" ;;
esac
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
# the scheduler line, which lands in setup-KEY.prerun.txt. Before the switch
# (a new scheduler's counters start at 0), keep what the scheduler of the
# group that just ended counted (prep.sh SCHED [KEY]: keep.sh KEY writes
# every file of queue/iosched/ to KEY.iosched; see run_point). No cache dropping
# here: fio invalidates the device's page cache (BLKFLSBUF, which writes back
# first) when a job opens it, and dropping every cache would evict fio itself,
# which takes ~25 s to read back over 9p under TCG.
# A scheduler of --scheds is NAME or a variant NAME+TUNABLE=VALUE[+...]:
# the scheduler NAME, switched to, then set so (sched_base: the NAME).
# tune.sh SCHED, after each switch: --nr-requests (a switch resets it),
# then --tune's NAME=VALUE pairs written where the scheduler has NAME
# (tune_file), then the variant's own (which must exist); what is refused
# goes to stderr, one line each. nr_requests goes first: writing it resets
# mq-deadline's async_depth to nr_requests (6.1, 6.12) or rescales it
# (7.2), which would undo a limit set before it.
sched_base() { printf '%s\n' "${1%%+*}"; }
# tune_file NAME SCHED: the file SCHED's tunable NAME is written to, its
# queue/iosched/NAME; mq-deadline's async_depth, which 7.2 moved out of
# its iosched/ into the queue's own files, is queue/async_depth there (not
# for kyber and bfq, which read that too on 7.2 but have no such tunable
# elsewhere). Prints nothing if SCHED has no such tunable.
tune_file() {
	local f=$SYSQ/iosched/$1
	[ -e "$f" ] || [ "$1:$2" != async_depth:mq-deadline ] || f=$SYSQ/async_depth
	[ ! -e "$f" ] || echo "$f"
}
write_prep() {
	cat >"$TMP/tune.sh" <<EOF
#!/bin/bash
SYSQ=$SYSQ
$(declare -f tune_file)
if [ -n "${NR_REQUESTS:-}" ]; then
	echo "${NR_REQUESTS:-}" >$SYSQ/nr_requests 2>/dev/null ||
		echo "nr_requests=${NR_REQUESTS:-} refused" >&2
fi
for kv in ${TUNES:-}; do
	f=\$(tune_file "\${kv%%=*}" "\${1%%+*}")
	[ -n "\$f" ] || continue
	echo "\${kv#*=}" >"\$f" 2>/dev/null || echo "\$kv refused" >&2
done
case \${1:-} in
*+*)
	for kv in \$(tr + ' ' <<<"\${1#*+}"); do
		f=\$(tune_file "\${kv%%=*}" "\${1%%+*}")
		if [ -z "\$f" ]; then
			echo "\${kv%%=*}: no such tunable" >&2
			continue
		fi
		echo "\${kv#*=}" >"\$f" 2>/dev/null || echo "\$kv refused" >&2
	done ;;
esac
exit 0
EOF
	# keep.sh GROUP also takes ekdisk's late_hist as GROUP ended, and
	# prep.sh as it starts (GROUP.late1, .late0: the counts).
	local late=/sys/block/$DEV/ekdisk/late_hist
	cat >"$TMP/keep.sh" <<EOF
#!/bin/bash
grep -H . $SYSQ/iosched/* $SYSQ/async_depth >"$TMP/\$1.iosched" 2>/dev/null
[ ! -r $late ] || awk '{ print \$2 }' $late >"$TMP/\$1.late1"
EOF
	# prep.sh SCHED GROUP [PREV]: GROUP is the group about to run (for
	# the probe's samples), PREV the one that ended. GROUP.wbbw: the
	# device's writeback bandwidth estimate as GROUP starts (KiB/s), which
	# the last writer left, whatever its scheduler: it sets how hard a
	# buffered writer is throttled at first (elvkit-sim --wb-bw-init).
	# From 6.10 the bdi's stats sum it over writeback contexts with dirty
	# data only (0 between groups), so wb_stats' is read there, of the
	# context that dirtied most (the writer's cgroup); before, stats has
	# the root context's.
	local bdi
	bdi=/sys/kernel/debug/bdi/$(cat "/sys/block/$DEV/dev" 2>/dev/null)
	cat >"$TMP/wbbw.sh" <<EOF
#!/bin/bash
if [ -r $bdi/wb_stats ]; then
	awk '/^WbDirtied:/ { d = \$2 }
	     /^WbWriteBandwidth:/ { if (bw == "" || d > best) { best = d; bw = \$2 } }
	     END { if (bw != "") print bw }' $bdi/wb_stats
else
	sed -n 's/^BdiWriteBandwidth: *\([0-9]*\).*/\1/p' $bdi/stats
fi
EOF
	cat >"$TMP/prep.sh" <<EOF
#!/bin/bash
[ -z "\${3:-}" ] || $TMP/keep.sh "\$3"
echo "\$2" >$TMP/group
$TMP/wbbw.sh >"$TMP/\$2.wbbw" 2>/dev/null
[ ! -r $late ] || awk '{ print \$2 }' $late >"$TMP/\$2.late0"
echo "\${1%%+*}" >$SYSQ/scheduler
$TMP/tune.sh "\$1"
read -r line <$SYSQ/scheduler
echo "\$line"
EOF
	chmod +x "$TMP/prep.sh" "$TMP/keep.sh" "$TMP/tune.sh" "$TMP/wbbw.sh"
}

cur_sched() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$SYSQ/scheduler"; }

# job_args WORKLOAD THREADS NAME: the fio job(s) of one measured group, named
# NAME (the mixed workload adds a concurrent group wNAME for its writer).
# Latency logs go to $TMP/NAME_lat.*.log.
job_args() {
	local wl=$1 t=$2 name=$3 region
	local lat=(--write_lat_log="$TMP/$name" --log_avg_msec=0 --log_offset=1)
	region=$(fio_region "$DEVSIZE" "$t")
	JOB=(--name="$name" --stonewall)
	case $wl in
	seqread) JOB+=(--rw=read --bs=128k --direct=1) ;;
	interleaved)
		# N synchronous O_DIRECT readers of one region, reader i
		# reading the 128 KiB blocks i, i + N, i + 2N, ... (fio's
		# rw=read:SKIP): cooperating processes, a pool of I/O threads
		# reading one file (elvkit-sim --interleave).
		local skip=""
		[ "$t" = 1 ] || skip=":$(((t - 1) * 128))k"
		JOB+=(--rw="read$skip" --bs=128k --direct=1 --numjobs="$t"
			--size="$(fio_region $((DEVSIZE - t * 131072)) 1)"
			--offset_increment=128k "${lat[@]}")
		return ;;
	randread) JOB+=(--rw=randread --bs=4k --direct=1) ;;
	seqwrite) JOB+=(--rw=write --bs=128k --direct=0) ;;
	randwrite) JOB+=(--rw=randwrite --bs=4k --direct=0) ;;
	read-vs-write)
		# N synchronous sequential readers in the first half, one buffered
		# streaming writer in the second, at the same time. The readers
		# do not invalidate the device's page cache when they open it
		# (fio's default, BLKFLSBUF): that writes back and waits for every
		# dirty page of the device, the writer's, so readers sat out
		# seconds of the run waiting for its writeback (12 to 34 of 48,
		# in folio_wait_writeback under fair-queue).
		region=$(fio_region $((DEVSIZE / 2)) "$t")
		JOB+=(--rw=read --bs=128k --direct=1 --invalidate=0 --numjobs="$t" --size="$region"
			--offset_increment="$region" "${lat[@]}" --time_based --runtime="$RUNTIME"
			--name="w$name" --new_group --rw=write --bs=128k --direct=0
			--numjobs=1 --offset=$((DEVSIZE / 2)) --size=$((DEVSIZE / 4)))
		return ;;
	startup)
		# Start-up under load: N sync sequential O_DIRECT readers stream
		# (128 KiB, the first 3/4 of the device, by time: run_point appends
		# --time_based --runtime to this group, the last); a fresh fio process
		# starts STARTUP_DELAY s later and does STARTUP_IOS dependent 4 KiB
		# reads (psync, one at a time, random offsets in a 1 GiB region past
		# the streamers) and ends by its I/O count: its run time is the
		# start-up time. The same job first runs alone (iNAME): the idle
		# baseline of the same scheduler, run and fio process. The delay is
		# a prerun sleep (not in the job's run time), not --startdelay: fio
		# counts that from its own start, so only the first scheduler's job
		# waited, while its streamers, held by no stonewall, ran beside its
		# idle baseline; every other job started with the streamers, one
		# new process among N+1 (a burst to fair-queue and bfq).
		region=$(fio_region $((DEVSIZE * 3 / 4)) "$t")
		local sup=(--rw=randread --bs=4k --direct=1 --numjobs=1
			--offset=$((DEVSIZE * 3 / 4)) --size=$((STARTUP_REGION_MB << 20))
			--number_ios="$STARTUP_IOS")
		JOB=(--name="i$name" --stonewall "${sup[@]}"
			--name="s$name" --stonewall "${sup[@]}" --exec_prerun="sleep $STARTUP_DELAY"
			--name="$name" --new_group --rw=read --bs=128k --direct=1 --numjobs="$t"
			--size="$region" --offset_increment="$region" "${lat[@]}")
		return ;;
	*) return 1 ;;
	esac
	JOB+=(--numjobs="$t" --size="$region" --offset_increment="$region" "${lat[@]}")
}

# probe_sampler FILE (--probe): every PROBE_MS, one line of the block
# layer's state while a point runs: the group running (prep.sh's), wbt's
# limits and buffered writes in flight (debugfs rqos/wbt), busy tags and
# tag sleepers (sbitmap's busy and ws_active) of the driver's tags and of
# the scheduler's (hctx*/tags, hctx*/sched_tags, summed over the hardware
# queues), the page cache's Dirty and Writeback, and the device's
# completed reads and writes and their sectors so far (/sys/block/DEV/stat,
# for the size of a request). Bash builtins only (no
# fork per sample, so as not to take the vCPUs the I/O path runs on); a
# value the kernel does not show is "-".
PROBE_MS=200
probe_sampler() {
	local out=$1 dbg=/sys/kernel/debug/block/$DEV g v h k line
	local -a rec lines
	local pause
	pause=$((PROBE_MS / 1000)).$(printf '%03d' $((PROBE_MS % 1000)))
	mkfifo "$TMP/probe.fifo" 2>/dev/null
	exec 8<>"$TMP/probe.fifo"
	echo "# t group wb_normal wb_background wbt_inflight tags_busy tags_waiters" \
		"sched_busy sched_waiters dirty_kb writeback_kb rd_ios rd_sectors wr_ios wr_sectors" >"$out"
	while :; do
		g=-
		read -r g 2>/dev/null <"$TMP/group"
		rec=("$EPOCHREALTIME" "$g")
		for k in wb_normal wb_background; do
			v=-
			read -r v 2>/dev/null <"$dbg/rqos/wbt/$k"
			rec+=("$v")
		done
		# "0: inflight N": the first of wbt's three counters (buffered writes)
		v=-
		read -r _ _ v 2>/dev/null <"$dbg/rqos/wbt/inflight"
		rec+=("$v")
		for k in tags sched_tags; do
			local busy=- ws=-
			for h in "$dbg"/hctx*/"$k"; do
				[ -e "$h" ] || continue
				mapfile -t lines 2>/dev/null <"$h"
				local b=- w=-
				for line in "${lines[@]}"; do
					case $line in
					busy=*) [ "$b" = - ] && b=${line#busy=} ;;
					ws_active=*) [ "$w" = - ] && w=${line#ws_active=} ;;
					esac
				done
				[ "$b" = - ] || busy=$(( ${busy/-/0} + b ))
				[ "$w" = - ] || ws=$(( ${ws/-/0} + w ))
			done
			rec+=("$busy" "$ws")
		done
		local dirty=- wback=-
		mapfile -t lines </proc/meminfo
		for line in "${lines[@]}"; do
			case $line in
			Dirty:*) dirty=${line#*:} dirty=${dirty% kB} dirty=${dirty// /} ;;
			Writeback:*) wback=${line#*:} wback=${wback% kB} wback=${wback// /} ;;
			esac
		done
		rec+=("$dirty" "$wback")
		# /sys/block/DEV/stat: reads, merges, sectors, ticks, then writes'
		v=(- - - - - - -)
		read -r -a v 2>/dev/null <"/sys/block/$DEV/stat"
		rec+=("${v[0]}" "${v[2]}" "${v[4]}" "${v[6]}")
		echo "${rec[*]}" >>"$out"
		read -rt "$pause" -u 8 _
	done
}

# run_point DEVICE WORKLOAD THREADS SCHED...: one fio process for every run
# and scheduler of a (workload, thread count), as fio takes ~3.5 s to start
# under TCG; each scheduler's group is preceded by a 4 KiB setup job that
# selects it. Schedulers are interleaved run by run, so drift over the boot
# hits them alike.
run_point() {
	local dev=$1 wl=$2 t=$3 base r s rc f f2 prev="" wbbw
	shift 3
	base=$OUT/raw/$dev/$wl-t$t
	local args=(--output-format=json --group_reporting --ioengine=psync
		--filename="/dev/$DEV" --randrepeat=0)
	for r in $(seq 1 "$RUNS"); do
		for s in "$@"; do
			args+=(--name="setup-r$r-$s" --stonewall --exec_prerun="$TMP/prep.sh $s r$r-$s $prev"
				--rw=read --bs=4k --size=4k --direct=1 --numjobs=1)
			job_args "$wl" "$t" "r$r-$s"
			args+=("${JOB[@]}" --time_based --runtime="$RUNTIME")
			prev=r$r-$s
		done
	done
	rm -f "$TMP"/*_lat.*.log "$TMP"/*_clat.*.log "$TMP"/*_slat.*.log "$TMP"/*.iosched "$TMP"/*.wbbw "$TMP"/*.late[01]
	# In $TMP: fio saves each prerun's output in its working directory.
	# startup: its idle baseline and its fresh process come on top.
	local extra=0
	[ "$wl" = startup ] && extra=60
	local probe=""
	rm -f "$TMP/group"
	if [ "${PROBE:-0}" = 1 ]; then
		probe_sampler "$base.probe" &
		probe=$!
	fi
	(cd "$TMP" && timeout $(( (RUNTIME + 10 + extra) * RUNS * $# + 120 )) \
		fio "${args[@]}" >"$base.json" 2>"$base.err")
	rc=$?
	if [ -n "$probe" ]; then
		kill "$probe" 2>/dev/null
		wait "$probe" 2>/dev/null
	fi
	"$TMP/keep.sh" "$prev"
	# The schedulers' own counters and tunables, per group: "GROUP NAME VALUE".
	for f in "$TMP"/*.iosched; do
		[ -s "$f" ] || continue
		sed "s|^.*/\([^/:]*\):|${f##*/} \1 |; s|^\([^ ]*\)\.iosched |\1 |" "$f"
	done >"$base.iosched"
	[ -s "$base.iosched" ] || rm -f "$base.iosched"
	# Exact shares: every I/O's total latency (ns) from the per-I/O logs.
	{
		printf '{"rc": %d' "$rc"
		for r in $(seq 1 "$RUNS"); do
			for s in "$@"; do
				f=("$TMP/r$r-$s"_lat.*.log)
				cat "${f[@]}" 2>/dev/null | awk -F, -v k="r$r-$s" '
					{ n++; v = $2 + 0; if (v > 1e8) c++; if (v > 5e8) d++
					  if (v > 2e9) a++; if (v > 1e10) b++ }
					END { printf ", \"%s\": {\"n\": %d, \"over_100ms\": %d, \"over_500ms\": %d, \"over_2s\": %d, \"over_10s\": %d", k, n, c, d, a, b }'
				# Whether the setup job really selected the scheduler.
				sel=0
				grep -qF "[$(sched_base "$s")]" "$TMP/setup-r$r-$s.prerun.txt" 2>/dev/null && sel=1
				printf ', "selected": %d' "$sel"
				# The writeback estimate it started with (prep.sh).
				wbbw=""
				read -r wbbw 2>/dev/null <"$TMP/r$r-$s.wbbw"
				if [[ $wbbw =~ ^[0-9]+$ ]]; then printf ', "wb_bw_kbps": %d' "$wbbw"; fi
				# ekdisk's timer lateness over the group: late_hist's counts
				# at its end less those at its start.
				paste -d' ' "$TMP/r$r-$s.late0" "$TMP/r$r-$s.late1" 2>/dev/null |
					awk 'NF == 2 { d = d (n++ ? ", " : "") ($2 - $1) }
					     END { if (n) printf ", \"late_hist\": [%s]", d }'
				printf '}'
			done
		done
		echo "}"
	} >"$base.lat"
	if [ "${KEEP_LAT:-0}" = 1 ]; then
		for r in $(seq 1 "$RUNS"); do
			for s in "$@"; do
				for f in "$TMP/r$r-$s"_lat.*.log; do
					[ -e "$f" ] || continue
					f2=${f##*_lat.}
					sed "s/^/${f2%.log}, /" "$f"
				done | gzip >"$base.r$r-$s.lat.gz"
			done
		done
	fi
	rm -f "$TMP"/*_lat.*.log "$TMP"/*_clat.*.log "$TMP"/*_slat.*.log "$TMP"/*.prerun.txt
	[ -s "$base.err" ] || rm -f "$base.err"
	log "$dev $wl t=$t: fio exit $rc"
}

# trace_point DEVICE WORKLOAD THREADS SCHED...: the point again, one
# scheduler at a time for RUNTIME, under blktrace; btt's summary of each goes
# to raw/DEVICE/blktrace/WORKLOAD-tTHREADS-SCHED.btt (the traces, large, do
# not stay). A separate pass, so the sweep's numbers carry no tracing cost.
trace_point() {
	local dev=$1 wl=$2 t=$3 s dir bt
	shift 3
	dir=$OUT/raw/$dev/blktrace
	mkdir -p "$dir"
	for s in "$@"; do
		sched_base "$s" >"$SYSQ/scheduler" || continue
		"$TMP/tune.sh" "$s" 2>/dev/null
		job_args "$wl" "$t" "bt-$s"
		rm -rf "$TMP/bt"
		mkdir "$TMP/bt"
		blktrace -d "/dev/$DEV" -D "$TMP/bt" -o trace >/dev/null 2>"$TMP/bt/err" &
		bt=$!
		sleep 1
		(cd "$TMP" && timeout $((RUNTIME + 120)) fio --output-format=json --group_reporting \
			--ioengine=psync --filename="/dev/$DEV" --randrepeat=0 "${JOB[@]}" \
			--time_based --runtime="$RUNTIME" >/dev/null 2>&1)
		kill -INT "$bt" 2>/dev/null
		wait "$bt"
		blkparse -q -i "$TMP/bt/trace" -d "$TMP/bt/trace.bin" >/dev/null 2>&1
		btt -i "$TMP/bt/trace.bin" >"$dir/$wl-t$t-$s.btt" 2>&1 ||
			cat "$TMP/bt/err" >>"$dir/$wl-t$t-$s.btt"
		rm -rf "$TMP/bt" "$TMP"/bt-*_lat.*.log "$TMP"/bt-*_clat.*.log "$TMP"/bt-*_slat.*.log
		log "$dev $wl t=$t: blktrace $s done"
	done
}

# wake_point DEVICE WORKLOAD THREADS SCHED... (--trace-wake): the point again,
# one scheduler at a time for RUNTIME, with tracefs recording the block
# layer's bio_queue, bio merges, getrq, rq_issue and rq_complete and the scheduler's wakeup and
# switch events over the middle half of the run: who waits for a request,
# who wakes whom and how late (scripts/lib/waketrace.py reads it). Each
# scheduler's trace goes to raw/DEVICE/wake/WORKLOAD-tTHREADS-SCHED.trace.gz,
# and the bios queued in the run's first START_TRACE seconds (when fio's
# jobs start: the readers' first bios; by default 2 s and 1 s more per 16
# threads, as fio took 1.8 s to start 64 under TCG) to .start.trace.gz,
# and the driver's and scheduler's tags from debugfs, read half-way through
# (depth, wake_batch, sleepers), to .tags beside it. A separate pass: the
# sweep records nothing (the events are on from boot, WAKE_EVENTS, so it
# carries their tracepoints' cost, not the ring buffer's).
wake_point() {
	local dev=$1 wl=$2 t=$3 s dir f ev fp tr=/sys/kernel/tracing
	local skip=$((RUNTIME / 4)) span=$((RUNTIME / 2)) start=${START_TRACE:-$((2 + t / 16))} t0
	shift 3
	[ "$span" -ge 1 ] || span=1
	[ "$start" -le "$skip" ] || start=$skip
	dir=$OUT/raw/$dev/wake
	mkdir -p "$dir"
	if [ ! -w "$tr/trace" ]; then
		meta "wake_error.$dev" "no tracefs at $tr"
		return 1
	fi
	echo 0 >"$tr/tracing_on"
	echo 32768 >"$tr/buffer_size_kb"
	# On from boot (bench-kernel.sh's trace_event=), never switched here.
	for ev in ${WAKE_EVENTS:-}; do
		if [ "$(cat "$tr/events/${ev/://}/enable" 2>/dev/null)" != 1 ]; then
			meta "wake_error.$dev" "trace event $ev is not on"
			return 1
		fi
	done
	for s in "$@"; do
		f=$dir/$wl-t$t-$s
		sched_base "$s" >"$SYSQ/scheduler" || continue
		"$TMP/tune.sh" "$s" 2>/dev/null
		job_args "$wl" "$t" "wk-$s"
		echo >"$tr/trace"
		echo 1 >"$tr/tracing_on"
		t0=$EPOCHREALTIME
		(cd "$TMP" && timeout $((RUNTIME + 120)) fio --output-format=json --group_reporting \
			--ioengine=psync --filename="/dev/$DEV" --randrepeat=0 "${JOB[@]}" \
			--time_based --runtime="$RUNTIME" >/dev/null 2>&1) &
		fp=$!
		sleep "$start"
		echo 0 >"$tr/tracing_on"
		grep -F block_bio_queue: "$tr/trace" | gzip >"$f.start.trace.gz"
		echo >"$tr/trace"
		# the middle half from skip on, whatever the copy took
		sleep "$(awk -v a="$t0" -v b="$EPOCHREALTIME" -v s="$skip" \
			'BEGIN { d = a + s - b; printf "%.3f", d > 0 ? d : 0 }')"
		echo 1 >"$tr/tracing_on"
		sleep $((span / 2))
		grep -H . /sys/kernel/debug/block/"$DEV"/hctx0/{tags,sched_tags} >"$f.tags" 2>/dev/null
		sleep $((span - span / 2))
		echo 0 >"$tr/tracing_on"
		gzip -c "$tr/trace" >"$f.trace.gz"
		wait "$fp"
		rm -f "$TMP"/wk-*_lat.*.log "$TMP"/wk-*_clat.*.log "$TMP"/wk-*_slat.*.log
		log "$dev $wl t=$t: wake trace $s done"
	done
	echo >"$tr/trace"
	echo 1408 >"$tr/buffer_size_kb"
}

# dev_load PARAMS...: (re)load the profile's driver with PARAMS and set DEV's
# variables; on failure records device_error.$dev and returns 1.
dev_load() {
	local err
	dev_unload
	if [ "$MOD" = ekdisk ]; then
		err=$(insmod "$KO_DIR/ekdisk.ko" "$@" 2>&1)
	else
		err=$(load_mod "$MOD" "$@" 2>&1)
	fi
	# shellcheck disable=SC2181 # the status of the load just above
	if [ $? -ne 0 ]; then
		meta "device_error.$dev" "loading $MOD: $err $(dmesg | grep "$MOD: " | tail -n 1)"
		return 1
	fi
	udevadm settle 2>/dev/null || true
	SYSQ=/sys/block/$DEV/queue
	DEVSIZE=$(fio_devsize "$(cat "/sys/block/$DEV/size")")
	write_prep
	if [ "$ROT" = 1 ] && [ "$(cat "$SYSQ/rotational")" != 1 ]; then
		echo 1 >"$SYSQ/rotational" 2>/dev/null
	fi
}

# dev_unload: ekdisk's statistics (how late its timer handed completions
# back, next to the model's own latency), then the driver out.
dev_unload() {
	mod_loaded "$MOD" || return 0
	echo none >"$SYSQ/scheduler" 2>/dev/null
	[ "$MOD" = ekdisk ] && [ -e "/sys/block/$DEV/ekdisk/stats" ] &&
		meta "ekdisk_stats.$dev" "$(cat "/sys/block/$DEV/ekdisk/stats")"
	# How late its timer was, per power of two of us ("BELOW_US COUNT"...).
	[ "$MOD" = ekdisk ] && [ -e "/sys/block/$DEV/ekdisk/late_hist" ] &&
		meta "ekdisk_late_hist.$dev" "$(tr '\n' ' ' <"/sys/block/$DEV/ekdisk/late_hist")"
	rmmod "$MOD"
}

# dbench: ext4 on the device, which must keep what is written (the profile's
# driver reloaded with memory_backed=1, so the device holds its data in guest
# RAM). The file system is DBENCH_FS_MB at the start of the device: about
# 32 MiB per client of the largest count, capped at half the guest's RAM.
DBENCH_MNT=$TMP/mnt
dbench_fs_mb() {
	local max=0 t ram
	for t in $THREADS; do [ "$t" -gt "$max" ] && max=$t; done
	ram=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)
	t=$((256 + 32 * max))
	[ "$t" -le "$ram" ] || t=$ram
	[ "$t" -le $((DEVSIZE >> 20)) ] || t=$((DEVSIZE >> 20))
	echo "$t"
}

# dbench_setup: the memory-backed device and a fresh ext4 on it (lazy
# inode-table and journal init: mkfs writes little under TCG).
dbench_setup() {
	local mb err
	# shellcheck disable=SC2086 # word splitting of the parameter list
	dev_load ${NULL_PARAMS/memory_backed=0/memory_backed=1} || return 1
	mb=$(dbench_fs_mb)
	mkdir -p "$DBENCH_MNT"
	if ! err=$(mkfs.ext4 -F -q -E lazy_itable_init=1,lazy_journal_init=1,nodiscard \
		"/dev/$DEV" "${mb}M" 2>&1); then
		meta "device_error.$dev" "dbench: mkfs.ext4 failed: $err"
		return 1
	fi
	# The load file, read once over 9p into the guest's tmpfs.
	[ -e "$TMP/client.txt" ] || cp /usr/share/dbench/client.txt "$TMP/client.txt"
	meta "dbench_fs.$dev" "ext4 ${mb} MiB, memory-backed $MOD"
}

# run_dbench_point DEVICE THREADS SCHED...: `dbench -t RUNTIME THREADS` (clients)
# per run and scheduler, interleaved like run_point; each on a fresh mount
# (a cold page cache for the file system; noinit_itable: no lazy inode-table
# zeroing in the background of the measurement), its output in
# raw/DEV/dbench-tT-rR-SCHED.txt followed by one line of ours: dbench's exit
# status and whether the scheduler was selected.
run_dbench_point() {
	local dev=$1 t=$2 r s rc sel f
	shift 2
	for r in $(seq 1 "$RUNS"); do
		for s in "$@"; do
			f=$OUT/raw/$dev/dbench-t$t-r$r-$s.txt
			sched_base "$s" >"$SYSQ/scheduler" 2>/dev/null
			"$TMP/tune.sh" "$s" 2>/dev/null
			sel=0
			[ "$(cur_sched)" = "$(sched_base "$s")" ] && sel=1
			rc=0
			if mount -t ext4 -o noinit_itable "/dev/$DEV" "$DBENCH_MNT" >"$f" 2>&1; then
				rm -rf "$DBENCH_MNT/clients"
				sync
				(cd "$DBENCH_MNT" && timeout $((RUNTIME * 2 + 120)) \
					dbench -t "$RUNTIME" -c "$TMP/client.txt" -D "$DBENCH_MNT" "$t" >>"$f" 2>&1)
				rc=$?
				umount "$DBENCH_MNT" >>"$f" 2>&1 || rc=99
			else
				rc=98
			fi
			echo "elvkit-bench: exit $rc selected $sel" >>"$f"
		done
	done
	log "$dev dbench t=$t: done"
}

for dev in $DEVICES; do
	profile "$dev" || { meta "error" "unknown device $dev"; continue; }
	mkdir -p "$OUT/raw/$dev"
	# shellcheck disable=SC2086 # word splitting of the parameter list
	dev_load $NULL_PARAMS || continue
	meta "device.$dev" "$MOD $NULL_PARAMS, $((DEVSIZE / 1000000000)) GB"
	meta "rotational.$dev" "$(cat "$SYSQ/rotational")"
	meta "schedulers.$dev" "$(cat "$SYSQ/scheduler")"
	meta "max_sectors_kb.$dev" "$(cat "$SYSQ/max_sectors_kb")"
	set_dirty "$DIRTY" "$DIRTY_BG"
	meta "dirty_bytes.$dev" "$DIRTY $DIRTY_BG"
	avail=()
	declare -A tune_had=()
	for s in $SCHEDS; do
		if sched_base "$s" >"$SYSQ/scheduler" 2>/dev/null &&
			[ "$(cur_sched)" = "$(sched_base "$s")" ]; then
			avail+=("$s")
			err=$("$TMP/tune.sh" "$s" 2>&1)
			[ -z "$err" ] || meta "tune_refused.$dev.$s" "${err//$'\n'/; }"
			meta "nr_requests.$dev.$s" "$(cat "$SYSQ/nr_requests")"
			for kv in ${TUNES:-}; do
				[ -z "$(tune_file "${kv%%=*}" "$(sched_base "$s")")" ] ||
					tune_had[${kv%%=*}]=1
			done
		else
			meta "missing.$dev" "$s"
		fi
	done
	# A name no scheduler has (a typo) would otherwise leave every one at
	# its default without a word.
	for kv in ${TUNES:-}; do
		[ -n "${tune_had[${kv%%=*}]:-}" ] || meta "tune_unused.$dev" "${kv%%=*}"
	done
	unset tune_had
	log "$dev: $(cat "$SYSQ/scheduler") rotational=$(cat "$SYSQ/rotational")"
	if [ ${#avail[@]} -gt 0 ]; then
		for wl in $WORKLOADS; do
			if [ "$wl" = dbench ]; then
				if dbench_setup; then
					for t in $THREADS; do
						run_dbench_point "$dev" "$t" "${avail[@]}"
					done
				fi
				# shellcheck disable=SC2086 # word splitting of the parameter list
				dev_load $NULL_PARAMS || break
				continue
			fi
			for t in $THREADS; do
				run_point "$dev" "$wl" "$t" "${avail[@]}"
				case " ${BLKTRACE:-} " in
				*" $wl:$t "*) trace_point "$dev" "$wl" "$t" "${avail[@]}" ;;
				esac
				case " ${WAKETRACE:-} " in
				*" $wl:$t "*) wake_point "$dev" "$wl" "$t" "${avail[@]}" ;;
				esac
			done
		done
	fi
	dev_unload
done
meta end "$(date +%s)"
rm -rf "$TMP"
touch "$OUT/done"
