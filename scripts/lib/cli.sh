# shellcheck shell=bash
# Command-line errors of the project's scripts, one rule: a one-line reason
# on stderr, prefixed with the script's name, and exit status 2.
# Source after cd'ing to the top; the name is the script's, without .sh.
CLI_NAME=$(basename "$0" .sh)

# die2 MESSAGE...: bad usage.
die2() { echo "$CLI_NAME: $*" >&2; exit 2; }

# need "$@": the option in $1 must be followed by a non-empty value.
need() { if [ $# -lt 2 ] || [ -z "$2" ]; then die2 "$1 needs a value"; fi; }

# die MESSAGE...: the work failed (not the usage): exit status 1.
die() { echo "$CLI_NAME: $*" >&2; exit 1; }

# list_check NAME VALUE REGEX: a comma-separated list, every item matching.
list_check() {
	local item
	[[ $2 =~ ^[^,]+(,[^,]+)*$ ]] || die2 "$1: expected a comma-separated list, got '$2'"
	for item in ${2//,/ }; do
		[[ $item =~ $3 ]] || die2 "$1: invalid item '$item'"
	done
}
