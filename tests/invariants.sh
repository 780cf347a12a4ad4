#!/usr/bin/env bash
# The checking build (build-check/nocsim, -DNOCSIM_CHECK): the fast engine
# and the open-loop network's fast path walk their stated invariants after
# every cycle (sim/fast.c, sim/olnet_fast.c), a delta run checks its cone's
# against the same child run in full (sim/delta_oracle.c), and each aborts on
# the first that does not hold.  Simulations over the patterns, word and
# ring FIFOs, model choices and short GA runs (cut runs, recorded
# decisions, delta runs) must finish and print exactly what the normal
# build prints.
set -u
N=${NOCSIM:-./nocsim}
C=${NOCSIM_CHECK_BIN:-}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
if [ -z "$C" ] || [ ! -x "$C" ]; then
  echo "invariants.sh: NOCSIM_CHECK_BIN must name the checking build (make check-build)"; exit 1
fi
same_run() { # description, arguments of nocsim...
  local what=$1; shift
  local a b rc
  b=$("$C" "$@" 2>&1); rc=$?
  [ $rc -eq 0 ] || { bad "$what: checking build exit $rc: $(printf '%s' "$b" | tail -2)"; return; }
  a=$("$N" "$@" 2>&1)
  check "$what: same output" "$(printf '%s' "$b" | sed 's/"seconds": [0-9.]*//')" "$(printf '%s' "$a" | sed 's/"seconds": [0-9.]*//')"
}
for p in bcmp brev brot shfl torn trns; do
  same_run "$p 16x16 2 slices" sim --traffic $p --size 16 --slices 2 --interval 20 --format json
  same_run "$p 8x8 3 slices C05" sim --traffic $p --size 8 --slices 3 --interval 9 --arb C05 --format json
done
same_run "ring FIFOs (buffer 12)"   sim --traffic brev --size 8 --slices 2 --buffer 12 --format json
same_run "short packets, buffer 2"  sim --traffic shfl --size 8 --slices 4 --flits 3 --buffer 2 --interval 3 --format json
same_run "one-flit FIFOs"           sim --traffic trns --size 8 --slices 2 --buffer 1 --format json
same_run "4 VCs, rotate, plus"      sim --traffic brot --size 8 --slices 2 --vcs 4 --q-update rotate --tie plus --format json
same_run "dateline after-link"      sim --traffic torn --size 8 --slices 2 --dateline after-link --self send --format json
same_run "mesh, any-VC rule"        sim --topology mesh --traffic brev --size 8 --slices 2 --format json
same_run "mesh, dateline rule"      sim --topology mesh --vc-rule dateline --traffic bcmp --size 8 --slices 3 --format json
same_run "mesh, one VC, ring FIFOs" sim --topology mesh --vcs 1 --buffer 10 --traffic trns --size 8 --slices 2 --format json
same_run "randperm"                 sim --traffic randperm --seed 5 --size 8 --slices 2 --format json
same_run "ga (cut runs, proofs)"    ga --traffic brev --size 8 --slices 2 --evals 400 --threads 1 --no-db --quiet --format json
# Delta runs (on by default, issue 38): the checking build runs each child
# in full beside its cone (sim/delta_oracle.c) and aborts when a cone router
# is not the full child's or a router outside it not the parent's record.
same_run "ga, delta runs (16x16 brev)" ga --traffic brev --slices 2 --evals 2500 --no-db --quiet --format json
same_run "ga, delta runs (8x8 randperm)" ga --traffic randperm --seed 5 --size 8 --slices 2 --evals 1500 --threads 1 --no-db --quiet --format json
same_run "ga, delta runs (8x8 mesh)" ga --topology mesh --vc-rule dateline --traffic trns --size 8 --slices 3 --seed 2 --evals 1500 --threads 1 --no-db --quiet --format json
same_run "ga paper"                 ga --algo paper --pop 6 --generations 10 --traffic bcmp --size 8 --slices 2 --threads 1 --no-db --quiet --format json
# Closed-loop runs under the other routing functions: the fast path walks
# its state, and the reference (--slice-reinit runs only there) every turn
# a turn model takes against the turns it forbids.
for r in yx o1turn valiant romm west-first north-last negative-first odd-even min-adaptive; do
  same_run "routing $r" sim --topology mesh --routing $r --selection random --traffic trns --size 8 --slices 2 --format json
  same_run "routing $r, reference" sim --topology mesh --routing $r --traffic shfl --size 8 --slices 2 --slice-reinit --format json
done
same_run "routing dor2, 2-VC torus" sim --routing dor2 --vcs 2 --traffic torn --size 8 --slices 2 --format json
same_run "ga under min-adaptive"    ga --topology mesh --routing min-adaptive --traffic brev --size 8 --slices 2 --evals 300 --threads 1 --no-db --quiet --format json
# Open-loop runs: the fast path of sim/olnet_fast.c walks its own state.
same_run "load: 8x8 mesh uniform to saturation" load --no-db --size 8 --traffic uniform --rates 0.1:1:0.1 --all --window 3 --quiet --format csv
same_run "load: 8x8 torus transpose"        load --no-db --topology torus --size 8 --traffic transpose --rates 0.1:0.4:0.1 --all --window 3 --quiet --format csv
same_run "load: 6x4 mesh, length mix, C05"  load --no-db --size 6x4 --traffic tornado --packet 1:0.5,8:0.5 --vc-rule dateline --arb C05 --rates 0.2:1:0.4 --all --window 3 --quiet --format csv
same_run "load: 1-flit FIFOs, 4 VCs, hotspot" load --no-db --size 6 --buffer 1 --vcs 4 --traffic uniform --hotspot 0:0.2 --rates 0.1:0.5:0.2 --all --window 3 --quiet --format csv
same_run "load: 8x8 torus min-adaptive, timing" load --no-db --topology torus --size 8 --routing min-adaptive --selection random --traffic uniform --self send --router-delay 1 --switch-delay 1 --link-delay 1 --credit-delay 1 --vc-alloc rotate --rates 0.31:0.31:0.01 --window 3 --quiet --format csv
echo "invariants.sh: $pass passed, $fail failed"
[ $fail -eq 0 ]
