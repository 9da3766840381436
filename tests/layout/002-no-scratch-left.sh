#!/usr/bin/env bash
# shellcheck disable=SC2034 # DESCRIPTION: read by the runners
DESCRIPTION="a module build leaves no copy of the tree behind, in a private root (one per checkout piled up there) or in build/"
# Usage: 002-no-scratch-left.sh RELEASE
set -u
cd "$(dirname "$0")/../.." || exit 1
. scripts/lib/kernels.sh
ver=${1:?release}
copy=$(k_tree_copy "$ver") || { echo "FAIL: no root for $ver"; exit 1; }
# A copy from an earlier build (or an older kbuild.sh) goes too.
mkdir -p "$copy" || { echo "FAIL: cannot make $copy"; exit 1; }
scripts/kbuild.sh --layout "$ver" || { echo "FAIL: layout build fails"; exit 1; }
if [ -e "$copy" ]; then
	echo "FAIL: $copy is left behind"
	exit 1
fi
echo "no copy left at $copy"
