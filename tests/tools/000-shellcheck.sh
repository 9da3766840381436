#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="shellcheck: every shell script of the project (tools, build, install, runners, tests) is clean"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
command -v shellcheck >/dev/null || { echo "shellcheck not installed"; exit 77; }
cd "$TOP" || exit 1
shopt -s nullglob globstar
shellcheck -x admin/ioschedctl scripts/*.sh scripts/lib/*.sh src/**/*.sh \
	tests/**/*.sh .ci/run
