#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION, PER_SCHED: read by guest.sh
DESCRIPTION="ekdisk loads with every profile and reports the model's rotational flag, queue depth, write cache and capacity (in whole 4 KiB)"
. "$(dirname "$0")/lib.sh"

# model_param NAME: the loaded device's value of a model parameter.
model_param() { sed -n "s/^$1=//p" /sys/block/ekdisk0/ekdisk/model_params; }

# check PROFILE ROT: ekdisk0 reports what its model says.
check() {
	local p=$1 rot=$2 q=/sys/block/ekdisk0/queue wc want_wc size want_size
	[ "$(cat /sys/block/ekdisk0/ekdisk/profile)" = "$p" ] || fail "$p: profile reads '$(cat /sys/block/ekdisk0/ekdisk/profile)'"
	[ "$(cat $q/rotational)" = "$rot" ] || fail "$p: rotational $(cat $q/rotational), want $rot"
	[ "$(cat /sys/block/ekdisk0/mq/0/nr_tags)" = "$(model_param qd)" ] ||
		fail "$p: nr_tags $(cat /sys/block/ekdisk0/mq/0/nr_tags), model qd $(model_param qd)"
	wc=$(cat $q/write_cache)
	want_wc="write through"
	[ "$(model_param wce)" = 1 ] && want_wc="write back"
	[ "$wc" = "$want_wc" ] || fail "$p: write_cache '$wc', want '$want_wc'"
	if [ "$want_wc" = "write back" ] && [ "$(cat $q/fua)" != 1 ]; then
		fail "$p: write cache without FUA"
	fi
	# The model rounds capacity up to whole tracks, ekdisk down to whole
	# 4 KiB (as a real disk's): within 1%.
	size=$(cat /sys/block/ekdisk0/size)
	want_size=$(($(model_param capacity_gb) * 1000000000 / 512))
	if [ "$size" -lt $((want_size - 7)) ] || [ "$size" -gt $((want_size + want_size / 100)) ]; then
		fail "$p: $size sectors for $(model_param capacity_gb) GB"
	fi
	[ $((size % 8)) = 0 ] || fail "$p: $size sectors is not whole 4 KiB"

	dd if=/dev/ekdisk0 of=/dev/null bs=4k count=4 iflag=direct 2>/dev/null || fail "$p: read failed"
}

for p in hdd:1 hdd-laptop:1 hdd-2002:1 ssd:0 null:0; do
	ekdisk_load profile="${p%:*}" || fail "insmod ekdisk profile=${p%:*} failed"
	check "${p%:*}" "${p#*:}"
	echo "    ${p%:*}: qd $(model_param qd), $(cat /sys/block/ekdisk0/queue/write_cache), $(cat /sys/block/ekdisk0/size) sectors"
done

# Overrides: shorthands, params, several devices.
ekdisk_load profile=hdd qd=1 capacity_gb=2 nr_devices=2 params=wce=0,rpm=5400 ||
	fail "insmod with overrides failed"
check hdd 1
[ -b /dev/ekdisk1 ] || fail "nr_devices=2 made no /dev/ekdisk1"
[ "$(model_param qd)$(model_param rpm)$(model_param wce)" = 154000 ] ||
	fail "overrides not applied: $(tr '\n' ' ' </sys/block/ekdisk0/ekdisk/model_params)"
ekdisk_unload || fail "rmmod ekdisk failed"
