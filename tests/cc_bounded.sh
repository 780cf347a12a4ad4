#!/usr/bin/env bash
# A long cc run is bounded and shows itself (issue 26 §3), from the outside:
# - SIGINT and SIGTERM end a cc search (mesh:16x16 OAB with --nonminimal 8,
#   which runs for minutes) within 1.5 s: 130 / 143 and one line naming the
#   signal (before: SIGINT was ignored in a background job, the search ran on);
# - a run past a second prints a progress line on stderr, at most one a
#   second, naming the target (4 steps: the inform bound of OAB from a corner
#   of the 16x16 mesh, 1 + 4 -> 5 -> 25 -> 125 -> 625 >= 256 nodes), and
#   --quiet silences it;
# - one-to-all on a 4,096-node star (a file generated here) answers in a
#   few seconds of CPU time: OAB and OAS from the centre in 1 step, the centre's 4,095
#   channels one each (before: over 100 s enumerating the routes of all
#   16.8M pairs, scanning the centre's 4,095 outputs for each).
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
in_scratch

LONG=(cc --topology mesh:16x16 --cc oab --nonminimal 8)

# ---- stop signals ------------------------------------------------------------------
stop_after 1.5 INT 130 "cc SIGINT in the search" $N "${LONG[@]}"
check "cc SIGINT: the message" "$(tail -n 1 err.txt)" "nocsim cc: stopped by SIGINT (no schedule was written)"
stop_after 1.5 TERM 143 "cc SIGTERM in the search" $N "${LONG[@]}" --out s.json
check "cc SIGTERM: the message" "$(tail -n 1 err.txt)" "nocsim cc: stopped by SIGTERM (no schedule was written)"
[ ! -e s.json ] && ok || bad "a stopped cc wrote its --out"

# ---- the progress line ------------------------------------------------------------------
# Wait for the first line (building the routes takes seconds under a
# sanitizer on a slow machine, so no fixed delay is safe), let it run three
# seconds more, stop it: after the first, at most one line a second.
$N "${LONG[@]}" >/dev/null 2>err.txt & pid=$!
for _ in $(seq 1 600); do grep -q '^run seed' err.txt && break; sleep 0.1; done
t0=$(date +%s%N)
sleep 3
kill -TERM $pid; wait $pid; rc=$?; pid=
window_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "cc with progress: exit" $rc 143
lines=$(grep -c '^run seed 1  target 4 steps  evals [0-9]*/100000  [0-9]* evals/s  [0-9]*s$' err.txt)
most=$(( 2 + window_ms / 1000 ))
[ "$lines" -ge 1 ] && [ "$lines" -le "$most" ] && ok ||
  bad "progress: $lines lines, want 1..$most (the first, then one a second for $window_ms ms): $(cat err.txt)"
check "progress: nothing else but the stop line" "$(grep -vc '^run seed' err.txt)" 1
# the evaluations only grow
sed -n 's/.*evals \([0-9]*\)\/.*/\1/p' err.txt | sort -nc 2>/dev/null && ok || bad "progress: evaluations not increasing: $(cat err.txt)"
stop_after 2.5 TERM 143 "cc --quiet" $N "${LONG[@]}" -q
check "cc --quiet: no progress line" "$(grep -c '^run seed' err.txt)" 0
# a short run shows none
$N cc --topology mesh:4x4 --cc oab >/dev/null 2>err.txt; check "a short run: exit" $? 0
check "a short run: stderr" "$(cat err.txt)" ""

# ---- one-to-all on a 4,096-node star -------------------------------------------------------------
{ echo "node c"; for i in $(seq 1 4095); do echo "c l$i"; done; } > star.txt
slow=1; case $N in *build-asan*) slow=3;; esac
for kind in oab oas; do
  # The 6 s are the run's CPU time (user + system; it runs one thread), not
  # the wall clock, which a test running beside it (make check runs them in
  # parallel) or a busy machine stretches: under ASan beside two busy
  # threads the wall clock took 8.2 s for 4.1 s of CPU.  The wall clock is
  # still bounded: timeout ends a run past 15 s (exit 124).
  # (Issue 35: at 42 % of the CPU the star run hit the 15 s timeout: the
  # wall limit is now wide, and both limits grow for the ASan build.)
  cpu=$( { TIMEFORMAT='%3U %3S'; time timeout $((60 * slow)) $N cc --topology file:star.txt --cc $kind --root c > out.txt 2>err.txt; } 2>&1 ); rc=$?
  read -r user sys <<< "$cpu"
  ms=$(( 10#${user/./} + 10#${sys/./} ))
  check "star $kind: exit ($(head -c 300 err.txt))" $rc 0
  [ $ms -lt $((6000 * slow)) ] && ok || bad "star $kind: took $ms ms of CPU time"
  check "star $kind: the result" "$(grep -c '^best: 1 steps (bound 1, run 1), verified' out.txt)" 1
  # step 0 holds the 4,095 one-hop transfers c-l1 .. c-l4095
  check "star $kind: transfers" "$(sed -n 's/^step 0: //p' out.txt | tr ' ' '\n' | grep -c '^c-l[0-9]*$')" 4095
done

echo "cc_bounded: $pass passed, $fail failed"
[ $fail -eq 0 ]
