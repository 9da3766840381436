#!/usr/bin/env bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runners
DESCRIPTION="make deps on a clean Debian 12 root takes every package from Debian 12 and upgrades none of libc6, systemd, python3, base-files"
# A minimal Debian 12 root (debootstrap, cached under build/) stands for a
# fresh machine; the dependency step runs in it in apt's simulation mode.
set -u
cd "$(dirname "$0")/../.." || exit 1
root=${ELVKIT_TEST_ROOT:-$PWD/build/deps-root/bookworm}
mirror=${ELVKIT_MIRROR:-http://deb.debian.org/debian}
fail() { echo "FAIL: $*"; exit 1; }

if [ ! -e "$root/etc/elvkit-test-root" ]; then
	echo "debootstrapping a clean Debian 12 root into $root"
	rm -rf "$root"
	mkdir -p "$root"
	debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 ||
		fail "debootstrap failed: $(tail -n 3 "$root.log")"
	# As an installed Debian 12 has it: the release, its updates and security.
	cat >"$root/etc/apt/sources.list" <<SRC
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
SRC
	touch "$root/etc/elvkit-test-root"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
mountpoint -q "$root/proc" || { mount -t proc proc "$root/proc" && trap 'umount "$root/proc"' EXIT; }
rm -rf "$root/elvkit"
mkdir -p "$root/elvkit"
cp -a scripts "$root/elvkit/"
rm -rf "$root/var/lib/elvkit"
chroot "$root" apt-get update -qq >/dev/null 2>&1 || fail "apt-get update in the root failed"

# shellcheck disable=SC1091 # the root's, not ours
rel=$(. "$root/etc/os-release" && echo "$VERSION_ID")
apt_state() { find "$root/etc/apt/sources.list" "$root/etc/apt/sources.list.d" "$root/etc/apt/preferences.d" -type f 2>/dev/null | sort | xargs cat 2>/dev/null | md5sum; }
before=$(apt_state)
out=$(chroot "$root" bash /elvkit/scripts/install-deps.sh --simulate all 2>&1) ||
	fail "install-deps.sh --simulate failed: $(tail -n 5 <<<"$out")"
n=$(grep -c '^Inst ' <<<"$out")
echo "$n packages would be installed"
[ "$n" -gt 0 ] || fail "the simulation installs nothing (is the root really clean?)"

bad=0
# Inst NAME [OLD] (NEW ORIGIN:RELEASE/SUITE[, ORIGIN:RELEASE/SUITE] [ARCH])
while read -r line; do
	origins=$(sed -n 's/^Inst [^(]*([^ ]* \(.*\) \[[a-z0-9]*\]).*/\1/p' <<<"$line")
	[ -n "$origins" ] || { echo "unparsed: $line"; bad=1; continue; }
	ok=0
	IFS=, read -ra list <<<"$origins"
	for o in "${list[@]}"; do
		o=${o# }
		r=${o#*:}
		r=${r%%/*}
		case $r in "$rel" | "$rel".*) ok=1 ;; esac
	done
	[ $ok = 1 ] || { echo "from a release other than $rel: $line"; bad=1; }
done < <(grep '^Inst ' <<<"$out")
for p in libc6 systemd python3 base-files; do
	if grep -E "^Inst $p \[" <<<"$out"; then
		echo "would change the version of $p"
		bad=1
	fi
done
[ "$(apt_state)" = "$before" ] || { echo "the apt sources or pins of the root changed"; bad=1; }
[ $bad = 0 ] || fail "the dependency step would take the host off Debian $rel"
echo "every package from Debian $rel; libc6, systemd, python3, base-files untouched"
