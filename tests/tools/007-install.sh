#!/bin/bash
# shellcheck source-path=SCRIPTDIR disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="make install/uninstall honour DESTDIR and PREFIX; dkms.conf names the version and every Kbuild module"
. "$(dirname "$0")/lib.sh"
cd "$TOP" || exit 1
V=$(scripts/version.sh)
D=$T/dest
make -s --no-print-directory install DESTDIR="$D" >/dev/null || fail "make install failed"
for f in usr/sbin/ioschedctl usr/share/man/man8/ioschedctl.8 usr/share/man/man7/elvkit.7; do
	[ -f "$D/$f" ] || fail "make install: no $f"
done
[ -x "$D/usr/sbin/ioschedctl" ] || fail "ioschedctl not executable"
[ "$("$D/usr/sbin/ioschedctl" --version)" = "ioschedctl (elvkit) $V" ] || fail "installed --version"
grep -q "elvkit $V" "$D/usr/share/man/man7/elvkit.7" || fail "man page version not substituted"
make -s --no-print-directory install DESTDIR="$D" PREFIX=/usr/local >/dev/null || fail "install PREFIX"
[ -x "$D/usr/local/sbin/ioschedctl" ] || fail "PREFIX=/usr/local ignored"
make -s --no-print-directory uninstall DESTDIR="$D" >/dev/null || fail "make uninstall failed"
make -s --no-print-directory uninstall DESTDIR="$D" PREFIX=/usr/local >/dev/null || fail "uninstall PREFIX"
left=$(find "$D" -type f)
[ -z "$left" ] || fail "uninstall left: $left"

# dkms.conf, read the way dkms reads it (bash, with $kernelver set)
conf=$(kernelver=9.9.9-test bash -c '. ./dkms.conf; declare -p PACKAGE_NAME PACKAGE_VERSION AUTOINSTALL MAKE BUILT_MODULE_NAME BUILT_MODULE_LOCATION DEST_MODULE_LOCATION')
eval "$conf"
[ "$PACKAGE_NAME" = elvkit ] || fail "PACKAGE_NAME=$PACKAGE_NAME"
[ "$PACKAGE_VERSION" = "$V" ] || fail "PACKAGE_VERSION=$PACKAGE_VERSION, version.h says $V"
[ "$AUTOINSTALL" = yes ] || fail "AUTOINSTALL=$AUTOINSTALL"
[ "${MAKE[0]}" = "make KVER=9.9.9-test" ] || fail "MAKE[0]=${MAKE[0]}"
# What Kbuild builds, evaluated by make as kbuild does (obj-m is partly
# computed), checked against the glue files it must cover.
# shellcheck disable=SC2016 # $(obj-m) is make's, not the shell's
want=$(printf 'include Kbuild\n_m:\n\t@echo $(obj-m)\n' | make -s --no-print-directory -f - _m | tr ' ' '\n' | sed -n 's/\.o$//p' | sort)
for g in src/modules/*_mod.c; do
	m=$(basename "$g" _mod.c)
	grep -qx "${m//_/-}" <<<"$want" || fail "Kbuild does not build ${m//_/-} from $g"
done
got=$(printf '%s\n' "${BUILT_MODULE_NAME[@]}" | sort)
[ "$got" = "$want" ] || fail "BUILT_MODULE_NAME: ${got//$'\n'/ }, Kbuild: ${want//$'\n'/ }"
for i in "${!BUILT_MODULE_NAME[@]}"; do
	[ "${BUILT_MODULE_LOCATION[$i]}" = "build/9.9.9-test/" ] || fail "BUILT_MODULE_LOCATION[$i]=${BUILT_MODULE_LOCATION[$i]}"
	[ -n "${DEST_MODULE_LOCATION[$i]}" ] || fail "no DEST_MODULE_LOCATION[$i]"
done
done_test
