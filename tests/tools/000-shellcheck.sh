#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="shellcheck: ioschedctl, the DKMS scripts and the tool/VM/DKMS tests are clean"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
command -v shellcheck >/dev/null || { echo "shellcheck not installed"; exit 77; }
cd "$TOP" || exit 1
shopt -s nullglob
shellcheck -x scripts/ioschedctl scripts/dkms.sh scripts/dkms-test.sh tests/dkms/*.sh \
	tests/tools/*.sh tests/vm/5[0-9][0-9]-ioschedctl-*.sh
