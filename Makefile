# nocsim build.  One library of all parts (util, router, traffic, sim, store, ga, cc)
# and one binary (cli/).  Every tests/test_*.c is its own Check executable, so
# a part's tests can be added without touching a shared list.
#
#   make            build ./nocsim
#   make check      build and run the unit tests
#   make check-asan the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench      timing benchmarks (not part of the tests)

CC      ?= cc
BUILD   ?= build
OPT     ?= -O2 -g
CFLAGS  ?= $(OPT)
CFLAGS  += -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -I.
LDLIBS  += -lsqlite3 -lz -lpthread -lm
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lm -pthread)

PARTS   := util router traffic sim store ga cc
LIB_SRC := $(foreach p,$(PARTS),$(wildcard $(p)/*.c))
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_SRC := $(wildcard cli/*.c)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_SRC := $(filter-out tests/testutil.c,$(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_UTIL := $(wildcard tests/testutil.c)
TEST_UTIL_OBJ := $(TEST_UTIL:%.c=$(BUILD)/%.o)

BIN := $(BUILD)/nocsim

.PHONY: all check check-asan test bench clean layers
# Keep object files that only pattern rules mention (tests/testutil.o).
.SECONDARY:
all: nocsim

# Copy then rename, so a running ./nocsim keeps its file and is not "busy".
nocsim: $(BIN)
	cp $(BIN) nocsim.tmp && mv -f nocsim.tmp nocsim

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
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(CHECK_LIBS) $(LDLIBS)

# Tests run from the project root; shell tests (tests/*.sh) drive the binary.
check test: $(TEST_BIN) $(BIN) layers
	@set -e; fail=0; for t in $(TEST_BIN); do \
	  echo "== $$t"; NOCSIM=$(abspath $(BIN)) $$t || fail=1; done; \
	for s in $(wildcard tests/*.sh); do \
	  echo "== $$s"; NOCSIM=$(abspath $(BIN)) bash $$s || fail=1; done; \
	exit $$fail

check-asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined" check

bench: $(BIN)
	bash scripts/bench.sh

layers:
	@bash scripts/check_layers.sh

clean:
	rm -rf build build-asan nocsim

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_BIN:=.d)
