#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="ioschedctl list/show/--help on the real kernel: devices, schedulers, rotational, depth; usage errors exit 2"
. "$(dirname "$0")/lib.sh"
load_modules || fail "insmod failed"

out=$("$ISC" list) || fail "list exited $?"
line=$(printf '%s\n' "$out" | awk -v d="$DEV" '$1 == d')
[ -n "$line" ] || fail "list has no $DEV line: $out"
read -r _ cur rota depth avail <<<"$line"
[ "$cur" = "$(current_sched "$DEV")" ] || fail "list says $DEV uses '$cur'"
[ "$rota" = "$(cat "/sys/block/$DEV/queue/rotational")" ] || fail "list rotational '$rota'"
[ "$depth" = "$(cat "/sys/block/$DEV/queue/nr_requests")" ] || fail "list depth '$depth'"
for s in none $ELVKIT_SCHEDS; do
	case " $avail " in *" $s "*) ;; *) fail "list: $s not available for $DEV: $line" ;; esac
done
# every block device is listed
for d in /sys/block/*; do
	printf '%s\n' "$out" | awk '{print $1}' | grep -qx "${d##*/}" || fail "list lacks ${d##*/}"
done

out=$("$ISC" show "/dev/$DEV") || fail "show /dev/$DEV exited $?"
printf '%s\n' "$out" | grep -qx "scheduler: $(current_sched "$DEV")" || fail "show: $out"

for c in list show set tune persist unpersist; do
	"$ISC" "$c" --help | grep -q "^Usage: ioschedctl $c" || fail "$c --help"
done
"$ISC" frob 2>/dev/null; [ $? = 2 ] || fail "unknown command must exit 2"
"$ISC" set "$DEV" 2>/dev/null; [ $? = 2 ] || fail "set with one argument must exit 2"
"$ISC" tune "$DEV" read_expire 2>/dev/null; [ $? = 2 ] || fail "tune without = must exit 2"
err=$("$ISC" show nosuchdev 2>&1); [ $? = 1 ] || fail "show of an unknown device must exit 1"
[ "$err" = "ioschedctl: no such block device: nosuchdev" ] || fail "show error: $err"
exit 0
