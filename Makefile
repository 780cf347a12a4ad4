# nocsim build.  One library of all parts (util, router, traffic, sim, viz, store, ga, cc, ccsim)
# and one binary (cli/).  Every tests/test_*.c is its own Check executable, so
# a part's tests can be added without touching a shared list.
#
#   make            build ./nocsim
#   make check      build and run the unit tests, the checking build (build-check/:
#                   the fast engine walks its invariants every cycle, -DNOCSIM_CHECK)
#                   on a few simulations, and the engine-comparison fuzz target
#                   for FUZZ_ENGINES_SECONDS (default 5) as a random test, the delta
#                   runs' one (fuzz_delta) likewise for FUZZ_DELTA_SECONDS; the
#                   tests run TEST_JOBS at a time (default: the number of cores),
#                   each into $(BUILD)/test-logs/NAME.log, printed whole in order
#   make check-asan the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench      timing benchmarks (not part of the tests)
#   make mutants    scripts/mutants.sh: every injected bug of tests/mutants/mutants.txt
#                   must be caught by the tests it names (a few minutes)
#   make install PREFIX=/usr/local DESTDIR=   the binary, the man page nocsim.1
#                   (built from the commands' --help by scripts/mkman.sh), bash
#                   completion and the reference documents; make uninstall
#                   removes them
#   make fuzz       every tests/fuzz/fuzz_*.c as its own libFuzzer binary (clang,
#                   ASan+UBSan), each run FUZZ_SECONDS (default 60) on a copy of
#                   its seed corpus tests/fuzz/corpus/NAME/ (NAME = file name
#                   without fuzz_ and .c); tests/fuzz/fuzz_NAME.dict is used if
#                   present; FUZZ_JOBS (default TEST_JOBS) at a time.  Findings
#                   are written to build-fuzz/fuzz/ and fail.
#   make check check-asan fuzz -j$(nproc)   the same goals, built on every core;
#                   goals named together still run one after another

# The compiler: clang when it is installed (the README's command installs it;
# libFuzzer needs it anyway), else cc.  Built by Debian's clang 14 the
# open-loop engine runs 9-12 % faster than built by GCC 12 (docs/openloop.md,
# "Compiler"), the GA's engine as fast either way; `make CC=gcc` builds with GCC.
ifeq ($(origin CC),default)
CC      := $(if $(shell command -v clang 2>/dev/null),clang,cc)
endif
BUILD   ?= build
# make MPI=1: the same program built with Open MPI's mpicc, so that
# `mpirun -np K nocsim sweep ...` spreads a sweep's runs over K ranks.
ifeq ($(MPI),1)
override CC      := mpicc
override BUILD   := build-mpi
override OPT     := -O2 -g
override LDFLAGS :=
CFLAGS_MPI := -DNOCSIM_MPI
endif
# `make check` also builds the MPI variant when Open MPI's mpicc is there, and
# the sweep tests run it under mpirun.
MPI_BIN := $(if $(shell command -v mpicc 2>/dev/null),build-mpi/nocsim)
# DWARF 4: Debian 12's valgrind (3.19) cannot read clang 14's DWARF 5, and
# make bench counts instructions with callgrind.
OPT     ?= -O2 -gdwarf-4
CFLAGS  ?= $(OPT)
CFLAGS  += -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -I. $(CFLAGS_MPI) $(CFLAGS_CHECK)
LDLIBS  += -ljansson -lsqlite3 -lpng -lz -lpthread -lm -lcadical -lstdc++
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm -pthread)

