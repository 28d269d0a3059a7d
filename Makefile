# fuzzgate — build, check, bench, install.
#
#   make                 build/libfuzzgate.a, build/libfuzzgate_main.a, build/fuzzgate
#   make check           what a contributor runs after every change (~1 min on 2 cores): unit,
#                        planted-bug and determinism tests, install, the CMake package and its
#                        example, the gate, and no include or call circle, in four lanes side
#                        by side (see "make check's four lanes" below)
#   make check-all       make check, then make check-extras: the long unit tests and the
#                        ClusterFuzzLite build (.ci/run runs both in every configuration)
#   make check-build     what make check runs, built and not run
#   make fuzz            a depth run of every built-in target (FUZZ_SECONDS each, live status)
#   make bench           cases/s vs libFuzzer, the oracles' cost, malloc/free pair cost (~2 min)
#   make bench-find      time-to-find planted bugs, fuzzgate beside libFuzzer (FIND_ROWS=plain:
#                        only the plain-build rows; bench/find.sh lists the knobs)
#   make bench-real      libFuzzer harnesses over zlib, Brotli, libpng, expat, libyaml and
#                        libxml2: fuzzgate beside libFuzzer, cases/s, input length, RSS
#                        (BENCH_REAL_SECONDS a run, default 10; BENCH_REAL_REPS, default 3)
#   make bench-src       binutils built from source (Debian's binutils-source: demangler, bfd,
#                        x86 disassembler, zlib), every engine instrumented alike: cases/s,
#                        edges over time, RSS (BENCH_SRC_SECONDS, default 60; BENCH_SRC_REPS, 3)
#   make brotli-seeds    larger generated seeds for the Brotli targets in build/brotli-seeds/
#                        (deterministic, not committed; tools/brotli_seeds.c)
#   make install         PREFIX=/usr/local DESTDIR=
#   make docs            regenerate docs/cli.md from engine/run/options.def
#   make coverage        the built-in targets built with gcc --coverage in build-coverage/, their
#                        committed corpus replayed (plus COVERAGE_CASES=N generated cases):
#                        lcov .info, genhtml page and a per-target summary (needs lcov)
#   make libfuzzer       every built-in target as a clang -fsanitize=fuzzer,address binary
#   make afl             the same with afl-clang-fast (AFL++), into $(B)/afl/
#
# Switches (a change of any of them rebuilds everything, through build/flags.stamp):
#   CC=gcc|clang         the compiler
#   SANITIZE=address,undefined   build everything with those sanitizers (SANITIZE=thread too:
#                        docs/design.md, "Sanitizers", says what TSan sees of the heap oracle)
#   OPT=-O2              optimisation flags
#   INSTRUMENT=1         build the targets (targets/, test/planted/planted*.c) with compiler coverage:
#                        gcc -fsanitize-coverage=trace-pc, clang inline-8bit-counters,pc-table,
#                        both with trace-cmp and -fno-builtin (so memcmp & co. are calls)
#   BROTLI=0             build as if libbrotli-dev were missing: the Brotli oracle is left out
#                        and the Brotli targets print "skipped: built without brotli ..."
#                        (default: use Brotli when pkg-config finds libbrotlienc and
#                        libbrotlidec; BROTLI=1 makes a missing Brotli an error)
#   WERROR=1             turn warnings into errors (-Werror). The project's CI (.ci/run) builds
#                        every configuration with it, so the tree stays warning-free under
#                        the gcc and clang it tests; off by default, so a user's newer
#                        compiler with new warnings still builds the library.
#   COVERAGE=1           build the targets (targets/) with gcc --coverage (make coverage sets it)
# Test-only switches (they change what make check runs, never what is built):
#   CFLITE=0             make check-extras leaves out test/scripts/clusterfuzzlite.sh, which
#                        builds and starts the ClusterFuzzLite fuzzers with clang and ASan
#                        whatever CC, SANITIZE and INSTRUMENT say, so it is the same check in
#                        every configuration: .ci/run runs it in its first configuration only.
#                        The skip is printed.
#   CHECK_JOBS=N         compiles at a time when make check builds (default 2)
# (The fault-injection hooks are always compiled in and only tests call them.)

CC       ?= cc
OPT      ?= -O2
SANITIZE ?=
INSTRUMENT ?=
BROTLI   ?=
PREFIX   ?= /usr/local
DESTDIR  ?=
FUZZ_SECONDS ?= 60
COVERAGE ?=
COVERAGE_CASES ?= 0
CFLITE   ?= 1
ifeq ($(filter 0 1,$(CFLITE)),)
$(error CFLITE='$(CFLITE)': 0 (leave test/scripts/clusterfuzzlite.sh out of make check) or 1)
endif

