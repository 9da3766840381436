#!/bin/bash
# shellcheck disable=SC2034 # DESCRIPTION: read by run.sh
DESCRIPTION="no tracked file holds a merge's conflict markers (one reached the README once)"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 1
git rev-parse --git-dir >/dev/null 2>&1 || { echo "not a git checkout"; exit 77; }
if git grep -n -I -e '^<<<<<<< ' -e '^>>>>>>> ' -e '^=======$' -- . ':!*.png'; then
	echo "conflict markers above"
	exit 1
fi
exit 0
