#!/bin/bash
# Run the simulator tests and record each result (group "sim").
# usage: run.sh TEST_BIN_DIR ELVKIT_SIM TEST_SOURCE...
# C tests run from TEST_BIN_DIR; shell tests get ELVKIT_SIM in the
# environment. Runs every test even after a failure; exits 1 if any failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/lib/results.sh
. "$here/../../scripts/lib/results.sh"

out=$1
ELVKIT_SIM=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
export ELVKIT_SIM
shift 2
mkdir -p "${ELVKIT_RESULTS:?ELVKIT_RESULTS not set}" "$out"
: >"$ELVKIT_RESULTS/sim.txt"

failed=0
for src in "$@"; do
	case $src in
	*.c) name=$(basename "$src" .c); cmd=("$out/$name") ;;
	*.sh) name=$(basename "$src" .sh); cmd=(bash "$src") ;;
	*) continue ;;
	esac
	log=$out/$name.log
	if [ "${cmd[0]}" != bash ] && [ ! -x "${cmd[0]}" ]; then
		record sim FAIL "sim/$name"
		echo "     $name did not build"
		failed=1
		continue
	fi
	run_test sim "sim/$name" 600 "$log" "$src" "${cmd[@]}" || failed=1
done
exit $failed
