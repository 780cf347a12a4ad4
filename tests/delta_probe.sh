#!/usr/bin/env bash
# sim/delta's probe (issue 38's ceiling, data/delta_ceiling.md) on a short
# default GA run: bench/delta_ceiling records every 7th job of 3,000
# simulations, then runs each child as the GA did and side by side with its
# parent.  The side-by-side child must give every packet the GA's tail cycle
# (inexact 0) and the GA's duration, every router that joins a cone must come
# in over a link the edge check flagged or next to the cone, and the job set
# must hold enough simulated children to mean something.  Then the delta
# runs of sim/delta_run.h (measure --product) on the same jobs: every
# parent's and every child's results as closedloop_run's, and every
# accepted child's patched record as its own fresh record; enough children
# on their cone and accepted that this means something.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
in_scratch
D=$(dirname "$N")/bench/delta_ceiling
[ -x "$D" ] || { bad "no $D (make builds it with the tests)"; echo "delta_probe: $pass passed, $fail failed"; exit 1; }
"$D" record jobs --every 7 --evals 3000 > rec.txt 2>&1 && ok || bad "record: $(tail -1 rec.txt)"
"$D" measure jobs > m.txt 2>&1 && ok || bad "measure: $(tail -1 m.txt)"
line=$(grep '^| all simulated' m.txt)
sims=$(echo "$line" | awk -F'|' '{gsub(/ /, "", $3); print $3}')
inexact=$(echo "$line" | awk -F'|' '{gsub(/ /, "", $(NF-1)); print $(NF-1)}')
[ "${sims:-0}" -ge 100 ] && ok || bad "simulated jobs: got '${sims:-}', want at least 100"
check "children inexact side by side" "$inexact" 0
check "runs unlike the GA's" "$(grep -c 'runs unlike the GA.s 0$' m.txt)" 1
check "routers joining unseen by the edge check" "$(grep -c 'routers joining unseen by it 0 ' m.txt)" 1
check "routers joining the release-aware cone alone" "$(grep -c 'with no neighbour in it 0$' m.txt)" 1
"$D" measure jobs --product > p.txt 2>&1 && ok || bad "measure --product: $(tail -1 p.txt)"
pline=$(grep '^jobs ' p.txt)
field() { echo "$pline" | sed -E "s/.*$1 ([0-9]+).*/\1/"; }
check "delta: parents unlike closedloop_run" "$(field 'parents unlike')" 0
check "delta: children unlike closedloop_run" "$(field 'inexact')" 0
check "delta: patched records unlike the child's own" "$(field 'patched records unlike')" 0
check "delta: children gone on to the whole network unlike closedloop_run" "$(field 'unlike')" 0
[ "$(field 'children on their cone')" -ge 60 ] && ok || bad "children on their cone: $(field 'children on their cone'), want at least 60"
[ "$(field 'accepted')" -ge 30 ] && ok || bad "accepted: $(field 'accepted'), want at least 30"
echo "delta_probe: $pass passed, $fail failed"
[ $fail -eq 0 ]