PARTS   := util router traffic sim viz store ga cc ccsim sweep
LIB_SRC := $(foreach p,$(PARTS),$(wildcard $(p)/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC := $(wildcard cli/*.c)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(filter-out tests/testutil.c,$(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_UTIL := $(wildcard tests/testutil.c)
TEST_UTIL_OBJ := $(TEST_UTIL:%.c=$(BUILD)/%.o)

BIN := $(BUILD)/nocsim

.PHONY: all check check-asan test bench clean layers fuzz fuzz-run mpi mutants check-build install uninstall man
# Keep object files that only pattern rules mention (tests/testutil.o).
.SECONDARY:
ifneq ($(MPI),1)
all: nocsim
endif

# Copy then rename, so a running ./nocsim keeps its file and is not "busy".
ifeq ($(MPI),1)
all: $(BIN)
else
nocsim: $(BIN)
	cp $(BIN) nocsim.tmp && mv -f nocsim.tmp nocsim
endif

$(BUILD)/libnocsim.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BIN): $(CLI_OBJ) $(BUILD)/libnocsim.a
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libnocsim.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CHECK_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_UTIL_OBJ) $(BUILD)/libnocsim.a
	$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(filter %.a,$^) $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

# tests/cli/test_*.c check pure functions of the front end (cli/status.c's
# exit-status mapping), as tests/fuzz/ drives its file readers: they link the
# front end's library before the library it stands on (tests/*.c, like the
# library, may not include cli/: scripts/check_layers.sh).
CLI_TEST_SRC := $(wildcard tests/cli/test_*.c)
CLI_TEST_BIN := $(CLI_TEST_SRC:tests/cli/%.c=$(BUILD)/tests/%)
$(CLI_TEST_BIN): $(BUILD)/tests/%: $(BUILD)/tests/cli/%.o $(TEST_UTIL_OBJ) $(BUILD)/libcli.a $(BUILD)/libnocsim.a
	$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(BUILD)/libcli.a $(BUILD)/libnocsim.a $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

# The store's tests share a fixture and helpers (tests/store_testutil.c).
STORE_TESTS := $(addprefix $(BUILD)/tests/,test_store test_store_runs test_store_chrom)
$(STORE_TESTS): $(BUILD)/tests/store_testutil.o

# The MPI variant (a separate build folder; make decides there what to redo).
mpi:
	$(MAKE) MPI=1

# The checking build: the same program with -DNOCSIM_CHECK in its own folder,
# always with the plain flags (check-asan's must not reach its objects).
CHECK_BIN := build-check/nocsim
check-build:
	$(MAKE) BUILD=build-check OPT="-O2 -g" LDFLAGS= MPI= CFLAGS_CHECK=-DNOCSIM_CHECK $(CHECK_BIN)

# tests/fuzz/fuzz_engines.c without libFuzzer: random inputs for a time.
FUZZ_ENGINES_SECONDS ?= 5
$(BUILD)/tests/fuzz_engines_random: tests/fuzz/fuzz_engines.c tests/fuzz/fuzz_random.h $(BUILD)/libnocsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DFUZZ_RANDOM_MAIN -o $@ $< $(BUILD)/libnocsim.a $(LDFLAGS) $(LDLIBS)
# tests/fuzz/fuzz_delta.c the same way, for FUZZ_DELTA_SECONDS.
FUZZ_DELTA_SECONDS ?= 5
$(BUILD)/tests/fuzz_delta_random: tests/fuzz/fuzz_delta.c tests/delta_harness.h tests/fuzz/fuzz_random.h $(BUILD)/libnocsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DFUZZ_RANDOM_MAIN -o $@ $< $(BUILD)/libnocsim.a $(LDFLAGS) $(LDLIBS)

# Tests run from the project root; shell tests (tests/*.sh) drive the binary.
# scripts/run_tests.sh runs TEST_JOBS of them at a time (default: one per
# core; TEST_JOBS=1 runs them one after another), each into its own log
# $(BUILD)/test-logs/NAME.log, printed whole in this order.  TEST_SLOW
# starts first, longest first (measured under ASan), so that the lanes end
# together; a run's $(BUILD)/test-logs/times orders the next one.
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
TEST_SLOW := test_openloop test_ga_matrix ga_cli.sh options.sh kill_loop.sh test_decisions \
             invariants.sh cc_bounded.sh sweep_cli.sh test_operators test_ga oom_exit.sh
check test: $(TEST_BIN) $(CLI_TEST_BIN) $(BIN) $(BUILD)/bench/delta_ceiling layers $(if $(MPI_BIN),mpi) check-build $(BUILD)/tests/fuzz_engines_random \
            $(BUILD)/tests/fuzz_delta_random
	@NOCSIM=$(abspath $(BIN)) NOCSIM_CHECK_BIN=$(abspath $(CHECK_BIN)) \
	  NOCSIM_MPI_BIN=$(if $(MPI_BIN),$(abspath $(MPI_BIN))) \
	  bash scripts/run_tests.sh -j $(TEST_JOBS) -d $(BUILD)/test-logs -s "$(TEST_SLOW)" \
	  $(TEST_BIN) $(CLI_TEST_BIN) $(wildcard tests/*.sh) "$(BUILD)/tests/fuzz_engines_random $(FUZZ_ENGINES_SECONDS)" \
	  "$(BUILD)/tests/fuzz_delta_random $(FUZZ_DELTA_SECONDS)"

# Goals named together (make -j2 check check-asan fuzz) run one after
# another in that order, each with every job slot: check and check-asan
# both make build-check/, and two test runs at once would share the cores.
check-asan fuzz: | $(filter check test,$(MAKECMDGOALS))
fuzz: | $(filter check-asan,$(MAKECMDGOALS))

mutants:
	scripts/mutants.sh

check-asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined" MPI_BIN= check

# libFuzzer: the library and the CLI's file readers built with clang and
# coverage hooks; each target links what it needs from the two archives.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_MAX_LEN ?= 16384
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)

fuzz:
	$(MAKE) BUILD=build-fuzz CC=$(FUZZ_CC) \
	  OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=fuzzer,address,undefined" fuzz-run

$(BUILD)/libcli.a: $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJ))
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/libcli.a $(BUILD)/libnocsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libcli.a $(BUILD)/libnocsim.a $(LDFLAGS) $(LDLIBS)

# FUZZ_JOBS targets at a time (default TEST_JOBS), each for FUZZ_SECONDS,
# its log $(BUILD)/fuzz/NAME.log; printed: its statistics, or on a failure
# the error lines.
FUZZ_JOBS ?= $(TEST_JOBS)
fuzz-run: $(FUZZ_BIN)
	@set --; for b in $(FUZZ_BIN); do \
	  name=$$(basename $$b); short=$${name#fuzz_}; \
	  work=$(BUILD)/fuzz/corpus/$$short; mkdir -p $$work; \
	  seeds=; [ -d tests/fuzz/corpus/$$short ] && seeds=tests/fuzz/corpus/$$short; \
	  dict=; [ -f tests/fuzz/$$name.dict ] && dict=-dict=tests/fuzz/$$name.dict; \
	  set -- "$$@" "$$b -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) -print_final_stats=1 \
	    -artifact_prefix=$(BUILD)/fuzz/$$name- $$dict $$work $$seeds"; \
	done; \
	echo "== $(words $(FUZZ_BIN)) fuzz targets, $(FUZZ_SECONDS) s each, $(FUZZ_JOBS) at a time, logs $(BUILD)/fuzz/NAME.log"; \
	bash scripts/run_tests.sh -j $(FUZZ_JOBS) -d $(BUILD)/fuzz \
	  -p '^stat::(number_of_executed_units|new_units_added)' -f '(ERROR|SUMMARY|Test unit written)' "$$@"

# The benchmark driver, built as the tests are (the same compiler and flags).
$(BUILD)/bench/bench: bench/bench.c $(BUILD)/libnocsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libnocsim.a $(LDFLAGS) $(LDLIBS)

# The measurement of issue 38's ceiling (data/delta_ceiling.md), built the same way.
$(BUILD)/bench/delta_ceiling: bench/delta_ceiling.c $(BUILD)/libnocsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libnocsim.a $(LDFLAGS) $(LDLIBS)

bench: $(BIN) $(BUILD)/bench/bench
	BUILD=$(BUILD) bash scripts/bench.sh

layers:
	@bash scripts/check_layers.sh

clean:
	rm -rf build build-asan build-fuzz build-mpi build-check nocsim

# Installation.  The man page is generated from the binary's --help texts,
# so it lists exactly the options the parsers take.
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  := $(PREFIX)/bin
MANDIR  := $(PREFIX)/share/man/man1
COMPDIR := $(PREFIX)/share/bash-completion/completions
DOCDIR  := $(PREFIX)/share/doc/nocsim
# Reference documents, installed flat under DOCDIR.
DOCS    := README.md cc/README.md:cc.md store/SCHEMA.md $(wildcard docs/*.md)

man: $(BUILD)/nocsim.1
$(BUILD)/nocsim.1: $(BIN) scripts/mkman.sh
	scripts/mkman.sh $(BIN) > $@.tmp && mv -f $@.tmp $@

# PREFIX and DESTDIR are refused before anything is touched when they hold
# whitespace or a quote, backslash, $ or backquote (a space split one path
# into two, and uninstall deleted outside DESTDIR); every path is quoted.
INSTALL_BAD := $(strip $(foreach c,' " ` $$ \,$(if $(findstring $c,$(value PREFIX)$(value DESTDIR)),$c)))
define install_check
$(if $(filter-out 1,$(words $(PREFIX)))$(filter-out 0 1,$(words $(DESTDIR)))$(INSTALL_BAD),\
  $(error PREFIX='$(value PREFIX)' DESTDIR='$(value DESTDIR)': one path each, without whitespace, quotes, \, $$ or `; nothing was installed or removed))
endef

install: $(BIN) $(BUILD)/nocsim.1
	$(install_check)
	install -d '$(DESTDIR)$(BINDIR)' '$(DESTDIR)$(MANDIR)' '$(DESTDIR)$(COMPDIR)' '$(DESTDIR)$(DOCDIR)'
	install -m 755 $(BIN) '$(DESTDIR)$(BINDIR)/nocsim'
	install -m 644 $(BUILD)/nocsim.1 '$(DESTDIR)$(MANDIR)/nocsim.1'
	install -m 644 completion/nocsim.bash '$(DESTDIR)$(COMPDIR)/nocsim'
	set -e; for d in $(DOCS); do src=$${d%%:*}; dst=$${d#*:}; [ "$$dst" != "$$d" ] || dst=$$(basename $$src); \
	  install -m 644 $$src '$(DESTDIR)$(DOCDIR)'/$$dst; done

# Removes what install wrote and nocsim's doc folder; under a DESTDIR (a
# staging tree) also the folders install made there, when left empty.
uninstall:
	$(install_check)
	rm -f '$(DESTDIR)$(BINDIR)/nocsim' '$(DESTDIR)$(MANDIR)/nocsim.1' '$(DESTDIR)$(COMPDIR)/nocsim'
	set -e; for d in $(DOCS); do src=$${d%%:*}; dst=$${d#*:}; [ "$$dst" != "$$d" ] || dst=$$(basename $$src); \
	  rm -f '$(DESTDIR)$(DOCDIR)'/$$dst; done
	-rmdir '$(DESTDIR)$(DOCDIR)' 2>/dev/null
	$(if $(DESTDIR),-for d in '$(COMPDIR)' '$(PREFIX)/share/bash-completion' '$(MANDIR)' '$(PREFIX)/share/man' \
	  '$(PREFIX)/share/doc' '$(PREFIX)/share' '$(BINDIR)' '$(PREFIX)'; do rmdir '$(DESTDIR)'"$$d" 2>/dev/null; done; true)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_BIN:=.d) $(BUILD)/tests/store_testutil.d
