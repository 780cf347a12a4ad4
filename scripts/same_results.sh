#!/usr/bin/env bash
# Do two builds of nocsim give the same results?  For a change of engine
# that must not change a single number (the one-engine issue; later engine
# work): runs each command below with both binaries, the GA runs into a
# database of their own, and compares the outputs and `db export` of every
# run byte for byte, with the wall-clock fields (seconds, elapsed, dates)
# taken out.
#
#   scripts/same_results.sh OLD_NOCSIM NEW_NOCSIM [quick]
#
# quick: the GA runs get 1,500 simulations instead of 6,000 (about a
# minute for both binaries instead of five).  Prints one line a command
# (same / DIFFERENT) and exits 1 when any differs, 2 on bad arguments.
set -u
if [ $# -lt 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
  echo "usage: scripts/same_results.sh OLD_NOCSIM NEW_NOCSIM [quick]" >&2
  exit 2
fi
old=$(realpath "$1"); new=$(realpath "$2")
evals=6000; [ "${3:-}" = quick ] && evals=1500
work=$(mktemp -d "${TMPDIR:-/tmp}/nocsim-same-XXXXXX"); trap 'rm -rf "$work"' EXIT
bad=0

# Wall-clock fields differ from run to run: drop them.
clean() {
  sed -E -e 's/"(seconds|mean_seconds|elapsed|started|finished|created|wall_seconds|cpu_seconds)": *[^,}]*/"\1": _/g' \
         -e 's/[0-9]+\.[0-9]+ s\b/_ s/g' -e 's/ in [0-9.]+ s/ in _ s/g' "$@"
}

# run NAME ARGS...: the command with each binary (in a folder of its own,
# where a GA writes its database), compared.
run() {
  local name=$1; shift
  for side in old new; do
    local bin=$old; [ $side = new ] && bin=$new
    mkdir -p "$work/$side"
    (cd "$work/$side" && "$bin" "$@" > "$name.out" 2> "$name.err"; echo "exit $?" >> "$name.out")
    clean "$work/$side/$name.out" > "$work/$side/$name.clean"
  done
  if cmp -s "$work/old/$name.clean" "$work/new/$name.clean"; then
    echo "same       $name: nocsim $*"
  else
    echo "DIFFERENT  $name: nocsim $*"
    diff "$work/old/$name.clean" "$work/new/$name.clean" | head -5
    bad=1
  fi
}

ga="ga --evals $evals --quiet --format json --db ga.db"
run ga-brev-t1      $ga --traffic brev --slices 2 --seed 1 --threads 1
run ga-brev-t2      $ga --traffic brev --slices 2 --seed 1 --threads 2
for t in bcmp brot shfl torn trns randperm; do
  run "ga-$t"       $ga --traffic "$t" --slices 2 --seed 3 --threads 2
done
run ga-mesh-dl      $ga --size 8 --topology mesh --vc-rule dateline --traffic trns --slices 3 --seed 2
run ga-mesh-any     $ga --size 8 --topology mesh --vc-rule any --vcs 2 --traffic randperm --slices 3 --seed 2
run ga-rect         $ga --size 8x4 --traffic randperm --slices 2 --seed 5
run ga-watchdog     $ga --traffic torn --slices 2 --seed 4 --watchdog 20
run ga-children     $ga --traffic brev --slices 2 --seed 5 --children 2
run ga-paper        ga --algo paper --generations 15 --quiet --format json --db ga.db --traffic brev --slices 2 --seed 6
run ga-sortkey-lb   $ga --traffic shfl --slices 2 --seed 7 --sort-key lb
run ga-estimate     $ga --traffic brev --slices 4 --seed 8 --fitness estimate
run ga-perturb      $ga --traffic brev --slices 2 --seed 9 --perturb 2
run ga-timetable    $ga --traffic torn --slices 2 --seed 10 --start timetable
run db-export       db export --db ga.db --format json
run replay          replay --db ga.db --best 1 --format json
for t in bcmp brev brot shfl torn trns; do   # Table 2
  run "stack-$t"    stack --traffic "$t" --slices 2 --arb all --interval 8:200 --format csv
done
run stack-mesh      stack --size 8 --topology mesh --traffic trns --slices 3 --arb all --interval 8:60 --format csv
run sim-json        sim --traffic randperm --slices 3 --seed 2 --format json
run load-mesh       load --size 8 --topology mesh --traffic uniform --rates 0.05:0.4:0.05 --no-db --format csv
run load-torus      load --size 8 --topology torus --traffic tornado --rates 0.05:0.3:0.05 --no-db --format csv --seed 3
run cc-cycles       cc --topology mesh:4x4 --cc oab --budget 2000 --seed 1 --cycles --format json
exit $bad
