#!/usr/bin/env bash
# CLI contract of `nocsim load --routing/--selection`: a function or rule
# that cannot run is refused with its reason and exit 2 before any work;
# the function is kept with the run (params, JSON, text) and absent under
# dor, whose output is what it always was; the figures it prints are the
# function's (Valiant's zero-load latency through its node, worked by hand).
set -u
N=${NOCSIM:-./nocsim}
source "$(dirname "$0")/testlib.bash"
in_scratch

expect_usage "unknown function"    "not a routing function"     $N load --routing north-first --no-db
expect_usage "unknown rule"        "not a selection rule"       $N load --selection best --no-db
expect_usage "too few VCs"         "needs at least 2 VCs"       $N load --routing o1turn --vcs 1 --no-db
expect_usage "mesh-only on torus"  "only on a mesh"             $N load --routing west-first --topology torus --no-db
expect_usage "2 VCs torus under dor" "routing dor2 runs on 2" $N load --topology torus --vcs 2 --no-db
# Valiant and min-adaptive on a torus need their dateline classes' VCs
# (docs/model.md [R-RF-11], [R-RF-12]): one short, refused with the reason.
expect_usage "valiant torus 3 VCs" "routing valiant: needs at least 4 VCs on a torus (its two phases, each in two dateline classes" \
  $N load --routing valiant --topology torus --vcs 3 --no-db
expect_usage "min-adaptive torus 2 VCs" "routing min-adaptive: needs at least 3 VCs on a torus (the escape's two dateline classes" \
  $N load --routing min-adaptive --topology torus --vcs 2 --no-db
expect_usage "romm on a torus" "routing romm: only on a mesh" $N load --routing romm --topology torus --vcs 4 --no-db
expect_usage "any-VC dor torus" "only on a mesh" $N load --topology torus --vc-rule any --no-db
# Valiant on the 4x4 torus, 1-flit packets: a ring of 4 is 1 hop from a
# uniform node on average, 2 legs x 2 dimensions = 4 hops, T0 = 4 + 1 + 1 = 6;
# the any-VC rule is taken on a torus.
j=$($N load --size 4 --topology torus --vcs 4 --vc-rule any --routing valiant --packet 1 --rate 0.01 --window 2 --format json --quiet --no-db)
check "valiant torus zero load" "$(printf '%s' "$j" | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["zero_load"], 9))')" "6.0"
j=$($N load --size 4 --topology torus --vcs 3 --routing min-adaptive --rate 0.05 --window 2 --format json --quiet --no-db)
check "min-adaptive torus runs" "$(printf '%s' "$j" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["routing"], d["points"][0]["accepted"] > 0)')" "min-adaptive True"

# dor2 runs where dor cannot (2 VCs on a torus): one point at a light load.
$N load --topology torus --vcs 2 --routing dor2 --rate 0.05 --window 2 --quiet --no-db > dor2.txt 2>&1
check "dor2 on a 2-VC torus" "$?" 0

# Valiant on the 4x4 mesh, 1-flit packets: every leg is to or from a uniform
# node, mean |x - X| over 0..3 twice is 1.25 a dimension, so 2 legs x 2
# dimensions x 1.25 = 5 hops, and T0 = 5 + 1 + 1 = 7.
j=$($N load --size 4 --routing valiant --packet 1 --rate 0.01 --window 2 --format json --quiet --no-db)
check "valiant zero load" "$(printf '%s' "$j" | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["zero_load"], 9))')" "7.0"
check "valiant in the JSON" "$(printf '%s' "$j" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["routing"], "selection" in d)')" "valiant False"
j=$($N load --size 4 --routing odd-even --selection random --rate 0.01 --window 2 --format json --quiet --no-db)
check "adaptive: its rule too" "$(printf '%s' "$j" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["routing"], d["selection"])')" "odd-even random"
j=$($N load --size 4 --rate 0.01 --window 2 --format json --quiet --no-db)
check "dor: no routing member" "$(printf '%s' "$j" | python3 -c 'import json,sys; print("routing" in json.load(sys.stdin))')" "False"
# BookSim2's names are taken too.
t=$($N load --size 4 --routing xy_yx --vcs 2 --rate 0.01 --window 2 --quiet --no-db | head -1)
case $t in *"routing o1turn"*) ok ;; *) bad "xy_yx: header '$t'" ;; esac

# The run's params keep it.
$N load --size 4 --routing min-adaptive --rate 0.01 --window 2 --quiet --db r.db > /dev/null
check "stored" "$(sqlite3 r.db "select json_extract(params, '\$.routing') || ' ' || json_extract(params, '\$.selection') from runs")" "min-adaptive credits"

echo "routing_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
