#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="ekdisk refuses bad parameters: the load fails with a one-line reason in the kernel log"
. "$(dirname "$0")/lib.sh"
ekdisk_unload || fail "rmmod ekdisk failed"
# ARGS|what the reason must mention
cases=(
	"profile=floppy|unknown profile 'floppy'"
	"params=rpm=1|rpm=1 is out of range"
	"params=heads=4|no parameter 'heads'"
	"params=rpm|not NAME=VALUE"
	"params=rpm=fast|not an integer"
	"qd=999|qd=999 is out of range"
	"profile=ssd params=wce=1|no parameter 'wce'"
	"nr_devices=17|nr_devices=17 is over 16"
	"params=inner_mbs=400|refuses these parameter values"
)
for c in "${cases[@]}"; do
	args=${c%%|*} want=${c#*|}
	n0=$(dmesg | wc -l)
	# shellcheck disable=SC2086 # the arguments are words
	if insmod "$ELVKIT_KO_DIR/ekdisk.ko" $args 2>/dev/null; then
		rmmod ekdisk
		fail "insmod ekdisk $args loaded"
	fi
	log=$(dmesg_since "$n0")
	[ "$(printf '%s\n' "$log" | grep -c .)" = 1 ] || fail "$args: want one log line, got: $log"
	case $log in *"ekdisk: "*"$want"*) ;; *) fail "$args: '$log' lacks '$want'" ;; esac
	echo "    $args: ${log#*] }"
done
