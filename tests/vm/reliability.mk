# The reliability suite at full size (scripts/reliability.sh): one boot per
# kernel. REL_KVERS="R1 R2" picks kernels (default every installed leg);
# ELVKIT_REL_SCALE sizes it (default 10). Not part of `make check` until the
# bugs it found are fixed (README).
# Both keep their results apart from make check's (the scripts' own
# default directories), unless RESULTS is given on the command line: the
# ELVKIT_RESULTS the Makefile exports would put them in build/results.
OWN_RESULTS = ELVKIT_RESULTS=$(if $(filter command line,$(origin RESULTS)),$(ELVKIT_RESULTS))

.PHONY: check-reliability
check-reliability:
	$(OWN_RESULTS) scripts/reliability.sh $(REL_KVERS)

# The debug kernel (KASAN, lockdep, failslab): built once, then the whole
# guest suite and the reliability suite in one boot of it (scripts/check-debug.sh).
.PHONY: check-debug
check-debug:
	$(OWN_RESULTS) scripts/check-debug.sh
