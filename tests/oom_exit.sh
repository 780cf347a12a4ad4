#!/usr/bin/env bash
# Memory that runs out is the machine's fault, never bad input: exit 1 and
# "out of memory", wherever it happens (util/fault.h, cli/status.c; issue 36
# §1: the mutant `kind <= FAULT_INPUT` of cli_fault_status survived, since no
# test brought a memory fault to the exit-status mapping at every place).
# tests/shim/fail_alloc.c, preloaded, makes exactly the Nth allocation of the
# process fail; each command below is run once per N, from the first
# allocation to its last, and every run must
#   - exit 0 with the output of a run without the shim (the failure was
#     handled and did not change the result), or
#   - exit 1 with a message naming the lack of memory.
# A run that exits 2 (called bad input), crashes or prints a wrong result fails.
# Not under a sanitizer (its allocator is not glibc's) or without a C compiler.
set -u
. "$(dirname "$0")/testlib.bash"
N=${NOCSIM:-./nocsim}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if grep -q __asan_init "$N" 2>/dev/null; then echo "oom_exit: skipped under ASan"; exit 0; fi
CC=${CC:-cc}
if ! "$CC" -std=c11 -O1 -shared -fPIC -o "$tmp/fail_alloc.so" "$(dirname "$0")/shim/fail_alloc.c" 2>"$tmp/cc.log"; then
  echo "oom_exit: skipped: cannot build the shim ($(head -1 "$tmp/cc.log"))"; exit 0
fi
shim() { env LD_PRELOAD="$tmp/fail_alloc.so" "$@"; }

# walk NAME COMMAND...: every allocation of COMMAND made to fail in turn.
# With HIDE=SED_EXPR, outputs are compared after sed -E HIDE (see load below).
walk() {
  local name=$1; shift
  local want total i rc fails=0 oks=0
  want=$("$@" 2>/dev/null | sed -E "${HIDE:-}") || { bad "$name: fails without the shim"; return; }
  shim NOCSIM_FAIL_ALLOC_COUNT="$tmp/count" "$@" >/dev/null 2>&1
  total=$(cat "$tmp/count" 2>/dev/null || echo 0)
  # The shim counts (a command this size makes tens of allocations at least).
  [ "$total" -ge 20 ] && ok || { bad "$name: the shim saw $total allocations"; return; }
  for i in $(seq 1 "$total"); do
    shim NOCSIM_FAIL_ALLOC=$i timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
    if [ $rc -eq 0 ] && [ "$(sed -E "${HIDE:-}" "$tmp/out")" = "$want" ]; then oks=$((oks + 1))
    elif [ $rc -eq 1 ] && grep -q "out of memory" "$tmp/err"; then fails=$((fails + 1))
    else bad "$name: allocation $i of $total failed: exit $rc: $(head -c 300 "$tmp/err")"; fi
  done
  # Most allocations are needed: a walk where none failed the run did not
  # reach the program.
  [ $fails -ge $((total / 2)) ] && ok || bad "$name: only $fails of $total failed allocations ended the run"
  echo "oom_exit: $name: $total allocations, $fails runs exit 1 (out of memory), $oks unaffected"
}

walk sim $N sim --size 4 --traffic brev --links --format csv
walk stack $N stack --size 4 --interval 8:9 --arb C00,C03 -j 1 --format csv
# load: a failed allocation late in a point (the 153rd to 161st of this run,
# a packet's) once ended it as saturated ("drain", zeros) with exit 0;
# sim/openloop.c now tells memory from the packet ids running out (exit 1).
# The zero-load latency and the channel-load bound once answered 0 when an
# allocation of theirs failed, and load printed that with exit 0; they now
# fail the run (exit 1) as every other allocation does.
walk load $N load --size 4 --rates 0.1:0.1:1 --no-db -j 1 --batch 10 --window 2 -q --format csv
# ga: its start's non-split baseline once took sim_new's kind (FAULT_INPUT
# after a success) for a failed sim_config_new's and exited 2 (allocations
# 1787-1790 of this run).
walk ga $N ga --size 4 --generations 1 --no-db -q -j 1

echo "oom_exit: $pass passed, $fail failed"
[ $fail -eq 0 ]
