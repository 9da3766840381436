# shellcheck shell=bash disable=SC2034 # sim, tmp: for the sourcing test
# Sourced by the simulator's shell tests that compare runs: $sim, a
# directory $tmp removed on exit, and sim_json NAME ARGS...: one elvkit-sim
# run with ARGS, its JSON in $tmp/NAME.json.
sim=${ELVKIT_SIM:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sim_json() {
	local out=$1
	shift
	"$sim" --json "$tmp/$out.json" "$@" >/dev/null
}
