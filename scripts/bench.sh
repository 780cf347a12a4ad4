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
  # GA full runs, measured (paper: 563.2 s for 16x16 brev, 2 slices, 50 x 1,000).
  # BENCH_GA=0 skips them.
  if [ "${BENCH_GA:-1}" != 0 ]; then
    for algo in paper local; do
      j=$("$BUILD/nocsim" ga --traffic brev --slices 2 --algo $algo --no-db --quiet --format json)
      secs=$(echo "$j" | sed -n 's/.*"seconds": \([0-9.]*\).*/\1/p')
      ev=$(echo "$j" | sed -n 's/.*"evaluations": \([0-9]*\).*/\1/p')
      best=$(echo "$j" | sed -n 's/.*"best_duration": \([0-9]*\).*/\1/p')
      awk -v a=$algo -v s="$secs" -v e="$ev" -v b="$best" -v n="$(nproc)" 'BEGIN {
        printf "ga_full_run_%s %.1f s (16x16 brev, 2 slices, %d simulations, %d threads, best %d)\n", a, s, e, n, b
        printf "ga_full_run_%s_paper_ratio %.1f x (paper 563.2 s)\n", a, 563.2 / s }'
    done
  fi
} | tee "$out"
[ -n "${BENCH_OUT:-}" ] && cp "$out" "$BENCH_OUT"
exit 0
