#!/usr/bin/env bash
# The lower bounds of data/ga_study.md ("How far is the floor from the
# optimum?"): the floor and the per-link bounds (ga/bound.h) of the six
# patterns on 4x4, 8x8 and 16x16 with one and two slices, then the SAT
# relaxation of the whole network (scripts/ga_satbound.c, CaDiCaL) at
# D = the bound for the small cases where the GA ends above it: UNSAT makes
# the bound one higher.  Builds the two drivers against build/libnocsim.a
# (run `make` first).  Prints markdown on stdout; a minute or so.
#
#   scripts/ga_bounds.sh [--sat-only | --bounds-only | --ga]
# --ga instead runs the default GA (seed 1, 50,000 simulations) on 4x4 and
# 8x8, one and two slices, the six patterns, then the open cases at 500,000
# simulations and 16x16 one slice bcmp and trns: best, stacking, floor (about
# ten minutes; needs ./nocsim).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
lib=$here/build/libnocsim.a
[ -f "$lib" ] || { echo "ga_bounds.sh: $lib missing: run make" >&2; exit 2; }
what=${1:-all}
if [ "$what" = --ga ]; then
  N=${NOCSIM:-$here/nocsim}
  echo "| size | slices | pattern | GA seed 1 | stacking | floor | seconds |"
  echo "|---|---|---|---|---|---|---|"
  for n in 4 8; do for s in 1 2; do for t in bcmp brev brot shfl torn trns; do
    j=$($N ga --size $n --slices $s --traffic $t --seed 1 --threads 1 --no-db --quiet --format json)
    f() { echo "$j" | sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p"; }
    printf '| %dx%d | %d | %s | %s | %s | %s | %.1f |\n' $n $n $s $t "$(f best_duration)" "$(f stacking)" "$(f floor)" "$(f seconds)"
  done; done; done
  # The open cases at ten times the budget, and 16x16 with one slice where the packet bound rises.
  for c in "4 2 brev 1 500000" "4 2 brev 2 500000" "4 2 trns 1 500000" "4 2 trns 2 500000" "8 1 brev 1 500000" \
           "8 2 bcmp 1 500000" "8 2 trns 1 500000" "16 1 bcmp 1 50000" "16 1 trns 1 50000"; do
    set -- $c
    j=$($N ga --size $1 --slices $2 --traffic $3 --seed $4 --evals $5 --threads 1 --no-db --quiet --format json)
    f() { echo "$j" | sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p"; }
    printf '| %dx%d | %d | %s (seed %d, %d simulations) | %s | %s | %s | %.1f |\n' $1 $1 $2 $3 $4 $5 "$(f best_duration)" "$(f stacking)" "$(f floor)" "$(f seconds)"
  done
  exit 0
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
libs="-ljansson -lsqlite3 -lpng -lz -lpthread -lcadical -lstdc++ -lm"
cflags="-O2 -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -I$here"
cc $cflags -o "$tmp/ga_bounds" "$here/scripts/ga_bounds.c" "$lib" $libs
cc $cflags -o "$tmp/ga_satbound" "$here/scripts/ga_satbound.c" "$lib" $libs
if [ "$what" != --sat-only ]; then
  echo "| size | slices | pattern | floor | flit bound | packet bound | bound | where (x,y port VC) | exact | time |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for n in 4 8 16; do for s in 1 2; do "$tmp/ga_bounds" $n $s; done; done
fi
if [ "$what" != --bounds-only ]; then
  echo
  echo "SAT relaxation at D = the bound (UNSAT: no chromosome runs in D cycles):"
  echo
  # size slices pattern D
  for c in "4 1 brev 19" "4 1 trns 19" "4 2 brev 35" "4 2 trns 35" "8 1 brev 35" "8 1 bcmp 21" "8 1 trns 35" \
           "8 2 bcmp 37" "8 2 trns 67"; do
    echo "- $("$tmp/ga_satbound" $c)"
  done
  echo
  echo "Checks: at a duration the GA has reached the relaxation must be SAT:"
  echo
  for c in "4 1 brev 20" "8 1 bcmp 22" "8 1 trns 36"; do echo "- $("$tmp/ga_satbound" $c)"; done
fi
