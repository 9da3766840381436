#!/usr/bin/env bash
# Undo scripts/install-deps.sh (`make deps-clean`): purge exactly the host
# packages it recorded as added (kernels included), remove anything DKMS
# still holds of elvkit, and delete /var/lib/elvkit (the private sid root,
# the records). Packages the host had before are never touched.
# Usage: scripts/deps-clean.sh [--dry-run]
set -euo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh
export DEBIAN_FRONTEND=noninteractive
log() { printf 'deps-clean: %s\n' "$*" >&2; }
dry=0
case "${1:-}" in
--dry-run) dry=1 ;;
"") ;;
*) echo "deps-clean: unknown argument '$1' (--dry-run)" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || { log "must run as root"; exit 1; }

manifest=$EK_VAR/host-packages
pkgs=()
if [ -s "$manifest" ]; then
	while read -r p; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep 'install ok installed' >/dev/null && pkgs+=("$p")
	done <"$manifest"
fi
log "host packages elvkit added: ${pkgs[*]:-none}"
log "private roots and records: $EK_VAR"
[ $dry = 0 ] || exit 0

# DKMS first, while dkms is still installed.
if command -v dkms >/dev/null && [ -n "$(dkms status -m elvkit 2>/dev/null)" ]; then
	log "dkms remove elvkit (every kernel)"
	scripts/dkms.sh remove --all || true
fi
if [ ${#pkgs[@]} -gt 0 ]; then
	log "apt-get purge ${#pkgs[@]} packages"
	apt-get purge -y -qq "${pkgs[@]}" >/dev/null
fi
# Mounts a build left in the private root (a killed chroot build).
while read -r m; do
	umount "$m" || umount -l "$m"
done < <(awk -v v="$EK_VAR/" 'index($2, v) == 1 { print $2 }' /proc/mounts | sort -r)
rm -rf "$EK_VAR"
# A purged kernel package leaves its module directory behind when depmod or
# DKMS wrote files there; remove those of the kernels elvkit added only.
for p in "${pkgs[@]}"; do
	case $p in linux-image-[0-9]*) ;; *) continue ;; esac
	d=/lib/modules/${p#linux-image-}
	d=${d%-unsigned}
	[ -d "$d" ] || continue
	dpkg -S "$d" >/dev/null 2>&1 || { log "removing leftover $d"; rm -rf "$d"; }
done
log "done"
