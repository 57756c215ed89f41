# analysis/fuzz.mk: libFuzzer harnesses for the parsers that read outside
# input. Each harness lives beside the parser it tests (<dir>/fuzz/fuzz_NAME.c,
# sharing analysis/lib/fuzz.h); the seed corpora, regression inputs, the
# runner and the tests live in analysis/fuzz/; see analysis/fuzz/README.md and
# docs/reliability.md, "Fuzzing".
#
#   make fuzz-build            the harness binaries (analysis/fuzz/build/)
#   make fuzz [FUZZ_S=60]      each harness for FUZZ_S seconds, one after
#                              another; a table of executions, coverage and
#                              crashes; non-zero exit on a crash
#   make fuzz FUZZ=dnsmsg      only the named harnesses
#   make fuzz FUZZ_RUNS=N      each stops after N inputs if that comes first
#   make fuzz-cov              line coverage (llvm-cov) of each harness's
#                              target files by its corpora
#
# Built with clang (Debian's clang and libclang-rt-14-dev: -fsanitize=fuzzer)
# and ASan/UBSan, from the same sources as the programs, into objects of
# their own (analysis/fuzz/build/obj/).

FUZZ_CC    ?= clang
FUZZ_S     ?= 60
FUZZ       ?=
FUZZ_RUNS  ?=
FUZZ_DIR   := analysis/fuzz
FUZZ_BUILD := $(FUZZ_DIR)/build
FUZZ_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -MMD -MP \
               -g -O1 -fno-omit-frame-pointer \
               -fsanitize=fuzzer-no-link,address,undefined \
               -fno-sanitize-recover=undefined \
               $(shell pkg-config --cflags ldns libpcap 2>/dev/null)
FUZZ_LDFLAGS := -fsanitize=fuzzer,address,undefined
FUZZ_LIBS  := $(shell pkg-config --libs ldns libpcap 2>/dev/null || echo -lldns -lpcap) -lm

# Line coverage (make fuzz-cov): the same harnesses built with clang's
# source-based coverage instead of the sanitizers, replaying a corpus.
FUZZ_COV_CFLAGS := $(filter-out -fsanitize=% -fno-sanitize-recover=%,$(FUZZ_CFLAGS)) \
               -fsanitize=fuzzer-no-link -fprofile-instr-generate -fcoverage-mapping
FUZZ_COV_LDFLAGS := -fsanitize=fuzzer -fprofile-instr-generate

FUZZ_HARNESSES :=

# $(call fuzz_harness,NAME,DIR,SOURCES): $(FUZZ_BUILD)/fuzz_NAME from the
# harness DIR/fuzz_NAME.c (beside the parser it tests) and SOURCES, and its
# coverage twin $(FUZZ_BUILD)/cov/fuzz_NAME.
define fuzz_harness
$(FUZZ_BUILD)/fuzz_$(1): $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(2)/fuzz_$(1).c $(3))
	$$(FUZZ_CC) $$(FUZZ_LDFLAGS) -o $$@ $$^ $$(FUZZ_LIBS)
$(FUZZ_BUILD)/cov/fuzz_$(1): $(patsubst %.c,$(FUZZ_BUILD)/covobj/%.o,$(2)/fuzz_$(1).c $(3))
	@mkdir -p $$(@D)
	$$(FUZZ_CC) $$(FUZZ_COV_LDFLAGS) -o $$@ $$^ $$(FUZZ_LIBS)
FUZZ_HARNESSES += $(1)
FUZZ_SRC_$(1) := $(2)/fuzz_$(1).c
CLEAN_FILES += $(FUZZ_BUILD)/fuzz_$(1)
endef

$(FUZZ_BUILD)/obj/%.o: %.c | build-deps fuzz-cc
	@mkdir -p $(@D)
	$(CCACHE) $(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<
$(FUZZ_BUILD)/covobj/%.o: %.c | build-deps fuzz-cc
	@mkdir -p $(@D)
	$(CCACHE) $(FUZZ_CC) $(FUZZ_COV_CFLAGS) -c -o $@ $<

$(eval $(call fuzz_harness,capture,analysis/lib/fuzz,analysis/lib/capture.c))
$(eval $(call fuzz_harness,dnsmsg,analysis/fuzz,analysis/dnsmsg.c analysis/lib/capture.c))
$(eval $(call fuzz_harness,tcpflow,analysis/lib/fuzz,analysis/lib/tcpflow.c analysis/lib/capture.c))
$(eval $(call fuzz_harness,frompcap,udpreplay/fuzz,udpreplay/extract.c udpreplay/qlist.c analysis/lib/capture.c analysis/lib/tcpflow.c))
$(eval $(call fuzz_harness,query,tcpbench/fuzz,tcpbench/query.c analysis/lib/numparse.c))
$(eval $(call fuzz_harness,zone,zones/fuzz,zones/optout.c))

.PHONY: fuzz fuzz-build fuzz-cc fuzz-seeds
fuzz-build: ## the libFuzzer harnesses (analysis/fuzz/build/)
fuzz-build: $(addprefix $(FUZZ_BUILD)/fuzz_,$(FUZZ_HARNESSES))

# A clear message instead of a compiler error when clang is missing.
fuzz-cc: ## (used by the fuzz builds) name a missing clang
	@command -v $(FUZZ_CC) >/dev/null || { echo "missing $(FUZZ_CC) (clang, libclang-rt-14-dev): run make deps" >&2; exit 1; }

fuzz: ## each harness FUZZ_S=60 s (FUZZ=name: only it); fails on a crash
fuzz: fuzz-build
	@FUZZ_S="$(FUZZ_S)" FUZZ_RUNS="$(FUZZ_RUNS)" $(FUZZ_DIR)/run $(or $(FUZZ),$(FUZZ_HARNESSES))

# Line coverage of each harness's target files by the seeds, the
# regression inputs and the corpus the last make fuzz grew (llvm-cov).
.PHONY: fuzz-cov
fuzz-cov: ## line coverage of each harness's target files by its corpora
fuzz-cov: $(addprefix $(FUZZ_BUILD)/cov/fuzz_,$(FUZZ_HARNESSES))
	@$(FUZZ_DIR)/run --cov $(or $(FUZZ),$(FUZZ_HARNESSES))

# The committed seed corpora, remade from the repository's captures,
# query lists and zone (analysis/fuzz/make-seeds).
fuzz-seeds: ## remake the committed seed corpora from the repository
fuzz-seeds: udpreplay/build/from-pcap
	@$(FUZZ_DIR)/make-seeds

# make check replays the regression inputs and runs each harness briefly
# (analysis/fuzz/tests/).
CHECK_BUILD += fuzz-build

clean: fuzz-clean
.PHONY: fuzz-clean
fuzz-clean: ## remove the harnesses and their objects
	rm -rf $(FUZZ_BUILD)
