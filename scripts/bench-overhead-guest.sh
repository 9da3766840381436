#!/bin/bash
# The guest side of scripts/bench-overhead.sh: runs inside one QEMU boot.
# Loads the elvkit modules from KO_DIR and the kernel's own schedulers,
# creates a null_blk device that completes inline (irqmode=0) with two
# submit queues, and runs fio 4k random reads (libaio, QD32, 2 jobs) for
# every scheduler, ROUNDS times, the schedulers interleaved within each
# round (in a rotated order) so that drift over the boot hits them alike.
# Writes OUT/results.txt: "round sched iops ios busy_ticks hz" per point,
# where busy_ticks is every CPU's non-idle time from /proc/stat over the
# measured job (so kblockd and softirq work count, not only fio's), and
# OUT/iosched-rROUND-SCHED.txt: the scheduler's sysfs files as its job
# ended, "FILE:VALUE" (each selection starts its counters from 0).
# With MARK set (--profile), each measured job is framed by runs of that
# marker program (once per fio clone), listed in OUT/marks.txt
# ("ROUND.SCHED.start|end", one line per run, in order), and
# OUT/kallsyms.txt gets the kernel's symbols: the host's QEMU plugin
# writes OUT/prof-NNNN.txt at each marker.
# usage: bench-overhead-guest.sh OUTDIR   (OUTDIR/config.sh: KVER KO_DIR
#   SCHEDS ROUNDS RUNTIME [MARK], written by the host)
set -u
OUT=${1:?usage: bench-overhead-guest.sh OUTDIR}
# shellcheck source=/dev/null
. "$OUT/config.sh"
: "${KVER:?}" "${KO_DIR:?}" "${SCHEDS:?}" "${ROUNDS:?}" "${RUNTIME:?}"
RES=$OUT/results.txt
: >"$RES"
log() { printf '[%s] %s\n' "$(date +%T)" "$*" >>"$OUT/guest.log"; }

[ "$(uname -r)" = "$KVER" ] || { log "booted $(uname -r), expected $KVER"; exit 1; }
log "kernel $(uname -r), $(nproc) cpus, $(fio --version)"

insmod "$KO_DIR/elvkit.ko" || log "insmod elvkit failed"
for ko in "$KO_DIR"/*.ko; do
	n=$(basename "$ko" .ko)
	case $n in elvkit | ekdisk) continue ;; esac	# loaded first; not a scheduler
	insmod "$ko" || log "insmod $n failed"
done
for m in mq-deadline-iosched kyber-iosched bfq; do
	modprobe "$m" 2>/dev/null || true
done
modprobe null_blk nr_devices=1 irqmode=0 submit_queues=2 gb=16 \
	memory_backed=0 || { log "null_blk failed"; exit 1; }
udevadm settle 2>/dev/null || true
SYSQ=/sys/block/nullb0/queue
log "scheduler line: $(cat $SYSQ/scheduler)"

TMP=$(mktemp -d)
# Busy ticks of all CPUs (user nice system irq softirq steal), and with
# --profile the marker: after the ticks when a job starts, before them
# when it ends, so that the profile holds the job and the least else.
cat >"$TMP/stat.sh" <<EOF
#!/bin/bash
mark() { [ -z "${MARK:-}" ] || { echo "\$2" >>"$OUT/marks.txt"; "${MARK:-}"; }; }
case \$1 in */t1-*) mark "\$@" ;; esac
awk '/^cpu / {print \$2+\$3+\$4+\$7+\$8+\$9}' /proc/stat >"\$1"
case \$1 in */t0-*) mark "\$@" ;; esac
EOF
# The scheduler's tunables and counters (fair-queue's idle waits, queue
# switches...) after its measured job, as bench-kernel-guest.sh's keep.sh.
cat >"$TMP/iosched.sh" <<EOF
#!/bin/bash
grep -H . $SYSQ/iosched/* >"\$1" 2>/dev/null
EOF
cat >"$TMP/sel.sh" <<EOF
#!/bin/bash
echo "\$1" >$SYSQ/scheduler && grep -qF "[\$1]" $SYSQ/scheduler && touch "$TMP/sel-\$1"
EOF
chmod +x "$TMP/stat.sh" "$TMP/iosched.sh" "$TMP/sel.sh"
hz=$(getconf CLK_TCK)

read -ra scheds <<<"$SCHEDS"
n=${#scheds[@]}
for r in $(seq 1 "$ROUNDS"); do
	# One fio process per round (fio starts slowly under TCG); each
	# scheduler's job is preceded by a tiny job that selects it.
	args=(--output-format=json --filename=/dev/nullb0 --randrepeat=0)
	order=()
	for i in $(seq 0 $((n - 1))); do
		order+=("${scheds[$(((i + r - 1) % n))]}")
	done
	rm -f "$TMP"/sel-* "$TMP"/t0-* "$TMP"/t1-*
	for s in "${order[@]}"; do
		args+=(--name="sel-$s" --stonewall --exec_prerun="$TMP/sel.sh $s"
			--rw=read --bs=4k --size=4k --direct=1
			--name="m-$s" --stonewall --rw=randread --bs=4k --direct=1
			--ioengine=libaio --iodepth=32 --numjobs=2 --group_reporting
			--time_based --runtime="$RUNTIME"
			--exec_prerun="$TMP/stat.sh $TMP/t0-$s $r.$s.start"
			--exec_postrun="$TMP/stat.sh $TMP/t1-$s $r.$s.end"
			--name="post-$s" --stonewall --exec_prerun="$TMP/iosched.sh $OUT/iosched-r$r-$s.txt"
			--rw=read --bs=4k --size=4k --direct=1)
	done
	(cd "$TMP" && fio "${args[@]}" >"$OUT/round-$r.json" 2>"$OUT/round-$r.err")
	log "round $r: fio exit $? (order ${order[*]})"
	for s in "${order[@]}"; do
		if [ ! -e "$TMP/sel-$s" ]; then
			log "round $r: $s could not be selected"
			continue
		fi
		read -r ios iops < <(python3 - "$OUT/round-$r.json" "m-$s" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
# fio prints its prerun/postrun notes before the JSON
for j in json.loads(text[text.index("{"):])["jobs"]:
    if j["jobname"] == sys.argv[2]:
        print(j["read"]["total_ios"], j["read"]["iops"])
PY
)
		t0=$(cat "$TMP/t0-$s" 2>/dev/null || echo 0)
		t1=$(cat "$TMP/t1-$s" 2>/dev/null || echo 0)
		echo "$r $s ${iops:-0} ${ios:-0} $((t1 - t0)) $hz" >>"$RES"
	done
done
[ -z "${MARK:-}" ] || cat /proc/kallsyms >"$OUT/kallsyms.txt"
touch "$OUT/done"
