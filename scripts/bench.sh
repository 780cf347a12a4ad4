#!/usr/bin/env bash
# `make bench`: build the benchmark driver (bench/bench.c) against the
# library that `make` built, and print one `name value unit` line per figure.
#   BUILD=dir     the build directory holding libnocsim.a (default build)
#   BENCH_SECONDS time per measurement (default 3; the machine is noisy)
#   BENCH_OUT     also write the table to this file (e.g. data/bench-DATE.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
CC=${CC:-cc}
bin=$BUILD/bench/bench
mkdir -p "$BUILD/bench"
$CC -O2 -g -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -I. -o "$bin" bench/bench.c \
  "$BUILD/libnocsim.a" -lsqlite3 -lz -lpthread -lm
out=$(mktemp); trap 'rm -f "$out"' EXIT
{
  echo "# nocsim bench $(date -u +%Y-%m-%dT%H:%MZ) $(git rev-parse --short HEAD 2>/dev/null || echo '?')" \
       "on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cpus"
  "$bin" --seconds "${BENCH_SECONDS:-3}"
  # ---- GA full run (paper: 563.2 s): the GA's measured line goes here ----
  # ga_full_run <seconds> s (16x16 brev, 2 slices, 50 x 1000, all threads)
} | tee "$out"
[ -n "${BENCH_OUT:-}" ] && cp "$out" "$BENCH_OUT"
exit 0