B := build
WERROR   ?=
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wpointer-arith -Wformat=2 -Wundef -Wvla $(if $(filter 1,$(WERROR)),-Werror)
CFLAGS_ALL := -std=c11 -D_GNU_SOURCE -g $(OPT) $(WARN) -fno-strict-aliasing -MMD -MP -Iinclude
ifneq ($(SANITIZE),)
CFLAGS_ALL += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS_ALL += -fsanitize=$(SANITIZE)
endif

# The Google Brotli reference oracle (oracle/brotli.c, include/fuzzgate_brotli.h) and the
# Brotli targets, when the development files are there. FG_HAVE_BROTLI is on every object's
# command line, so it is in the flags stamp: switching BROTLI rebuilds everything.
ifneq ($(BROTLI),0)
HAVE_BROTLI := $(shell pkg-config --exists libbrotlienc libbrotlidec 2>/dev/null && echo 1)
endif
ifeq ($(BROTLI),1)
ifneq ($(HAVE_BROTLI),1)
$(error BROTLI=1, but pkg-config finds no libbrotlienc and libbrotlidec (install libbrotli-dev))
endif
endif
ifeq ($(HAVE_BROTLI),1)
CFLAGS_ALL += -DFG_HAVE_BROTLI=1 $(shell pkg-config --cflags libbrotlienc libbrotlidec)
BROTLI_LIBS := $(shell pkg-config --libs libbrotlienc libbrotlidec)
endif

CFLAGS_ALL += $(CFLAGS)
LDFLAGS_ALL += $(LDFLAGS)
LDLIBS_ALL := -lpthread -lm $(LDLIBS)

