#!/usr/bin/env bash
# Build the kernel modules for one installed kernel, or for the matrix.
#   kbuild.sh RELEASE          modules into build/RELEASE/
#   kbuild.sh --matrix         every supported kernel installed (6.1, 6.12, 7.2)
#   kbuild.sh --layout RELEASE only prove the private structs against BTF
# Builds with W=1 (and C=1 where sparse is available); any compiler or
# sparse warning fails the build.
set -euo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh

die() { echo "kbuild: $*" >&2; exit 1; }

# gen_headers RELEASE DIR: every fact about the target kernel, in DIR, by
# the one generator (scripts/kernel-facts.py) from the kernel's BTF and its
# public headers.
gen_headers() {
	local ver=$1 dir=$2 root btf inc=
	mkdir -p "$dir"
	btf="build/$ver/vmlinux.btf"
	if [ ! -s "$btf" ]; then
		scripts/extract-btf.sh "$ver" "$btf.tmp" && mv "$btf.tmp" "$btf"
	fi
	root=$(k_root "$ver")
	# Debian splits a kernel's headers: the common part holds include/linux.
	for d in "$root/usr/src/linux-headers-${ver%-amd64}-common/include" \
		"$root/lib/modules/$ver/build/include"; do
		[ -d "$d/linux" ] && inc+=${inc:+:}$d
	done
	[ -n "$inc" ] || die "no include/linux for $ver"
	scripts/kernel-facts.py "$btf" "$inc" "$dir" \
		${ELVKIT_LAYOUT_TAMPER:+--tamper "$ELVKIT_LAYOUT_TAMPER"}
}

# build_one RELEASE [layout]
build_one() {
	local ver=$1 mode=${2:-modules} out="build/$1" root tree kdir log rc=0
	root=$(k_root "$ver") || die "no kernel headers for $ver (run scripts/install-deps.sh)"
	mkdir -p "$out"
	# Each kernel builds in its own copy of the tree: out-of-tree kbuild
	# writes objects next to the sources, and a private root's kernel builds
	# in a chroot.
	tree=$(k_tree_copy "$ver")
	rm -rf "$tree"
	mkdir -p "$tree/src"
	cp -a Kbuild include "$tree/"
	cp -a src/shim src/modules src/policy src/lib src/model src/ekdisk "$tree/src/"
	gen_headers "$ver" "$tree/gen"
	kdir="/lib/modules/$ver/build"
	[ "$root" != "$EK_DEBUG_ROOT" ] || kdir="$root$kdir"	# built on the host
	local args=(-C "$kdir" M="${tree#"$root"}" W=1 modules)
	[ "$mode" = layout ] && args+=(ELVKIT_LAYOUT_ONLY=1)
	if [ -z "$root" ] && command -v sparse >/dev/null && [ "$mode" != layout ]; then
		args+=(C=1)
	fi
	log="$out/kbuild.log"
	# objtool reads /proc/self: k_in_root mounts it for the build.
	k_in_root "$ver" make "${args[@]}" >"$log" 2>&1 || rc=$?
	if [ $rc -eq 0 ] && grep -E '(warning|error):' "$log" | grep -v '^make' >/dev/null; then
		rc=warned
	fi
	if [ $rc = 0 ] && [ "$mode" != layout ]; then
		cp "$tree"/*.ko "$out/"
	fi
	# The copy is scratch, remade by every build; the log and the modules
	# are kept in $out. In a private root one per checkout piled up (every
	# clean-clone CI run left its 12 MB behind).
	rm -rf "$tree"
	if [ "$rc" = warned ]; then
		grep -E '(warning|error):' "$log" | grep -v '^make' >&2 || true
		die "build for $ver printed warnings (full log: $log)"
	elif [ $rc -ne 0 ]; then
		grep -E 'error|elvkit layout' "$log" | head -n 20 >&2 || true
		die "build for $ver failed (full log: $log)"
	fi
	if [ "$mode" = layout ]; then
		echo "layout-check $ver: OK (elevator_type, elevator_mq_ops, elevator_queue, elv_fs_entry, blk_mq_alloc_data match BTF)"
		return
	fi
	local kos=("$out"/*.ko)
	echo "kbuild: $ver: ${kos[*]##*/}"
}

case "${1:-}" in
--matrix)
	n=0
	for leg in "${EK_KERNEL_LEGS[@]}"; do
		ver=$(k_leg_release "$leg")
		[ -n "$ver" ] || { echo "kbuild: no $leg kernel installed, skipped" >&2; continue; }
		build_one "$ver"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || die "no supported kernel installed"
	;;
--layout) build_one "${2:?release}" layout ;;
"") die "usage: kbuild.sh RELEASE | --matrix | --layout RELEASE" ;;
*) build_one "$1" ;;
esac
