# Policy unit tests: one executable per tests/unit/NNN-*.c, each linking the
# fake host (testhost.c), every policy source and the libraries in src/lib/,
# built with ASan + UBSan.

UNIT_SRC := tests/unit
UNIT_OUT := $(BUILD)/unit
UNIT_TESTS := $(sort $(wildcard $(UNIT_SRC)/[0-9][0-9][0-9]-*.c))
UNIT_BINS := $(patsubst $(UNIT_SRC)/%.c,$(UNIT_OUT)/%,$(UNIT_TESTS))
UNIT_POLICY_OBJS := $(patsubst src/policy/%.c,$(UNIT_OUT)/policy/%.o,$(POLICY_SRCS)) \
	$(patsubst src/lib/%.c,$(UNIT_OUT)/lib/%.o,$(LIB_SRCS))
UNIT_LIB := $(UNIT_OUT)/libpolicy.a
UNIT_CFLAGS := $(USER_CFLAGS) $(SAN_FLAGS)

.PHONY: check-unit unit-build
CHECK_USER += check-unit

# Objects depend on every header: the policy API is small and changes rarely.
UNIT_HDRS := $(wildcard include/elvkit/*.h src/lib/*.h src/policy/*.h) $(UNIT_SRC)/testhost.h

$(UNIT_POLICY_OBJS): $(UNIT_OUT)/%.o: src/%.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -c $< -o $@

# An archive, so a test pulls in only the policies and libraries it uses.
$(UNIT_LIB): $(UNIT_POLICY_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(UNIT_OUT)/testhost.o: $(UNIT_SRC)/testhost.c $(UNIT_HDRS)
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -I$(UNIT_SRC) -c $< -o $@

# Remove the old binary first so a test that no longer builds is not run
# stale: run.sh records a missing binary as a failure.
$(UNIT_BINS): $(UNIT_OUT)/%: $(UNIT_SRC)/%.c $(UNIT_OUT)/testhost.o $(UNIT_LIB) $(UNIT_HDRS)
	@rm -f $@
	$(CC) $(UNIT_CFLAGS) -I$(UNIT_SRC) $< $(UNIT_OUT)/testhost.o $(UNIT_LIB) -o $@

unit-build: $(UNIT_BINS)

# Build what builds (-k), then run and record every test; fail if any did.
# A binary left out of date by a failed build (its own source or a policy
# source no longer compiles) is removed rather than run stale.
check-unit:
	@$(MAKE) --no-print-directory -k unit-build || \
	for b in $(UNIT_BINS); do \
		$(MAKE) --no-print-directory -q $$b 2>/dev/null || rm -f $$b; \
	done
	@$(UNIT_SRC)/run.sh $(UNIT_OUT) $(UNIT_TESTS)
