#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="module churn: each policy module (and the shim) loaded and unloaded repeatedly while other devices run elvkit schedulers under verified fio; unload refused while in use; refcounts back to 0"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/rel-lib.sh"
rounds=$(rel_n 5)
read -ra scheds <<<"$ELVKIT_SCHEDS"
[ "${#scheds[@]}" -ge 1 ] || fail "no scheduler modules"
devs=()
# shellcheck disable=SC2317 # called by the EXIT trap (rel-lib.sh)
rel_cleanup() {
	local d
	[ -z "${pid:-}" ] || rel_signal TERM "$pid"
	for d in "${devs[@]}" "$DEV"; do echo none >"$(sched_file "$d")" 2>/dev/null; done
	nullb_remove churn1
	nullb_remove churn2
	load_modules
}
refcnt() { cat "/sys/module/${1//-/_}/refcnt" 2>/dev/null || echo gone; }
load_modules || fail "insmod failed"
for n in churn1 churn2; do
	d=$(rel_nullb_create "$n" 64) || fail "null_blk $n"
	bdev_node "$d" || fail "/dev/$d"
	devs+=("$d")
done
busy=${devs[0]} spare=${devs[1]}
loads=0 refused=0

# background_io DEV: verified fio on DEV until killed.
background_io() {
	rel_fio "bg$2" --filename="/dev/$1" --time_based --runtime=900 --verify=crc32c \
		--name=bg --size=32m --bs=4k --rw=randwrite --direct=1 --ioengine=libaio \
		--iodepth=8 --verify_backlog=64 &
	pid=$!
}
stop_io() {
	rel_signal INT "$pid"
	rel_wait_pid "$pid" 120
	[ $? != 124 ] || { rel_hung_report "$busy"; fail "fio on the busy device hung"; }
	pid=
	rel_fio_ok "bg$1"
}

for p in "${scheds[@]}"; do
	# The busy device runs another elvkit scheduler (or p itself when it is
	# the only one, and then p cannot be unloaded: that is checked).
	q=$p
	for s in "${scheds[@]}"; do [ "$s" = "$p" ] || { q=$s; break; }; done
	set_sched "$busy" "$q" || fail "select $q on $busy"
	background_io "$busy" "$p"
	for ((r = 0; r < rounds; r++)); do
		module_loaded "$p" || { insmod "$ELVKIT_KO_DIR/$p.ko" || fail "insmod $p"; loads=$((loads + 1)); }
		set_sched "$spare" "$p" || fail "select $p on $spare"
		rel_fio "spare-$p-$r" --name=spare --filename="/dev/$spare" --size=4m --bs=4k \
			--rw=randwrite --direct=1 --ioengine=libaio --iodepth=8 --verify=crc32c ||
			true
		rel_fio_ok "spare-$p-$r"
		[ "$(refcnt "$p")" -ge 1 ] || fail "$p refcnt $(refcnt "$p") while $spare uses it"
		rmmod "$p" 2>/dev/null && fail "rmmod $p succeeded while $spare uses it"
		refused=$((refused + 1))
		module_loaded "$p" || fail "$p gone while in use"
		rmmod elvkit 2>/dev/null && fail "rmmod elvkit succeeded while schedulers are loaded"
		refused=$((refused + 1))
		set_sched "$spare" none || fail "switch $spare to none"
		if [ "$q" = "$p" ]; then
			continue
		fi
		[ "$(refcnt "$p")" = 0 ] || fail "$p refcnt $(refcnt "$p") with no user"
		rmmod "$p" || fail "rmmod $p with no user"
		module_loaded "$p" && fail "$p still loaded"
	done
	kill -0 "$pid" 2>/dev/null || fail "fio on $busy ended early"
	stop_io "$p"
	set_sched "$busy" none || fail "switch $busy to none"
	load_modules || fail "reload"
done

# The shim: every device on a kernel scheduler with I/O running, the whole
# stack unloaded and loaded again; then back in use.
set_sched "$busy" mq-deadline || fail "mq-deadline on $busy"
background_io "$busy" shim
for ((r = 0; r < rounds; r++)); do
	for p in "${scheds[@]}"; do
		[ "$(refcnt "$p")" = 0 ] || fail "$p refcnt $(refcnt "$p") with no user"
		rmmod "$p" || fail "rmmod $p"
	done
	[ "$(refcnt elvkit)" = 0 ] || fail "elvkit refcnt $(refcnt elvkit) after its policies left"
	rmmod elvkit || fail "rmmod elvkit"
	module_loaded elvkit && fail "elvkit still loaded"
	load_modules || fail "reload round $r"
	loads=$((loads + 1 + ${#scheds[@]}))
	[ "$(refcnt elvkit)" = "${#scheds[@]}" ] || fail "elvkit refcnt $(refcnt elvkit), want ${#scheds[@]}"
	set_sched "$spare" "${scheds[$((r % ${#scheds[@]}))]}" || fail "select after reload"
	rel_fio "shim-$r" --name=spare --filename="/dev/$spare" --size=4m --bs=4k \
		--rw=randwrite --direct=1 --ioengine=libaio --iodepth=8 --verify=crc32c || true
	rel_fio_ok "shim-$r"
	set_sched "$spare" none
done
stop_io shim
set_sched "$busy" none
echo "$loads module loads, $refused unloads refused while in use"
rel_metric load module_loads "$loads"
rel_metric fault unload_refused_in_use "$refused"
rel_metric load devices 2
exit 0
