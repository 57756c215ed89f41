# rootbench: capacity benchmarks for DNS root-server instances.
#
# Top-level build. Each component keeps its own rules in a fragment
# (<dir>/*.mk, or <dir>/<experiment>/*.mk) that this file includes; a
# fragment registers its programs with $(call c_program,...) and its unit
# tests with $(call c_unit_test,...). See docs/development.md.

SHELL := /bin/bash
.DEFAULT_GOAL := all

CC       ?= cc
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -MMD -MP
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
            -fno-sanitize-recover=undefined
LDFLAGS  ?=
# Objects are compiled through ccache (Debian's; make deps installs it),
# which keeps them outside the clone keyed by the preprocessed source, the
# flags and the compiler, so a fresh clone compiles only what changed (the
# whole build took 20 s on two CPUs, 40 s of CPU, every clean-clone check).
# The cache is RB_CACHE_DIR's (/var/cache/rootbench, as NSD's and jq's
# builds) when it can be written, else ccache's own; CCACHE= compiles
# without it.
CCACHE   ?= $(shell command -v ccache 2>/dev/null)
ifneq ($(strip $(CCACHE)),)
RB_CCACHE_DIR := $(shell d=$${RB_CACHE_DIR:-/var/cache/rootbench}/ccache; mkdir -p "$$d" 2>/dev/null && [ -w "$$d" ] && echo "$$d")
ifneq ($(RB_CCACHE_DIR),)
export CCACHE_DIR ?= $(RB_CCACHE_DIR)
endif
# Every clone is in a directory of its own (CI's in a new temporary one):
# paths are taken relative to the clone and the directory is left out of
# the key, so that another clone's objects are found (their debug
# information names the directory of the clone that compiled them).
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1
endif

PROGRAMS      :=
SAN_PROGRAMS  :=
UNIT_TESTS    :=
CLEAN_FILES   :=

export RB_TOP := $(CURDIR)

# $(call c_program,PATH,SOURCES,LIBS): PATH and PATH-san (ASan/UBSan).
define c_program
$(1): $(patsubst %.c,%.o,$(2))
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $(3)
$(1)-san: $(patsubst %.c,%.san.o,$(2))
	$$(CC) $$(SANFLAGS) $$(LDFLAGS) -o $$@ $$^ $(3)
PROGRAMS     += $(1)
SAN_PROGRAMS += $(1)-san
CLEAN_FILES  += $(1) $(1)-san $(patsubst %.c,%.o,$(2)) $(patsubst %.c,%.san.o,$(2)) \
                $(patsubst %.c,%.d,$(2)) $(patsubst %.c,%.san.d,$(2))
endef

# $(call c_unit_test,PATH,SOURCES,LIBS): always built with sanitizers.
define c_unit_test
$(1): $(patsubst %.c,%.san.o,$(2))
	$$(CC) $$(SANFLAGS) $$(LDFLAGS) -o $$@ $$^ $(3)
UNIT_TESTS  += $(1)
CLEAN_FILES += $(1) $(patsubst %.c,%.san.o,$(2)) $(patsubst %.c,%.san.d,$(2))
endef

%.o: %.c | build-deps
	$(CCACHE) $(CC) $(CFLAGS) -c -o $@ $<
%.san.o: %.c | build-deps
	$(CCACHE) $(CC) $(CFLAGS) $(SANFLAGS) -c -o $@ $<

# Libraries the C programs need: a clear message instead of a compiler error.
build-deps: ## (used by the builds) name a missing -dev package
	@for p in libevent:libevent-dev ldns:libldns-dev libpcap:libpcap-dev; do \
	    pkg-config --exists $${p%%:*} || { echo "missing $${p#*:}: run make deps" >&2; exit 1; }; \
	done

# What make check builds before its tests (the *.mk files add theirs),
# two jobs at a time.
CHECK_BUILD := all san unit-tests

