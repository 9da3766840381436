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

# release_check WHAT RELEASE: RELEASE (given as WHAT, e.g. --kernel) is an
# installed kernel with an image to boot (scripts/lib/kernels.sh sourced).
# Not installed, or not a release's name at all, is bad usage; installed
# without its image, a failure. Checked before anything builds or boots.
release_check() {
	[[ $2 =~ ^[A-Za-z0-9][A-Za-z0-9._+~-]*$ ]] || die2 "$1: '$2' is not a kernel release"
	k_root "$2" >/dev/null || die2 "$1: $2 is not installed"
	k_vmlinuz "$2" >/dev/null || die "$1: no kernel image for $2"
}

# threads_check LIST: the benchmarks' --threads, 1..256 each, none twice.
threads_check() {
	local t
	list_check --threads "$1" '^[1-9][0-9]{0,2}$'
	for t in ${1//,/ }; do
		[ "$t" -le 256 ] || die2 "--threads: $t is over 256"
	done
	[ -z "$(tr , '\n' <<<"$1" | sort | uniq -d)" ] || die2 "--threads: a thread count is repeated"
}

# queue_set_check TUNES NR_REQUESTS: the kernel benchmarks' --tune list
# (NAME=VALUE, comma-separated, each name once; every scheduler's tunables
# here are whole numbers) and --nr-requests; either may be empty.
queue_set_check() {
	[ -z "$1" ] || list_check --tune "$1" '^[a-z][a-z0-9_]*=-?[0-9]{1,12}$'
	[ -z "$(tr , '\n' <<<"$1" | sed 's/=.*//' | sort | uniq -d)" ] ||
		die2 "--tune: a tunable is given twice"
	[ -z "$2" ] || [[ $2 =~ ^[1-9][0-9]{0,4}$ ]] ||
		die2 "--nr-requests: expected 1..99999, got '$2'"
}

# sim_bench_args N "$@": the simulator benchmarks' options, one rule:
# --seed N (default 1, sets $seed) and --help (prints the script's header
# comment, lines 2..N). Then SIM is the simulator: $ELVKIT_SIM, or
# build/elvkit-sim built with the make targets in $SIM_BENCH_MAKE.
sim_bench_args() {
	local head=$1
	shift
	seed=1
	while [ $# -gt 0 ]; do
		case $1 in
		--seed) need "$@"; seed=$2; shift 2 ;;
		-h | --help) sed -n "2,${head}p" "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
		*) die2 "unknown argument $1 (--seed N, --help)" ;;
		esac
	done
	[[ $seed =~ ^[0-9]+$ ]] || die2 "--seed: expected a number, got '$seed'"
	SIM=${ELVKIT_SIM:-build/elvkit-sim}
	# shellcheck disable=SC2086 # a list of make targets
	[ -n "${ELVKIT_SIM:-}" ] || make -s ${SIM_BENCH_MAKE:-sim} >&2
	[ -x "$SIM" ] || die "no simulator at $SIM"
}
