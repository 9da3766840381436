#!/usr/bin/env bash
# `make check`: install what is missing (idempotent), then run every test:
# userspace policy/simulator/tool tests, and per supported kernel the layout
# check, the W=1 build and one QEMU boot running the whole guest suite.
# Ends with "N passed, N failed[, N skipped]"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
. scripts/lib/kernels.sh
. scripts/lib/results.sh
export ELVKIT_RESULTS=$PWD/build/results
rm -rf "$ELVKIT_RESULTS"
mkdir -p "$ELVKIT_RESULTS"
start=$SECONDS
stage() { printf '\n== %s (%ds)\n' "$*" $((SECONDS - start)); }

stage "dependencies"
if scripts/install-deps.sh all; then
	record deps PASS deps/install
else
	record deps FAIL deps/install
fi

stage "install hygiene"
for t in tests/deps/[0-9]*.sh; do
	run_test deps "deps/$(basename "$t" .sh)" 900 "$ELVKIT_RESULTS/deps-$(basename "$t" .sh).log" "$t" bash "$t"
done

stage "userspace tests"
# The unit, simulator and tool groups build and run side by side: each
# records into its own results file, and none measures time.
make --no-print-directory -j"$(nproc)" check-user || true

for leg in "${EK_KERNEL_LEGS[@]}"; do
	ver=$(k_leg_release "$leg")
	if [ -z "$ver" ]; then
		record kernel FAIL "kernel/$leg-installed"
		continue
	fi
	stage "kernel $ver: layout check and build"
	if scripts/layout-check.sh "$ver"; then
		record "kernel-$ver" PASS "layout/$ver"
	else
		record "kernel-$ver" FAIL "layout/$ver"
		continue
	fi
	for t in tests/layout/[0-9]*.sh; do
		run_test "kernel-$ver" "layout/$ver/$(basename "$t" .sh)" 300 \
			"$ELVKIT_RESULTS/layout-$ver-$(basename "$t" .sh).log" "$t" bash "$t" "$ver"
	done
	if scripts/kbuild.sh "$ver"; then
		record "kernel-$ver" PASS "build/$ver"
	else
		record "kernel-$ver" FAIL "build/$ver"
		continue
	fi
	stage "kernel $ver: guest suite"
	# Every guest test; part of the reliability suite (7NN-rel-*) on one
	# leg only, for time (scripts/lib/kernels.sh); `make
	# check-reliability` runs all of it on every leg.
	tests='[0-6]* 999-*'
	[ "$leg" != "$EK_REL_CHECK_LEG" ] || tests="[0-6]* $EK_REL_CHECK_TESTS 999-*"
	scripts/vm-run.sh "$ver" "$tests" || true

	if [ -x scripts/dkms-test.sh ]; then
		stage "kernel $ver: DKMS"
		scripts/dkms-test.sh "$ver" || true
	fi
done

stage "summary"
cat "$ELVKIT_RESULTS"/*.txt | awk '
	$1 == "PASS" { p++ } $1 == "FAIL" { f++; print "failed: " $2 } $1 == "SKIP" { s++ }
	END {
		if (s) printf "%d passed, %d failed, %d skipped\n", p, f, s
		else printf "%d passed, %d failed\n", p, f
		exit (f > 0 || p == 0)
	}'
