#!/bin/bash
DESCRIPTION="shellcheck: ioschedctl, the DKMS test and the VM/tool tests are clean"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
command -v shellcheck >/dev/null || { echo "shellcheck not installed"; exit 77; }
cd "$TOP" || exit 1
shellcheck -x scripts/ioschedctl scripts/dkms-test.sh tests/dkms/*.sh \
	tests/vm/5[0-9][0-9]-ioschedctl-*.sh
