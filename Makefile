# elvkit top-level Makefile. Userspace parts (policy tests, simulator) build
# here directly; kernel modules are built through Kbuild by scripts/kbuild.sh.
# Sub-areas add their rules in *.mk fragments next to their sources.

VERSION := $(shell scripts/version.sh)
KVER ?= $(shell uname -r)
BUILD := build
PREFIX ?= /usr

# Userspace: warnings are errors; tests run under ASan and UBSan.
USER_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -O1 -g -Iinclude
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
# Policy sources compile unchanged into modules and into userspace hosts,
# and so do the libraries they and the hosts share (rbtree, deadline queue,
# the host side of the policy contract).
POLICY_SRCS := $(sort $(wildcard src/policy/*.c))
LIB_SRCS := $(sort $(wildcard src/lib/*.c))

# Test results: each test appends "PASS|FAIL|SKIP <name>" to a file here.
RESULTS := $(BUILD)/results
export ELVKIT_RESULTS := $(abspath $(RESULTS))

.PHONY: all modules matrix layout-check check check-user check-kernel \
	deps deps-clean clean help
all: modules

help:
	@echo "make [KVER=R]          build the modules for kernel R into build/R/"
	@echo "make matrix            build for every supported kernel installed"
	@echo "make layout-check KVER=R  compare the shim's private structs with R's BTF"
	@echo "make check             install missing deps, run every test"
	@echo "make deps              install missing deps only (says what and where first)"
	@echo "make deps-clean        remove everything make deps installed"

deps:
	scripts/install-deps.sh all

deps-clean:
	scripts/deps-clean.sh

modules:
	scripts/kbuild.sh $(KVER)

matrix:
	scripts/kbuild.sh --matrix

layout-check:
	scripts/layout-check.sh $(KVER)

# Fragments add userspace test targets to CHECK_USER and kernel-side ones to
# CHECK_KERNEL.
CHECK_USER :=
CHECK_KERNEL :=
include $(sort $(wildcard src/*/*.mk tests/*/*.mk scripts/*.mk))

check:
	scripts/check.sh

# Called by scripts/check.sh after it has installed the dependencies.
check-user: $(CHECK_USER)
check-kernel: $(CHECK_KERNEL)

clean:
	rm -rf $(BUILD)