# The engine, layer by layer, bottom up (docs/design.md: dependencies point down).
BASE_SRC     := $(wildcard engine/base/*.c)
FEEDBACK_SRC := $(wildcard engine/feedback/*.c)
MUTATE_SRC   := $(wildcard engine/mutate/*.c)
FINDINGS_SRC := $(wildcard engine/findings/*.c)
ORACLE_SRC   := $(wildcard oracle/*.c)
SEARCH_SRC   := $(wildcard engine/search/*.c)
RUN_SRC      := $(wildcard engine/run/*.c)
REPORT_SRC   := $(wildcard engine/report/*.c)
SUPERVISE_SRC := $(wildcard engine/supervise/*.c)
GATE_SRC     := engine/gate/gate.c
# a libFuzzer harness under fuzzgate: the driver and its flags table (main() is apart)
HARNESS_SRC  := bridge/harness/libfuzzer.c bridge/harness/lf_flags.c bridge/harness/lf_banner.c
ENGINE_SRC := $(BASE_SRC) $(FEEDBACK_SRC) $(MUTATE_SRC) $(FINDINGS_SRC) $(ORACLE_SRC) \
              $(SEARCH_SRC) $(RUN_SRC) $(REPORT_SRC) $(SUPERVISE_SRC) $(GATE_SRC) $(HARNESS_SRC)
# targets/*.c: one target a file; targets/lib/: code several files of a target share.
TARGET_SRC := $(wildcard targets/*.c) $(wildcard targets/lib/*.c)
TEST_SRC   := $(wildcard test/unit/*.c) $(wildcard test/e2e/*.c) $(wildcard test/support/*.c)
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(B)/%.o)
TARGET_OBJ := $(TARGET_SRC:%.c=$(B)/%.o)
TEST_OBJ   := $(TEST_SRC:%.c=$(B)/%.o)
MAIN_OBJ   := $(B)/engine/gate/driver_main.o
PLANTED_OBJ := $(B)/test/planted/planted.o $(B)/test/planted/planted_zlib.o \
               $(B)/test/planted/planted_brotli.o $(B)/test/planted/planted_search.o \
               $(B)/test/planted/planted_xml.o $(B)/test/planted/planted_yaml.o \
               $(B)/test/planted/planted_expat.o $(B)/test/planted/planted_ring.o
# the ring target's container and model, which its planted twin (planted_ring.c) shares
RING_OBJ := $(B)/targets/lib/ring.o $(B)/targets/lib/ring_model.o
LF_MAIN_OBJ := $(B)/bridge/harness/libfuzzer_main.o

.PHONY: all check check-all check-extras check-build gate fuzz bench bench-find bench-real \
        bench-src brotli-seeds install clean docs \
        libfuzzer afl coverage
all: $(B)/libfuzzgate.a $(B)/libfuzzgate_main.a $(B)/libfuzzgate_libfuzzer.a $(B)/fuzzgate

# The comparison flags a user's target gets from the pkg-config modules (fuzzgate.pc.in's
# -fno-builtin-<f> list), on every target here too: gcc and clang -O2 expand a memcmp or a
# strcmp with a constant operand inline, where the interposed function never hears it, and
# not the same ones (the gate must run the same cases under either). gcc also expands
# __builtin_strcmp and __builtin_strncmp against a constant under 3 bytes whatever the
# -fno-builtin flags say; its --param stops that (clang, which calls them, refuses the
# --param under -Werror, so it is not in the modules: docs/writing-targets.md).
CMP_FLAGS := $(filter -fno-builtin-%,$(shell sed -n 's/^Cflags: //p' fuzzgate.pc.in))
ifneq ($(shell $(CC) --version 2>/dev/null | grep -q clang && echo 1),1)
CMP_FLAGS += --param=builtin-string-cmp-inline-length=0
endif

# Rebuild everything when the compiler or flags change.
FLAGS_LINE := $(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) SANITIZE=$(SANITIZE) INSTRUMENT=$(INSTRUMENT) \
              BROTLI=$(HAVE_BROTLI) COVERAGE=$(COVERAGE) CMP=$(CMP_FLAGS)
$(B)/flags.stamp: FORCE
	@mkdir -p $(B)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(FLAGS_LINE)' ]; then echo '$(FLAGS_LINE)' > $@; fi
FORCE:

$(B)/%.o: %.c $(B)/flags.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -I. -c $< -o $@

# The interposed allocator runs before ASan has initialised (the dynamic loader allocates):
# no part of the heap oracle (oracle/heap*.c: they read and write the poisoned headers)
# may touch shadow memory itself. It forwards to ASan's allocator (the real allocator,
# engine/base/real_alloc.c, which is compiled the same way), so ASan still checks every
# block. Its lock's waits (engine/base/spin.c) too: they run inside malloc, on threads
# ASan is still starting.
HEAP_OBJ := $(patsubst %.c,$(B)/%.o,$(wildcard oracle/heap*.c)) $(B)/engine/base/real_alloc.o \
            $(B)/engine/base/spin.o
ifneq ($(findstring address,$(SANITIZE)),)
$(HEAP_OBJ): CFLAGS_ALL += -fno-sanitize=address -DFGI_ASAN=1
endif
# Under ThreadSanitizer the interposed family and the other threads' table run before TSan
# has started the process or the calling thread (its runtime allocates then), so they are
# compiled without it and forward to TSan's allocator; the registry's engine side
# (heap.c, heap_quarantine.c) keeps TSan, which judges it (oracle/heap_block.h says how).
TSAN_HEAP_OBJ := $(B)/oracle/heap_malloc.o $(B)/oracle/heap_table.o $(B)/engine/base/real_alloc.o \
                 $(B)/engine/base/spin.o
ifneq ($(findstring thread,$(SANITIZE)),)
$(TSAN_HEAP_OBJ): CFLAGS_ALL += -fno-sanitize=thread -DFGI_TSAN=1
endif

# The memcmp-family forwarders must not be compiled back into calls to themselves.
$(B)/engine/feedback/strhook.o: CFLAGS_ALL += -fno-builtin

# Coverage instrumentation goes on the code under test only, never on the engine.
ifeq ($(INSTRUMENT),1)
IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -q clang && echo 1)
ifeq ($(IS_CLANG),1)
COVFLAGS := -fsanitize-coverage=inline-8bit-counters,pc-table,trace-cmp -fno-builtin
else
COVFLAGS := -fsanitize-coverage=trace-pc,trace-cmp -fno-builtin
endif
# the callbacks (trace-pc's per edge, trace-cmp's per comparison) count a case's work: a
# deterministic budget ends a hang inside the process (docs/oracles.md)
WORK_BUDGET := 1
$(TARGET_OBJ) $(PLANTED_OBJ): CFLAGS_ALL += $(COVFLAGS)
endif
# strcmp against a short constant is expanded inline without it (planted_search.c).
$(B)/test/planted/planted_search.o: CFLAGS_ALL += -fno-builtin

# The comparison flags (CMP_FLAGS, above) on the code under test. The engine's option parser is code under test too (the options target calls it in its
# cases), so it is compiled as a target is.
$(TARGET_OBJ) $(PLANTED_OBJ) $(B)/test/planted/lf_planted.o $(B)/test/planted/lf_xml.o \
	$(B)/test/planted/lf_custom.o $(B)/engine/run/options.o: CFLAGS_ALL += $(CMP_FLAGS)

# Source coverage (make coverage) goes on the code under test only, as INSTRUMENT does: the
# engine's own lines would drown the targets' in the report. -O0 (the later flag wins) so
# every line and function is still there to be counted.
ifeq ($(COVERAGE),1)
$(TARGET_OBJ): CFLAGS_ALL += --coverage -O0
LDFLAGS_ALL += --coverage
endif

$(B)/libfuzzgate.a: $(ENGINE_OBJ)
	rm -f $@ && ar rcs $@ $^

$(B)/libfuzzgate_main.a: $(MAIN_OBJ)
	rm -f $@ && ar rcs $@ $^

# main() for an LLVMFuzzerTestOneInput harness (docs/libfuzzer.md).
$(B)/libfuzzgate_libfuzzer.a: $(LF_MAIN_OBJ)
	rm -f $@ && ar rcs $@ $^

# Target objects are linked directly: from an archive the linker would drop them.
$(B)/fuzzgate: $(TARGET_OBJ) $(MAIN_OBJ) $(B)/libfuzzgate.a
	$(CC) $(LDFLAGS_ALL) -o $@ $(TARGET_OBJ) $(MAIN_OBJ) $(B)/libfuzzgate.a $(BROTLI_LIBS) \
		$(LDLIBS_ALL)

# A target over a real library with global state, when the system has zlib: the heap
# oracles must find nothing in it. Without zlib the test says it skipped, and why.
HAVE_ZLIB := $(shell pkg-config --exists zlib 2>/dev/null && echo 1)
ifeq ($(HAVE_ZLIB),1)
$(B)/test/planted/planted_zlib.o: CFLAGS_ALL += -DFGT_HAVE_ZLIB=1 $(shell pkg-config --cflags zlib)
ZLIB_LIBS := $(shell pkg-config --libs zlib)
endif

# The same for libxml2, libyaml and expat: clean twins over libraries with lazy, cached and
# "keep the latest" global state (libxml2's last error, its encoding handlers).
HAVE_XML := $(shell pkg-config --exists libxml-2.0 2>/dev/null && echo 1)
ifeq ($(HAVE_XML),1)
$(B)/test/planted/planted_xml.o: CFLAGS_ALL += -DFGT_HAVE_XML=1 \
	$(shell pkg-config --cflags libxml-2.0)
XML_LIBS := $(shell pkg-config --libs libxml-2.0)
endif
HAVE_YAML := $(shell pkg-config --exists yaml-0.1 2>/dev/null && echo 1)
ifeq ($(HAVE_YAML),1)
$(B)/test/planted/planted_yaml.o: CFLAGS_ALL += -DFGT_HAVE_YAML=1 \
	$(shell pkg-config --cflags yaml-0.1)
YAML_LIBS := $(shell pkg-config --libs yaml-0.1)
endif
HAVE_EXPAT := $(shell pkg-config --exists expat 2>/dev/null && echo 1)
ifeq ($(HAVE_EXPAT),1)
$(B)/test/planted/planted_expat.o: CFLAGS_ALL += -DFGT_HAVE_EXPAT=1 \
	$(shell pkg-config --cflags expat)
EXPAT_LIBS := $(shell pkg-config --libs expat)
endif

$(B)/test-planted: $(PLANTED_OBJ) $(RING_OBJ) $(MAIN_OBJ) $(B)/libfuzzgate.a
	$(CC) $(LDFLAGS_ALL) -o $@ $(PLANTED_OBJ) $(RING_OBJ) $(MAIN_OBJ) $(B)/libfuzzgate.a \
		$(ZLIB_LIBS) $(XML_LIBS) $(YAML_LIBS) $(EXPAT_LIBS) $(BROTLI_LIBS) $(LDLIBS_ALL)

# A libFuzzer harness with planted bugs under fuzzgate's libFuzzer driver.
$(B)/test-lf: $(B)/test/planted/lf_planted.o $(B)/libfuzzgate_libfuzzer.a $(B)/libfuzzgate.a
	$(CC) $(LDFLAGS_ALL) -o $@ $(B)/test/planted/lf_planted.o $(B)/libfuzzgate_libfuzzer.a \
		$(B)/libfuzzgate.a $(LDLIBS_ALL)

# The same driver over the system libxml2, as a user builds a harness (when pkg-config finds
# it; the test says it skipped otherwise).
$(B)/test/planted/lf_xml.o: CFLAGS_ALL += $(shell pkg-config --cflags libxml-2.0 2>/dev/null)
$(B)/test-lf-xml: $(B)/test/planted/lf_xml.o $(B)/libfuzzgate_libfuzzer.a $(B)/libfuzzgate.a
	$(CC) $(LDFLAGS_ALL) -o $@ $(B)/test/planted/lf_xml.o $(B)/libfuzzgate_libfuzzer.a \
		$(B)/libfuzzgate.a $(XML_LIBS) $(LDLIBS_ALL)

# The same harness's clean twin compiled as `pkg-config --cflags fuzzgate-libfuzzer` compiles
# a user's: with the module's own Cflags line, so the tests see what users get.
LF_PC_CFLAGS := $(shell sed -n 's/^Cflags: //p' fuzzgate-libfuzzer.pc.in) \
	$(filter-out -I%,$(shell sed -n 's/^Cflags: //p' fuzzgate.pc.in))
$(B)/test/planted/lf_planted_cov.o: test/planted/lf_planted.c $(B)/flags.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LF_PC_CFLAGS) -DLF_PLANTED_CLEAN=1 -I. -c $< -o $@
$(B)/test-lf-cov: $(B)/test/planted/lf_planted_cov.o $(B)/libfuzzgate_libfuzzer.a $(B)/libfuzzgate.a
	$(CC) $(LDFLAGS_ALL) -o $@ $(B)/test/planted/lf_planted_cov.o $(B)/libfuzzgate_libfuzzer.a \
		$(B)/libfuzzgate.a $(LDLIBS_ALL)

# The same driver with a harness that brings its own LLVMFuzzerCustomMutator.
$(B)/test-lf-custom: $(B)/test/planted/lf_custom.o $(B)/libfuzzgate_libfuzzer.a $(B)/libfuzzgate.a
	$(CC) $(LDFLAGS_ALL) -o $@ $(B)/test/planted/lf_custom.o $(B)/libfuzzgate_libfuzzer.a \
		$(B)/libfuzzgate.a $(LDLIBS_ALL)

$(B)/test-unit: $(TEST_OBJ) $(TARGET_OBJ) $(B)/libfuzzgate.a
	$(CC) $(LDFLAGS_ALL) -o $@ $(TEST_OBJ) $(TARGET_OBJ) $(B)/libfuzzgate.a $(BROTLI_LIBS) \
		$(LDLIBS_ALL)

# The same tests linked as a position-dependent program: its heap (brk) lies below 4 GiB,
# where address comparisons must still be told from values, and its code where its file
# says (a symbolizer is asked the address itself, not an offset); `make check` runs its
# comparison and symbolizer tests (cmp_, symbolize_).
$(B)/test-unit-nopie: $(TEST_OBJ) $(TARGET_OBJ) $(B)/libfuzzgate.a
	$(CC) $(LDFLAGS_ALL) -no-pie -o $@ $(TEST_OBJ) $(TARGET_OBJ) $(B)/libfuzzgate.a \
		$(BROTLI_LIBS) $(LDLIBS_ALL)

# What `make check` runs, built. `make check` builds it CHECK_JOBS (2) compiles at a time.
CHECK_BUILD := all $(B)/test-unit $(B)/test-unit-nopie $(B)/test-planted $(B)/test-lf \
	$(B)/test-lf-cov $(B)/test-lf-custom $(if $(HAVE_XML),$(B)/test-lf-xml) \
	$(if $(HAVE_BROTLI),$(B)/brotli-seeds-gen)
CHECK_JOBS ?= 2

check-build: $(CHECK_BUILD)

# make check's four lanes, run side by side by test/scripts/lanes.sh, which prints their
# output in this order whichever ends first (they write no file in common):
#   unit     half the unit and end-to-end tests (test-unit --shard=0/2), the
#            position-dependent build's comparison tests, and no include or call circle
#            (test/scripts/include_cycles.sh)
#   unit2    the other half (--shard=1/2): many end-to-end tests wait on a signal or a
#            deadline, so two test-units keep both cores busy where one left one idle
#   scripts  install and use the engine as a user does: pkg-config (test/scripts/install.sh)
#            and the CMake package (cmake.sh), with gcc and clang
#   gate     the libFuzzer drop-in, CI reports, the same search under gcc and clang, the
#            generated Brotli seeds staying seeds the Brotli targets pass, and then every
#            built-in target over its committed corpus plus the default case count: its
#            "N passed, N failed" is make check's last line
# (install.sh and cmake.sh build with both compilers, the rest runs engines: two lanes of
# about the same length beside the unit halves, so no lane is left running alone at the end.)
# make check-all is make check, then make check-extras: the long unit tests (FG_TEST_LONG:
# 200,000 libFuzzer cases over libxml2, ~20 s) and, unless CFLITE=0, the ClusterFuzzLite
# build (test/scripts/clusterfuzzlite.sh, ~40 s of clang+ASan builds), side by side.
UNIT_ENV = FGT_BUILD=$(B) FGT_SANITIZE="$(SANITIZE)" FGT_INSTRUMENT="$(INSTRUMENT)" \
	FGT_WORK_BUDGET="$(WORK_BUDGET)"
SCRIPT_ENV = CC="$(CC)" SANITIZE="$(SANITIZE)" BROTLI="$(BROTLI)" B="$(B)" WERROR="$(WERROR)"
# A lane step that fails says which it was, and its status, as the lane's last line. (The
# lane's command line is passed in double quotes: none inside, and \$$ for the lane's $.)
lane_step = { $(1) || { echo lane step failed with status \$$?: $(2); exit 1; }; }
LANE_UNIT = $(call lane_step,$(UNIT_ENV) $(B)/test-unit --shard=0/2,test-unit --shard=0/2) && \
	$(call lane_step,$(UNIT_ENV) $(B)/test-unit-nopie cmp_,test-unit-nopie cmp_) && \
	$(call lane_step,$(UNIT_ENV) $(B)/test-unit-nopie symbolize_,test-unit-nopie symbolize_) && \
	$(call lane_step,B="$(B)" sh test/scripts/include_cycles.sh,include_cycles.sh)
LANE_UNIT2 = $(call lane_step,$(UNIT_ENV) $(B)/test-unit --shard=1/2,test-unit --shard=1/2)
LANE_SCRIPTS = $(SCRIPT_ENV) sh test/scripts/install.sh && $(SCRIPT_ENV) sh test/scripts/cmake.sh
LANE_GATE = B="$(B)" sh test/scripts/libfuzzer.sh && B="$(B)" sh test/scripts/ci_reports.sh && \
	B="$(B)" CC="$(CC)" INSTRUMENT="$(INSTRUMENT)" SANITIZE="$(SANITIZE)" \
	sh test/scripts/search_compilers.sh \
	$(if $(HAVE_BROTLI),&& rm -rf $(B)/brotli-seeds && $(B)/brotli-seeds-gen $(B)/brotli-seeds \
	&& $(B)/fuzzgate --corpus-out=$(B)/brotli-seeds --findings=$(B)/seed-findings --cases=0 \
	brotli_decode$(COMMA)brotli_roundtrip$(COMMA)brotli_stream) && \
	$(B)/fuzzgate --findings=$(B)/gate-findings

check:
	@$(MAKE) -s --no-print-directory -j$(CHECK_JOBS) check-build
	@sh test/scripts/lanes.sh $(B)/lanes unit "$(LANE_UNIT)" unit2 "$(LANE_UNIT2)" \
		scripts "$(LANE_SCRIPTS)" gate "$(LANE_GATE)"

check-extras:
	@$(MAKE) -s --no-print-directory -j$(CHECK_JOBS) check-build
ifeq ($(CFLITE),0)
	@echo "clusterfuzzlite: SKIPPED: CFLITE=0 (the same check in every configuration; run it once)"
	@sh test/scripts/lanes.sh $(B)/lanes long "$(UNIT_ENV) $(B)/test-unit --long"
else
	@sh test/scripts/lanes.sh $(B)/lanes long "$(UNIT_ENV) $(B)/test-unit --long" \
		clusterfuzzlite 'BROTLI="$(HAVE_BROTLI)" sh test/scripts/clusterfuzzlite.sh'
endif

check-all: check
	@$(MAKE) --no-print-directory check-extras

# The gate: every built-in target over its committed corpus plus the default case count.
gate: $(B)/fuzzgate
	$(B)/fuzzgate --findings=$(B)/gate-findings

fuzz: $(B)/fuzzgate
	$(B)/fuzzgate --seconds=$(FUZZ_SECONDS) --findings=fuzzgate-findings

bench: all
	CC="$(CC)" B="$(B)" OPT="$(OPT)" sh bench/run.sh

# Time-to-find on planted bugs, fuzzgate (gcc and clang coverage) beside libFuzzer.
bench-find: all
	CC="$(CC)" B="$(B)" OPT="$(OPT)" sh bench/find.sh

# Real libraries: the same LLVMFuzzerTestOneInput harnesses under libFuzzer, fuzzgate's
# libFuzzer driver and as fuzzgate targets (bench/real/run.sh); a library without its -dev
# package is skipped, and the run says so.
bench-real: all
	CC="$(CC)" B="$(B)" OPT="$(OPT)" sh bench/real/run.sh

# Real code built from source: binutils' libraries (Debian's binutils-source, installed
# when missing and root) built with clang's and gcc's instrumentation, harnesses under
# libFuzzer, fuzzgate's libFuzzer driver and as a fuzzgate target (bench/src/run.sh).
bench-src: all
	CC="$(CC)" B="$(B)" OPT="$(OPT)" sh bench/src/run.sh

# The built-in targets under libFuzzer and AFL++ (docs/libfuzzer.md): each target's file,
# the adapter (LLVMFuzzerTestOneInput over the target's .run) and the standalone registry
# and fg_fail_at -- never libfuzzgate, whose coverage callbacks the fuzzer's runtime
# defines too. LF_UNDER_TEST is the engine code that targets test (hex, options), on
# plain malloc. Built apart from the flags stamp: these are the fuzzer's flags, not ours.
LF_CC     ?= clang
AFL_CC    ?= afl-clang-fast
LF_CFLAGS ?= -g -O1
LF_UNDER_TEST := engine/base/hex.c engine/run/options.c engine/base/mem.c engine/base/clocale.c \
                 engine/base/errors.c \
                 engine/base/errout.c \
                 bridge/standalone/real_alloc_libc.c
LF_SRC := bridge/standalone/lf_adapter.c bridge/standalone/standalone.c engine/feedback/reader.c \
          $(LF_UNDER_TEST) $(wildcard targets/lib/*.c)
LF_NAMES := $(patsubst targets/%.c,%,$(wildcard targets/*.c))
# The Brotli targets with the Brotli oracle, or not at all (a skipped target has no body).
ifeq ($(HAVE_BROTLI),1)
LF_SRC += oracle/brotli.c -DFG_HAVE_BROTLI=1 $(shell pkg-config --cflags libbrotlienc libbrotlidec)
LF_LIBS := $(BROTLI_LIBS)
else
LF_NAMES := $(filter-out brotli_%,$(LF_NAMES))
endif
COMMA := ,

# $(call lf_build,compiler,fuzzer flags,output dir): every target, one binary each.
define lf_build
	@mkdir -p $(3)
	@for t in $(LF_NAMES); do \
		echo "  $(1) $(3)/$$t"; \
		$(1) $(LF_CFLAGS) $(2) -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude -I. \
			-DFG_LF_TARGET=$$t targets/$$t.c $(LF_SRC) -o $(3)/$$t $(LF_LIBS) -lm \
			|| exit 1; \
	done
endef

libfuzzer:
	@command -v $(LF_CC) >/dev/null 2>&1 || \
		{ echo "make libfuzzer: needs clang with libFuzzer ('$(LF_CC)' is not installed;" \
		"LF_CC=... names another)"; exit 1; }
	$(call lf_build,$(LF_CC),-fsanitize=fuzzer$(COMMA)address,$(B)/libfuzzer)

afl:
	@command -v $(AFL_CC) >/dev/null 2>&1 || \
		{ echo "make afl: needs AFL++ ('$(AFL_CC)' is not installed: apt-get install afl++," \
		"or AFL_CC=... names it)"; exit 1; }
	$(call lf_build,$(AFL_CC),-fsanitize=fuzzer,$(B)/afl)

brotli-seeds: $(B)/brotli-seeds-gen
	rm -rf $(B)/brotli-seeds && $(B)/brotli-seeds-gen $(B)/brotli-seeds

$(B)/brotli-seeds-gen: tools/brotli_seeds.c $(B)/flags.stamp
ifeq ($(HAVE_BROTLI),1)
	$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -o $@ tools/brotli_seeds.c $(BROTLI_LIBS)
else
	@echo "brotli-seeds: built without brotli (install libbrotli-dev)"; exit 1
endif

# What the committed corpus reaches: gcc --coverage in a build directory of its own (the
# default build stays uninstrumented), then lcov/genhtml.
COVERAGE_B := build-coverage
coverage:
	@command -v lcov >/dev/null 2>&1 && command -v genhtml >/dev/null 2>&1 || \
		{ echo "make coverage: needs lcov and genhtml, which are not installed (Debian/Ubuntu:" \
		"apt-get install lcov; Fedora: dnf install lcov; macOS: brew install lcov)"; exit 1; }
	@command -v gcc >/dev/null 2>&1 || { echo "make coverage: needs gcc (--coverage, gcov)"; exit 1; }
	$(MAKE) B=$(COVERAGE_B) CC=gcc COVERAGE=1 SANITIZE= INSTRUMENT= $(COVERAGE_B)/fuzzgate
	COV_PROG=$(COVERAGE_B)/fuzzgate COV_DIR=$(COVERAGE_B) COV_CASES=$(COVERAGE_CASES) \
		sh tools/coverage.sh

docs: $(B)/test-unit
	$(B)/test-unit --cli-md > docs/cli.md

# The CMake package (cmake/, docs/embedding.md) goes beside the pkg-config modules. Its
# fuzzgateBuild.cmake is written from the modules' .pc.in files: each @module.Field@ of
# cmake/fuzzgateBuild.cmake.in becomes that field less what the imported targets carry
# themselves (-I, -L, the fuzzgate archives), so a flag added to a module reaches both.
CMAKE_DIR = $(DESTDIR)$(PREFIX)/lib/cmake/fuzzgate
pc_field = $(strip $(shell sed -n 's/^$(1): //p' $(2)))
CMAKE_BUILD_SED = -e 's|@fuzzgate.Version@|$(call pc_field,Version,fuzzgate.pc.in)|' \
	$(foreach m,fuzzgate fuzzgate-main fuzzgate-libfuzzer,$(foreach f,Cflags Libs, \
	-e 's|@$(m).$(f)@|$(filter-out -I% -L% -lfuzzgate%,$(call pc_field,$(f),$(m).pc.in))|')) \
	-e 's|@HAVE_BROTLI@|$(if $(HAVE_BROTLI),1,0)|' -e 's|@BROTLI_LIBS@|$(strip $(BROTLI_LIBS))|'

install: all
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 include/fuzzgate.h $(DESTDIR)$(PREFIX)/include/
ifeq ($(HAVE_BROTLI),1)
	install -m 644 include/fuzzgate_brotli.h $(DESTDIR)$(PREFIX)/include/
endif
	install -m 644 $(B)/libfuzzgate.a $(B)/libfuzzgate_main.a $(B)/libfuzzgate_libfuzzer.a \
		$(DESTDIR)$(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|' fuzzgate.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/fuzzgate.pc
	sed -e 's|@PREFIX@|$(PREFIX)|' fuzzgate-main.pc.in > \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig/fuzzgate-main.pc
	sed -e 's|@PREFIX@|$(PREFIX)|' fuzzgate-libfuzzer.pc.in > \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig/fuzzgate-libfuzzer.pc
	install -d $(CMAKE_DIR)
	install -m 644 cmake/fuzzgateConfig.cmake cmake/fuzzgateConfigVersion.cmake \
		cmake/fuzzgateFunctions.cmake cmake/fuzzgateDiscover.cmake cmake/fuzzgateRun.cmake \
		$(CMAKE_DIR)/
	sed $(CMAKE_BUILD_SED) cmake/fuzzgateBuild.cmake.in > $(CMAKE_DIR)/fuzzgateBuild.cmake
	install -d $(DESTDIR)$(PREFIX)/share/fuzzgate
	install -m 644 tools/valgrind.supp $(DESTDIR)$(PREFIX)/share/fuzzgate/

clean:
	rm -rf $(B)

# The compilers' dependency files of this build's own objects (not what a bench unpacks and
# builds under $(B): binutils' sources hold ~10,000 files named *.d).
-include $(wildcard $(B)/*.d $(B)/engine/*/*.d $(B)/oracle/*.d $(B)/bridge/*/*.d $(B)/targets/*.d \
	$(B)/targets/lib/*.d $(B)/test/*/*.d $(B)/tools/*.d)
