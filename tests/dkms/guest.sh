#!/usr/bin/env bash
# DKMS test, guest side (booted by scripts/dkms-test.sh): the modules that
# DKMS installed under /lib/modules/KVER/updates/dkms are used as an admin
# would, with nothing loaded beforehand:
#   autoload  echo NAME > /sys/block/nullb0/queue/scheduler loads NAME
#   modprobe  modprobe NAME loads it and the shim
#   modinfo   description, version, parameters
# Schedulers are found from the installed modules' "<name>-iosched" aliases.
# Usage: guest.sh KVER RESULTS_DIR [--hide|--hide-only]
#   --hide  then take the DKMS copies out of this guest's module tree (in
#           memory only), so that what runs next in the same boot (the guest
#           suite, tests/vm/guest.sh) loads the modules under test, not these:
#           the module index goes back to its copy from before the install
#           (RESULTS_DIR/dkms-KVER-index, scripts/dkms-test.sh --install)
#   --hide-only  only that, recording nothing: a second boot of the suite
#           after the emulator broke the first (tests/vm/guest.sh)
set -u
KVER=$1
export ELVKIT_RESULTS=$2
hide=${3:-}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/scripts/lib/results.sh"
. "$TOP/scripts/lib/dkms-modules.sh"
G=dkms-$KVER
P=dkms/$KVER
VERSION=$("$TOP/scripts/version.sh")
DEV=nullb0
S=/sys/block/$DEV/queue/scheduler
dir=/lib/modules/$KVER/updates/dkms
mods=()

ok() { record "$G" PASS "$P/$1"; }
bad() { record "$G" FAIL "$P/$1"; shift; printf '    %s\n' "$*"; }
loaded() { [ -d "/sys/module/${1//-/_}" ]; }
current() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$S"; }

# hide: take the DKMS copies out of the module tree; prints what is left.
hide() {
	local m all
	mapfile -t all < <(cd "$TOP" && dkms_modules "$KVER")
	modprobe -r null_blk 2>/dev/null
	for m in "${all[@]}"; do
		modprobe -r "$m" 2>/dev/null
		rm -f "$dir/$m".ko*
	done
	cp "$ELVKIT_RESULTS/dkms-$KVER-index"/modules.* "/lib/modules/$KVER/" ||
		{ echo "no copy of the module index from before the install"; return 1; }
	modinfo -F filename "${all[@]}" 2>/dev/null | grep "^$dir/"
	return 0
}

finish() {
	if [ "$hide" = --hide ]; then
		if ! left=$(hide); then
			bad hidden "$left"
		elif [ -z "$left" ]; then ok hidden; else bad hidden "still found: $left"; fi
	fi
	touch "$ELVKIT_RESULTS/dkms-$KVER.done"
	exit 0
}

if [ "$hide" = --hide-only ]; then
	if left=$(hide) && [ -z "$left" ]; then exit 0; fi
	echo "dkms/$KVER: hiding failed: $left"
	exit 1
fi

[ "$(uname -r)" = "$KVER" ] || { bad booted "booted $(uname -r), want $KVER"; finish; }
for f in "$dir"/*.ko*; do
	[ -e "$f" ] && mods+=("$(basename "${f%%.ko*}")")
done
[ ${#mods[@]} -gt 0 ] || { bad installed "no modules in $dir"; finish; }

# scheduler name <- module, from the module's own alias
scheds=()
for m in "${mods[@]}"; do
	a=$(modinfo -F alias "$m" 2>/dev/null | sed -n 's/-iosched$//p' | head -n1)
	[ -n "$a" ] && scheds+=("$a:$m")
done
[ ${#scheds[@]} -gt 0 ] || { bad aliases "no module has a NAME-iosched alias"; finish; }

modprobe null_blk nr_devices=1 || { bad null_blk "modprobe null_blk failed"; finish; }
udevadm settle 2>/dev/null || true

for sm in "${scheds[@]}"; do
	name=${sm%%:*}
	mod=${sm#*:}
	# autoload: nothing of elvkit is loaded, the write alone must load it
	if loaded elvkit || loaded "$mod"; then
		bad "autoload/$name" "elvkit modules loaded before the test: $(ls -d /sys/module/elvkit /sys/module/"${mod//-/_}" 2>/dev/null)"
	elif ! err=$( { echo "$name" >"$S"; } 2>&1); then
		bad "autoload/$name" "echo $name > $S failed: $err"
	elif [ "$(current)" != "$name" ] || ! loaded "$mod"; then
		bad "autoload/$name" "scheduler is '$(current)', $mod loaded: $(loaded "$mod" && echo yes || echo no)"
	else
		ok "autoload/$name"
	fi
	echo none >"$S" 2>/dev/null
	modprobe -r "$mod" 2>/dev/null
	modprobe -r elvkit 2>/dev/null

	# modprobe: loads the scheduler and the shim it depends on
	if ! err=$(modprobe "$mod" 2>&1); then
		bad "modprobe/$name" "modprobe $mod: $err"
	elif ! loaded "$mod" || ! loaded elvkit; then
		bad "modprobe/$name" "after modprobe: $mod or elvkit not loaded"
	elif ! grep -qw "$name" "$S"; then
		bad "modprobe/$name" "$name not offered: $(cat "$S")"
	else
		ok "modprobe/$name"
	fi
	modprobe -r "$mod" 2>/dev/null
	modprobe -r elvkit 2>/dev/null
	if loaded "$mod" || loaded elvkit; then
		bad "unload/$name" "modprobe -r left modules loaded"
	fi
done

# modinfo: every installed module, resolved through the module index
for m in "${mods[@]}"; do
	fn=$(modinfo -F filename "$m" 2>/dev/null)
	desc=$(modinfo -F description "$m" 2>/dev/null)
	ver=$(modinfo -F version "$m" 2>/dev/null)
	parm=$(modinfo -F parm "$m" 2>/dev/null)
	why=""
	case "$fn" in "$dir"/*) ;; *) why="$why filename '$fn' is not the DKMS one;" ;; esac
	[ -n "$desc" ] || why="$why no description;"
	[ "$ver" = "$VERSION" ] || why="$why version '$ver' != '$VERSION';"
	# scheduler modules take parameters; the shim has none
	if [ "$m" != elvkit ] && [ -z "$parm" ]; then why="$why no parameters;"; fi
	if [ -z "$why" ]; then ok "modinfo/$m"; else bad "modinfo/$m" "$why"; fi
	printf '    modinfo %s: %s | %s | %s\n' "$m" "$desc" "$ver" "${parm:-no parm}"
done
modprobe -r null_blk 2>/dev/null
finish
