#!/usr/bin/env bash
# Compare the shim's private elevator structures with kernel RELEASE's BTF.
# Usage: layout-check.sh RELEASE
exec "$(dirname "$0")/kbuild.sh" --layout "${1:?usage: layout-check.sh RELEASE}"
