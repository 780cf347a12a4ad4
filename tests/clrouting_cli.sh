#!/usr/bin/env bash
# CLI contract of --routing / --selection in the closed-loop commands (sim,
# stack, ga, replay; docs/model.md [R-RF-*]): a function or combination the
# table refuses is refused with its reason and exit 2 before any work; the
# function is kept with a run (params, the GA's checkpoint) only when it is
# not dor, and a replay of a recorded chromosome runs it again; under dor
# the outputs are what they were (no routing member).
set -u
N=${NOCSIM:-./nocsim}
source "$(dirname "$0")/testlib.bash"
in_scratch

for c in sim stack "ga --no-db"; do
  expect_usage "$c: unknown function" "--routing: 'north-first' is not a routing function" $N $c --routing north-first
  expect_usage "$c: unknown rule"     "--selection: 'best' is not a selection rule"      $N $c --selection best
  expect_usage "$c: mesh-only on the torus" "routing west-first: only on a mesh"        $N $c --routing west-first
  expect_usage "$c: too few VCs"      "routing valiant: needs at least 2 VCs"            $N $c --routing valiant --topology mesh --vcs 1
done
expect_usage "dor: a torus needs 3 VCs" "--vcs 2" $N sim --vcs 2

# One packet from (0,0) to (3,3) on a 4x4 mesh (every other node addressed
# to itself): 6 hops, 8 flits, duration 6 + 8 + 1 = 15 under dor and yx;
# the busiest link carries the 8 flits.  dor's first link is 0's E, yx's 0's N.
printf '0 15\n' > one.txt
for r in dor yx; do
  j=$($N sim --size 4 --topology mesh --traffic file:one.txt --routing $r --format json)
  check "one packet under $r" "$(printf '%s' "$j" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["duration"], d["max_link_flits"], d.get("routing"))')" \
    "15 8 $([ $r = dor ] && echo None || echo $r)"
done
# dor2 runs a torus on 2 VCs (any VC of its class by default).
j=$($N sim --size 8 --vcs 2 --routing dor2 --format json)
check "dor2 on a 2-VC torus" "$(printf '%s' "$j" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["status"], d["routing"], d["vc_rule"], "selection" in d)')" "ok dor2 any False"
j=$($N sim --size 8 --topology mesh --routing odd-even --selection random --format json)
check "adaptive: its rule in the JSON" "$(printf '%s' "$j" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["status"], d["routing"], d["selection"])')" "ok odd-even random"
check "dor: no routing member" "$($N sim --format json | python3 -c 'import json,sys; d=json.load(sys.stdin); print("routing" in d, "selection" in d)')" "False False"
check "text names the function" "$($N sim --size 8 --topology mesh --routing min-adaptive --selection first | sed -n 2p)" \
  "routing         min-adaptive, selection first"
# An experiment file's routing_function (BookSim2's name) is taken too.
printf 'routing_function = xy_yx\ntopology = mesh\n' > o1.cfg
check "stack --config xy_yx" "$($N stack --config o1.cfg --size 8 --slices 2 --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["routing"])')" "o1turn"

# A GA run under valiant keeps the function with its params and checkpoint;
# replaying its best chromosome gives the recorded duration again, and the
# same chromosome under dor (from a file) another one.
$N ga --size 8 --topology mesh --traffic trns --routing valiant --slices 2 --seed 3 --generations 3 --db v.db \
  --save-best best.cfg --quiet > /dev/null
check "stored params" "$(sqlite3 v.db "select json_extract(params, '\$.routing') || ' ' || ifnull(json_extract(params, '\$.selection'), '-') from runs")" "valiant -"
j=$($N replay --db v.db --best 1 --format json)
check "replay: the recorded duration" "$(printf '%s' "$j" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["duration"] == d["recorded_duration"])')" "True"
dv=$(printf '%s' "$j" | python3 -c 'import json,sys; print(json.load(sys.stdin)["duration"])')
df=$($N replay --file best.cfg --size 8 --topology mesh --traffic trns --routing valiant --slices 2 --seed 3 --format json |
     python3 -c 'import json,sys; print(json.load(sys.stdin)["duration"])')
check "replay --file --routing valiant: the same run" "$df" "$dv"
dd=$($N replay --file best.cfg --size 8 --topology mesh --traffic trns --slices 2 --format json |
     python3 -c 'import json,sys; print(json.load(sys.stdin)["duration"])')
[ "$dd" != "$dv" ] && ok || bad "the chromosome under dor lasts $dd, as under valiant: was valiant run at all?"
expect_usage "replay --file: the table's refusal" "routing yx: only on a mesh" $N replay --file best.cfg --size 8 --routing yx
expect_usage "a recorded chromosome keeps its run's function" "--routing" $N replay --db v.db --best 1 --routing dor
# A dor run's params have no routing member (its records are as before).
$N ga --size 8 --traffic trns --slices 2 --generations 1 --db d.db --quiet > /dev/null
check "dor params" "$(sqlite3 d.db "select ifnull(json_extract(params, '\$.routing'), 'none') from runs")" "none"

echo "clrouting_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
