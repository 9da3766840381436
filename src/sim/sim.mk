# elvkit-sim: the simulator host, its device models, demo and cost bench.
#   make sim         build build/elvkit-sim
#   make demo        short A/B on the default hdd, table + bar chart
#   make bench-cost  instructions per request vs queue depth (callgrind)
#   make check-sim   simulator tests (part of make check)

SIM_OUT := $(BUILD)/sim
SIM_SAN_OUT := $(BUILD)/sim-san
# The host (the block layer) is host.c plus one file per stage; see sim_int.h.
SIM_HOST := host plug sched_queue wbt tags dispatch pool
SIM_CORE := config events delay run $(SIM_HOST) workload readahead dirty account report json trace policy_table
MODEL_SRCS := $(sort $(wildcard src/model/*.c))
SIM_HDRS := $(wildcard include/elvkit/*.h src/lib/*.h src/policy/*.h src/sim/*.h src/model/*.h)
# The simulator is run, not debugged, most of the time: optimise it.
SIM_CFLAGS := $(USER_CFLAGS) -O2
SIM_SAN_CFLAGS := $(USER_CFLAGS) $(SAN_FLAGS)

# Every model, policy and library source: a new one needs no line here.
model_objs = $(patsubst src/model/%.c,$(1)/model/%.o,$(MODEL_SRCS))
policy_objs = $(patsubst src/policy/%.c,$(1)/policy/%.o,$(POLICY_SRCS)) \
	$(patsubst src/lib/%.c,$(1)/lib/%.o,$(LIB_SRCS))
sim_objs = $(addprefix $(1)/,$(SIM_CORE:=.o)) $(call model_objs,$(1)) $(call policy_objs,$(1))
SIM_OBJS := $(call sim_objs,$(SIM_OUT))
SIM_SAN_OBJS := $(call sim_objs,$(SIM_SAN_OUT))
# Models, policies and libraries must build without libc (they go into the
# kernel too): checked on every build.
FREESTANDING := $(patsubst src/%.c,$(SIM_OUT)/freestanding/%.o,\
	$(MODEL_SRCS) $(POLICY_SRCS) $(LIB_SRCS))

SIM_TEST_SRC := tests/sim
SIM_C_TESTS := $(sort $(wildcard $(SIM_TEST_SRC)/[0-9][0-9][0-9]-*.c))
SIM_SH_TESTS := $(sort $(wildcard $(SIM_TEST_SRC)/[0-9][0-9][0-9]-*.sh))
SIM_TEST_BINS := $(patsubst $(SIM_TEST_SRC)/%.c,$(SIM_SAN_OUT)/tests/%,$(SIM_C_TESTS))

.PHONY: sim demo bench-cost check-sim sim-test-build
CHECK_USER += check-sim

sim: $(BUILD)/elvkit-sim

$(SIM_OUT)/%.o: src/sim/%.c $(SIM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SIM_CFLAGS) -c $< -o $@
$(SIM_OUT)/model/%.o: src/model/%.c $(SIM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SIM_CFLAGS) -c $< -o $@
$(call policy_objs,$(SIM_OUT)): $(SIM_OUT)/%.o: src/%.c $(SIM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SIM_CFLAGS) -c $< -o $@
$(SIM_OUT)/freestanding/%.o: src/%.c $(SIM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SIM_CFLAGS) -ffreestanding -nostdinc -c $< -o $@

$(SIM_SAN_OUT)/%.o: src/sim/%.c $(SIM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SIM_SAN_CFLAGS) -c $< -o $@
$(SIM_SAN_OUT)/model/%.o: src/model/%.c $(SIM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SIM_SAN_CFLAGS) -c $< -o $@
$(call policy_objs,$(SIM_SAN_OUT)): $(SIM_SAN_OUT)/%.o: src/%.c $(SIM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(SIM_SAN_CFLAGS) -c $< -o $@

# The command line: parse, validate, run, report (and --help, --list).
SIM_CLI := cli cli_parse cli_validate cli_list

$(BUILD)/elvkit-sim: $(SIM_CLI:%=$(SIM_OUT)/%.o) $(SIM_OBJS) $(FREESTANDING)
	$(CC) $(SIM_CFLAGS) $(SIM_CLI:%=$(SIM_OUT)/%.o) $(SIM_OBJS) -lm -o $@

# The cost harness: the policies and the lookups by name (config.c, which
# also resolves models, hence every model), no simulator, so callgrind
# counts the policies. Same object lists as the simulator: a new policy or
# model cannot leave it with an undefined reference.
$(BUILD)/elvkit-cost: $(SIM_OUT)/cost.o $(SIM_OUT)/config.o $(SIM_OUT)/policy_table.o \
		$(call policy_objs,$(SIM_OUT)) $(call model_objs,$(SIM_OUT))
	$(CC) $(SIM_CFLAGS) $^ -o $@

$(SIM_SAN_OUT)/tests/%: $(SIM_TEST_SRC)/%.c $(SIM_SAN_OBJS) $(SIM_HDRS) $(wildcard $(SIM_TEST_SRC)/*.h)
	@mkdir -p $(@D)
	@rm -f $@
	$(CC) $(SIM_SAN_CFLAGS) -Isrc/sim $< $(SIM_SAN_OBJS) -lm -o $@

# The CLI for the shell tests, with the sanitizers like the C tests.
$(SIM_SAN_OUT)/elvkit-sim: $(SIM_CLI:%=$(SIM_SAN_OUT)/%.o) $(SIM_SAN_OBJS)
	$(CC) $(SIM_SAN_CFLAGS) $^ -lm -o $@

sim-test-build: $(SIM_TEST_BINS) $(SIM_SAN_OUT)/elvkit-sim $(BUILD)/elvkit-cost

demo: $(BUILD)/elvkit-sim
	@src/sim/demo.sh $(BUILD)/elvkit-sim

bench-cost: $(BUILD)/elvkit-cost $(BUILD)/elvkit-sim
	@scripts/bench-cost.sh $(BUILD)/elvkit-cost

# Build what builds, then run and record every test; fail if any failed.
check-sim:
	@$(MAKE) --no-print-directory -k sim-test-build || \
	for b in $(SIM_TEST_BINS) $(BUILD)/elvkit-cost; do \
		$(MAKE) --no-print-directory -q $$b 2>/dev/null || rm -f $$b; \
	done
	@$(SIM_TEST_SRC)/run.sh $(SIM_SAN_OUT)/tests $(SIM_SAN_OUT)/elvkit-sim \
		$(sort $(SIM_C_TESTS) $(SIM_SH_TESTS))