include $(sort $(wildcard */*.mk */*/*.mk))

# jq 1.7 built by make deps (scripts/jq/build-jq), as the scripts use it.
ifneq ($(wildcard scripts/jq/build/bin/jq),)
export PATH := $(CURDIR)/scripts/jq/build/bin:$(PATH)
endif

# No setting given on make's command line is dropped: a name that no
# settings table declares, no Makefile assigns and make does not own
# (scripts/settings-guard) is refused before anything runs, with the
# nearest declared names. The accepted names are cached in
# SETTINGS_CACHE, made again (and make restarted) when a table or a
# Makefile changes, so that the check starts no process; a name the
# cache lacks is looked up in the tables themselves before it is refused.
# Without jq (before make deps) nothing can be checked, and make says so.
SETTINGS_TABLES := $(wildcard */*settings.json */*/*settings.json)
SETTINGS_CACHE := scripts/build/settings-accepted.mk
SETTINGS_MAKEFILES := $(filter-out %.d $(SETTINGS_CACHE),$(MAKEFILE_LIST))
override SETTINGS_GIVEN := $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $v)),$v))
ifeq ($(wildcard $(addsuffix /jq,$(subst :, ,$(PATH)))),)
$(if $(SETTINGS_GIVEN),$(warning the settings on make's command line are not checked: no jq (make deps installs it)))
else
# (override: a command line cannot turn the check off)
override SETTINGS_ACCEPTED :=
-include $(SETTINGS_CACHE)
SETTINGS_GUARD = scripts/settings-guard $(1) --tables "$(SETTINGS_TABLES)" --makefiles "$(SETTINGS_MAKEFILES)"
ifneq ($(filter-out $(SETTINGS_ACCEPTED),$(SETTINGS_GIVEN)),)
ifneq ($(shell $(call SETTINGS_GUARD,check) $(filter-out $(SETTINGS_ACCEPTED),$(SETTINGS_GIVEN))),)
$(error refused before anything ran: a setting no table declares (above; the settings: each experiment's docs/ page, SCRIPT --help))
endif
endif
# (the tables and the guard are sources: no rule to look for)
$(SETTINGS_TABLES) scripts/settings-guard: ;
$(SETTINGS_CACHE): $(SETTINGS_TABLES) $(SETTINGS_MAKEFILES) scripts/settings-guard
	@mkdir -p $(@D) && $(call SETTINGS_GUARD,mk) > $@.tmp.$$$$ && mv -f $@.tmp.$$$$ $@
CLEAN_FILES += $(SETTINGS_CACHE)
endif


.PHONY: all san deps check check-repeat clean build-deps unit-tests testbed-up testbed-down testbed-status help

# Every target with its line: the text after "## " on a line "TARGET: ##
# ..." of this file or a fragment, in the order they are read (a target
# declared .PHONY without one fails scripts/tests/07-make-help.test).
help: ## every make target, one line each
	@echo "make TARGET [SETTING=value ...]; each experiment's settings: its docs/ page"
	@awk '/^[A-Za-z0-9_.-]+: ## / { t = $$1; sub(/:$$/, "", t); sub(/^[^#]*## /, ""); printf "  %-22s %s\n", t, $$0 }' \
	    $(filter-out %.d,$(MAKEFILE_LIST))

all: ## the programs (C), each in its folder
all: $(PROGRAMS)

san: ## the programs built with ASan/UBSan too (PATH-san)
san: $(SAN_PROGRAMS)

unit-tests: ## the C unit tests (sanitized), built, not run
unit-tests: $(UNIT_TESTS)

deps: ## install what the suite needs: Debian packages, jq 1.7, NSD source
	@scripts/deps

# Every test: C unit tests (sanitized), then the integration tests that
# run the real programs on the testbed. CHECK=pattern runs a subset.
check: ## every test (CHECK=regex: those matching); not on a busy host
	@$(MAKE) --no-print-directory -j2 $(CHECK_BUILD)
	@scripts/check $(UNIT_TESTS)

# The whole suite N times in a row: every test that failed at least once.
N ?= 3
check-repeat: ## the whole suite N times (N=3): the tests that failed once
	@$(MAKE) --no-print-directory -j2 $(CHECK_BUILD)
	@CLEAN=$(CLEAN) SLOW=$(SLOW) scripts/check-repeat $(N) $(UNIT_TESTS)

testbed-up: ## bring the namespace testbed up (its settings: docs/testbed.md)
	@scripts/testbed up
testbed-down: ## take the testbed down
	@scripts/testbed down
testbed-status: ## what the testbed runs, and its settings
	@scripts/testbed status

clean: ## remove what make built (not the zones, traces or results)
	rm -f $(CLEAN_FILES)

# (not the fetched and rebuilt server sources: their *.d are not ours)
-include $(shell find . \( -path ./results -o -path ./scripts/servers/build -o -path ./scripts/jq/build \) -prune -o -name '*.d' -type f -print 2>/dev/null)
