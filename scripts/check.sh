#!/usr/bin/env bash
# `make check`: install what is missing (idempotent), then run every test:
# userspace policy/simulator/tool tests, and per supported kernel the layout
# check, the W=1 build, the DKMS install and one QEMU boot running the DKMS
# checks and then the whole guest suite.
# Ends with "N passed, N failed[, N skipped]"; exits non-zero on any failure.
#
# Time: a guest keeps the two host cores busy only part of the time (it
# waits on modelled disks and timers), so the host-only work (the hygiene
# and userspace tests, the next kernel's build) runs beside it, at the
# lowest CPU priority so that the guest's timing is not disturbed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh
. scripts/lib/results.sh
export ELVKIT_RESULTS=$PWD/build/results
rm -rf "$ELVKIT_RESULTS"
mkdir -p "$ELVKIT_RESULTS"
start=$SECONDS
stage() { printf '\n== %s (%ds)\n' "$*" $((SECONDS - start)); }

# bg NAME CMD...: CMD in the background at nice 19, its output kept;
# bg_wait NAME: wait for it and show that output.
declare -A bg_pid
bg() {
	local name=$1
	shift
	(
		renice -n 19 -p "$BASHPID" >/dev/null
		# Starved while the foreground is busy: only hangs time out.
		export ELVKIT_TIMEOUT_SCALE=10
		"$@"
	) >"$ELVKIT_RESULTS/bg-$name.out" 2>&1 &
	bg_pid[$name]=$!
}
bg_wait() {
	[ -n "${bg_pid[$1]:-}" ] || return 0
	wait "${bg_pid[$1]}"
	unset "bg_pid[$1]"
	stage "$1 (ran in the background)"
	cat "$ELVKIT_RESULTS/bg-$1.out"
}

stage "dependencies"
if scripts/install-deps.sh all; then
	record deps PASS deps/install
else
	record deps FAIL deps/install
fi

host_tests() {
	local t
	echo "== install hygiene"
	for t in tests/deps/[0-9]*.sh; do
		run_test deps "deps/$(basename "$t" .sh)" 900 "$ELVKIT_RESULTS/deps-$(basename "$t" .sh).log" "$t" bash "$t"
	done
	echo "== userspace tests"
	# The unit, simulator and tool groups build and run side by side: each
	# records into its own results file, and none measures time. -k: a
	# failure in one group must not keep the others from running.
	make --no-print-directory -k -j"$(nproc)" check-user || true
}
# The guests read the schedulers' tunable tables from the simulator: built
# before anything else writes build/.
make --no-print-directory -s build/elvkit-sim || record tools FAIL tools/elvkit-sim-built
bg host-tests host_tests

# build_leg RELEASE: layout check and its tests, then the W=1 build.
build_leg() {
	local ver=$1 t
	if scripts/layout-check.sh "$ver"; then
		record "kernel-$ver" PASS "layout/$ver"
	else
		record "kernel-$ver" FAIL "layout/$ver"
		return 1
	fi
	for t in tests/layout/[0-9]*.sh; do
		run_test "kernel-$ver" "layout/$ver/$(basename "$t" .sh)" 300 \
			"$ELVKIT_RESULTS/layout-$ver-$(basename "$t" .sh).log" "$t" bash "$t" "$ver"
	done
	if scripts/kbuild.sh "$ver"; then
		record "kernel-$ver" PASS "build/$ver"
	else
		record "kernel-$ver" FAIL "build/$ver"
		return 1
	fi
}
# dkms_install RELEASE: DKMS install, for the suite's boot to check.
dkms_install() {
	[ -x scripts/dkms-test.sh ] || return 0
	scripts/dkms-test.sh --install "$1" && touch "$ELVKIT_RESULTS/dkms-installed-$1"
}
# prepare_leg RELEASE [dkms]: build_leg, then the DKMS install when asked,
# and a marker that the leg is ready to boot.
prepare_leg() {
	build_leg "$1" || return 1
	[ "${2:-}" != dkms ] || dkms_install "$1"
	touch "$ELVKIT_RESULTS/built-$1"
}

found=()
for leg in "${EK_KERNEL_LEGS[@]}"; do
	ver=$(k_leg_release "$leg")
	if [ -z "$ver" ]; then
		record kernel FAIL "kernel/$leg-installed"
		continue
	fi
	found+=("$ver")
done

# DKMS state is per root (the host, or a private root): a leg's DKMS install
# may run ahead only where no other leg's install lives.
dkms_ahead() { [ "$(k_root "$1")" != "$(k_root "$2")" ]; }
# The legs in an order where roots alternate as far as they can (6.1, the
# newest, 6.12), so that each next leg's install runs ahead.
vers=()
while [ ${#found[@]} -gt 0 ]; do
	pick=0
	if [ ${#vers[@]} -gt 0 ]; then
		for j in "${!found[@]}"; do
			if dkms_ahead "${found[$j]}" "${vers[-1]}"; then pick=$j; break; fi
		done
	fi
	vers+=("${found[$pick]}")
	unset "found[$pick]"
	found=("${found[@]}")
done

if [ ${#vers[@]} -gt 0 ]; then
	stage "kernel ${vers[0]}: layout check and build"
	prepare_leg "${vers[0]}" dkms
fi
for i in "${!vers[@]}"; do
	ver=${vers[$i]}
	next=${vers[$((i + 1))]:-}
	if [ -n "$next" ]; then
		if dkms_ahead "$next" "$ver"; then
			bg "kernel-$next" prepare_leg "$next" dkms
		else
			bg "kernel-$next" prepare_leg "$next"
		fi
	fi
	if [ -e "$ELVKIT_RESULTS/built-$ver" ]; then
		stage "kernel $ver: DKMS checks and guest suite"
		# Every guest test; part of the reliability suite (7NN-rel-*) on
		# one leg only, for time (scripts/lib/kernels.sh); `make
		# check-reliability` runs all of it on every leg.
		tests='[0-6]* 999-*'
		[ "$(k_leg_release "$EK_REL_CHECK_LEG")" != "$ver" ] || tests="[0-6]* $EK_REL_CHECK_TESTS 999-*"
		dkms=()
		[ ! -e "$ELVKIT_RESULTS/dkms-installed-$ver" ] || dkms=(--dkms)
		scripts/vm-run.sh "${dkms[@]}" "$ver" "$tests" || true
		# After any install, even a failed one: nothing may be left.
		if [ -e "$ELVKIT_RESULTS/dkms-$ver.log" ]; then
			stage "kernel $ver: DKMS remove"
			scripts/dkms-test.sh --finish "$ver" || true
		fi
	fi
	[ -z "$next" ] || bg_wait "kernel-$next"
	# The next leg's DKMS install, when it could not run ahead.
	if [ -n "$next" ] && [ -e "$ELVKIT_RESULTS/built-$next" ] &&
		[ ! -e "$ELVKIT_RESULTS/dkms-$next.log" ]; then
		stage "kernel $next: DKMS install"
		dkms_install "$next"
	fi
done
bg_wait host-tests

stage "summary"
cat "$ELVKIT_RESULTS"/*.txt | awk '
	$1 == "PASS" { p++ } $1 == "FAIL" { f++; print "failed: " $2 } $1 == "SKIP" { s++ }
	END {
		if (s) printf "%d passed, %d failed, %d skipped\n", p, f, s
		else printf "%d passed, %d failed\n", p, f
		exit (f > 0 || p == 0)
	}'
