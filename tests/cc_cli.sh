#!/usr/bin/env bash
# CLI-level tests of `nocsim cc`: exit codes, one-line errors, run -> --out -> verify.
set -u
N=${NOCSIM:-./nocsim}
fail=0 checks=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect() {  # want-status description command...
  local want=$1 what=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?
  checks=$((checks + 1))
  if [ "$got" != "$want" ]; then echo "FAIL: $what: exit $got, want $want"; cat "$tmp/err"; fail=1; failed=$((failed + 1)); fi
}
expect 0 "help" "$N" cc --help
expect 2 "missing --cc" "$N" cc --topology octagon
grep -q -- "--cc" "$tmp/err" || { echo "FAIL: missing --cc message"; fail=1; }
expect 2 "bad --cc" "$N" cc --topology octagon --cc xyz
[ "$(wc -l <"$tmp/err")" = 1 ] || { echo "FAIL: error is not one line"; fail=1; }
expect 2 "bad topology" "$N" cc --topology mesh:0x3 --cc oab
expect 2 "bad root" "$N" cc --topology octagon --cc oab --root 99
expect 2 "bad fault" "$N" cc --topology octagon --cc oab --fail-link 0-2
expect 2 "disconnecting faults" "$N" cc --topology ring:4 --cc aas --fail-link 0-1 --fail-link 2-3
expect 2 "unknown option" "$N" cc --topology octagon --cc oab --bogus
expect 0 "bounds" "$N" cc bounds --topology mesh:4x4 --cc aas
grep -q "lower bound: 16" "$tmp/out" || { echo "FAIL: mesh AAS bound"; fail=1; }
expect 0 "run octagon oas" "$N" cc --topology octagon --cc oas --out "$tmp/s.json"
expect 0 "verify own schedule" "$N" cc verify "$tmp/s.json" --topology octagon --cc oas --steps 3
expect 0 "verify reads the problem from the file" "$N" cc verify "$tmp/s.json"
expect 2 "verify: a flag disagreeing with the file" "$N" cc verify "$tmp/s.json" --topology octagon --cc oas --fail-link 0-4
grep -q "disagree" "$tmp/err" || { echo "FAIL: disagreement message"; fail=1; }
expect 2 "verify: --root disagreeing with the file" "$N" cc verify "$tmp/s.json" --root 3
# the same schedule with the link 0-4 failed in its own problem: rejected without flags
sed 's/"links": \[\]/"links": [["0", "4"]]/' "$tmp/s.json" >"$tmp/f.json"
expect 1 "verify: a schedule over a failed link of its file" "$N" cc verify "$tmp/f.json"
grep -q "no working channel 0->4" "$tmp/out" || { echo "FAIL: failed link not named"; fail=1; }
sed 's/"step": 1,/"step": 0,/' "$tmp/s.json" >"$tmp/bad.json"
sed 's/"ports": "all"/"ports": 3/' "$tmp/bad.json" >"$tmp/bad3.json"
expect 1 "verify port/conflict" "$N" cc verify "$tmp/bad3.json"
printf '{"schedule": [\n  {"step": 0 "transfers": []}]}\n' >"$tmp/broken.json"
expect 2 "verify unparsable" "$N" cc verify "$tmp/broken.json" --topology octagon --cc oas
grep -q "line 2" "$tmp/err" || { echo "FAIL: parse error does not name the line"; fail=1; }
expect 0 "json runs" "$N" cc --topology hypercube:3 --cc oab --runs 3 --format json
grep -q '"success_rate": 1.0[,}]' "$tmp/out" || { echo "FAIL: success rate"; fail=1; }
expect 0 "save to a database" "$N" cc --topology octagon --cc oab --db "$tmp/cc.db"
if command -v sqlite3 >/dev/null; then
  [ "$(sqlite3 "$tmp/cc.db" 'select steps from cc_schedules')" = 2 ] || { echo "FAIL: --db schedule row"; fail=1; }
fi

# ---- issue 14: hand-made invalid schedules, each rejected from the file alone ----
mk() {  # name cc extra-fields transfers-json
  printf '{"topology": "hypercube:3", "faults": {"links": [], "nodes": []}, "cc": "%s", "switching": "wh", "ports": "all", "nonminimal": 0%s,\n "schedule": [%s]}\n' "$2" "$3" "$4" >"$tmp/$1.json"
}
# OAB from 0 in 2 steps, valid: 0->1,2,4 then 1->3, 2->6, 4->5, 0-4-6-7
good='{"step": 0, "transfers": [{"msg": "0", "path": ["0","1"]}, {"msg": "0", "path": ["0","2"]}, {"msg": "0", "path": ["0","4"]}]},
 {"step": 1, "transfers": [{"msg": "0", "path": ["1","3"]}, {"msg": "0", "path": ["2","6"]}, {"msg": "0", "path": ["4","5"]}, {"msg": "0", "path": ["0","4","6","7"]}]}'
mk good oab ', "root": "0"' "$good"
expect 0 "hand-made valid OAB" "$N" cc verify "$tmp/good.json"
mk wrongroot oab ', "root": "1"' "$good"
expect 1 "wrong root (the file's root is 1)" "$N" cc verify "$tmp/wrongroot.json"
mk revisit oab ', "root": "0"' "${good/\"0\",\"4\",\"6\",\"7\"/\"0\",\"1\",\"0\",\"4\",\"6\",\"7\"}"
expect 1 "non-simple path 0-1-0-4-6-7" "$N" cc verify "$tmp/revisit.json"
grep -q "non-simple" "$tmp/out" || { echo "FAIL: non-simple path not named"; fail=1; }
mk back oab ', "root": "0"' "$good"', {"step": 2, "transfers": [{"msg": "0", "path": ["1","0"]}]}'
expect 1 "broadcast transfer back to its origin" "$N" cc verify "$tmp/back.json"
grep -q "back to 0" "$tmp/out" || { echo "FAIL: return to sender not named"; fail=1; }
mk long oab ', "root": "0"' "${good/\"0\",\"4\",\"6\",\"7\"/\"0\",\"1\",\"5\",\"4\",\"6\",\"7\"}"
expect 1 "path longer than the routing model" "$N" cc verify "$tmp/long.json"
grep -q "too long" "$tmp/out" || { echo "FAIL: long path not named"; fail=1; }
sed 's/"nonminimal": 0/"nonminimal": 2/' "$tmp/long.json" >"$tmp/long2.json"
expect 0 "the same path within --nonminimal 2" "$N" cc verify "$tmp/long2.json"

# ---- issue 10: sizes, files, output, the database ----
expect 2 "ring:2000 AAB refused before work" "$N" cc bounds --cc aab --topology ring:2000
grep -q "limit 1024 MB" "$tmp/err" || { echo "FAIL: ring:2000 message lacks the limit"; cat "$tmp/err"; fail=1; }
expect 2 "kautz:9,6 refused (590,490 nodes)" "$N" cc bounds --cc aab --topology kautz:9,6
grep -q "590490 nodes, limit 4096" "$tmp/err" || { echo "FAIL: kautz:9,6 message"; cat "$tmp/err"; fail=1; }
expect 2 "bad topology lists every form" "$N" cc bounds --cc aab --topology blob
grep -q "kautz:D,K or file:PATH)" "$tmp/err" || { echo "FAIL: --topology list cut"; cat "$tmp/err"; fail=1; }
{ printf '#%0600d x y\n' 0; printf 'a b\nb c\nc a\n'; } >"$tmp/long_comment.txt"
expect 0 "a long comment line stays a comment" "$N" cc bounds --cc aab --topology "file:$tmp/long_comment.txt"
grep -q ": 3 nodes" "$tmp/out" || { echo "FAIL: long comment parsed as a link"; head -1 "$tmp/out"; fail=1; }
printf 'a b\nb c\0 x\nc a\n' >"$tmp/nul.txt"
expect 2 "NUL byte in a topology file" "$N" cc bounds --cc aab --topology "file:$tmp/nul.txt"
grep -q "nul.txt:2: NUL" "$tmp/err" || { echo "FAIL: NUL message"; cat "$tmp/err"; fail=1; }
printf 'a-1 b-2\nb-2 c\nc a-1\nc d\nd a-1\n' >"$tmp/dash.txt"
expect 0 "--fail-link with '-' in node names" "$N" cc bounds --cc aab --topology "file:$tmp/dash.txt" --fail-link a-1-b-2
grep -q "failed link a-1-b-2" "$tmp/out" || { echo "FAIL: dashed link"; fail=1; }
expect 1 "cc output to a full device" sh -c "\"$N\" cc --topology octagon --cc oab >/dev/full"
expect 1 "cc bounds output to a full device" sh -c "\"$N\" cc bounds --topology octagon --cc oab >/dev/full"
expect 1 "cc --help to a full device" sh -c "\"$N\" cc --help >/dev/full"
x100=$(printf 'x%.0s' $(seq 1 100))
odd="$tmp/it's \"odd\"/$x100/$x100/$x100/$x100/k.txt"
mkdir -p "$(dirname "$odd")"
cp data/topologies/k_ring8.txt "$odd"
expect 0 "--db with a quote and 450 characters in the topology path" "$N" cc --topology "file:$odd" --cc oab --db "$tmp/q.db"
if command -v sqlite3 >/dev/null; then
  [ "$(sqlite3 "$tmp/q.db" "select json_valid(params) from runs")" = 1 ] &&
  [ "$(sqlite3 "$tmp/q.db" "select json_extract(params, '\$.topology') from runs")" = "file:$odd" ] \
    || { echo "FAIL: --db params not valid JSON with the path"; fail=1; }
fi
# Out of memory is a run-time failure (1), not bad input; not under ASan (its shadow memory needs the address space).
if ! grep -q __asan_init "$N" 2>/dev/null; then
  expect 1 "out of memory exits 1" sh -c "ulimit -v 120000; \"$N\" cc bounds --topology hypercube:11 --cc aas --max-paths 1"
  grep -q "out of memory" "$tmp/err" || { echo "FAIL: out-of-memory message"; fail=1; }
fi
expect 0 "--nonminimal 2: mesh OAS from an edge node in 5 steps" "$N" cc --topology mesh:4x4 --cc oas --root 01 --nonminimal 2 --steps 5 --out "$tmp/nm.json"
expect 0 "its file verifies from its own routing model" "$N" cc verify "$tmp/nm.json"
sed 's/"nonminimal": 2/"nonminimal": 0/' "$tmp/nm.json" >"$tmp/nm0.json"
expect 1 "and not under minimal routing" "$N" cc verify "$tmp/nm0.json"

# ---- issue 14: --exact and --algo hgsa from the command line ----
expect 0 "--exact proves octagon AAS 4" "$N" cc --topology octagon --cc aas --exact
grep -q "SAT solver proved 3 steps impossible" "$tmp/out" || { echo "FAIL: --exact proof line"; fail=1; }
grep -q "optimal over these routes (SAT)" "$tmp/out" || { echo "FAIL: --exact status beside the schedule"; fail=1; }
expect 0 "--exact in JSON" "$N" cc --topology hypercube:3 --cc aas --exact --format json
grep -q '"exact": {"status": "optimal"' "$tmp/out" || { echo "FAIL: --exact JSON status"; fail=1; }
expect 0 "--exact finds what a tiny search misses" "$N" cc --topology octagon --cc aas --steps 4 --budget 1 --exact
grep -q "best: 4 steps" "$tmp/out" || { echo "FAIL: --exact did not supply the schedule"; fail=1; }
expect 0 "--algo hgsa with threads" "$N" cc --topology hypercube:3 --cc aas --algo hgsa --threads 2 --steps 4
grep -q "algorithm hgsa" "$tmp/out" || { echo "FAIL: hgsa not named"; fail=1; }
expect 2 "--nonminimal over its limit" "$N" cc --topology octagon --cc aas --nonminimal 9
expect 2 "--threads 0" "$N" cc --topology octagon --cc aas --threads 0

# ---- --cycles: the flit-level replay (ccsim/replay.h) ----
# good.json by hand, m = 8: step 1 three one-hop packets (8 cycles), step 2 a
# 3-hop packet (3 + 8 - 1 = 10): 18.  Overlapped: the one-hop packets of
# step 2 wait for their message (cycle 8), 0-4-6-7 for channel 0->4 (free
# from 8): 18.  Model: 2 x 3 + 8 x 1 = 14 (t_s = the longest path, 3).
expect 0 "cycles of a hand-made OAB" "$N" cc cycles "$tmp/good.json" --flits 8 --format csv
[ "$(tail -1 "$tmp/out")" = "8,2,3,18,18,0,14,3,1" ] || { echo "FAIL: cycles row: $(tail -1 "$tmp/out")"; fail=1; }
expect 0 "cycles with --ts" "$N" cc cycles "$tmp/good.json" --ts 5
grep -q "= 2 x 5 + 8 x 1 = 18 cycles (t_s = 5, given" "$tmp/out" || { echo "FAIL: --ts model line"; fail=1; }
grep -q "steps one after another  18 cycles" "$tmp/out" || { echo "FAIL: cycles text"; fail=1; }
expect 1 "cycles of an invalid schedule" "$N" cc cycles "$tmp/wrongroot.json"
grep -q "not a valid schedule" "$tmp/err" || { echo "FAIL: invalid schedule not named"; fail=1; }
expect 2 "cycles without a file" "$N" cc cycles
expect 2 "--flits 0" "$N" cc cycles "$tmp/good.json" --flits 0
expect 0 "search with --cycles" "$N" cc --topology hypercube:3 --cc oab --cycles --flits 4
grep -q "step model (paper 000)" "$tmp/out" || { echo "FAIL: --cycles text"; fail=1; }
expect 0 "search with --cycles, JSON" "$N" cc --topology hypercube:3 --cc oab --cycles --format json
grep -q '"cycles": {"flits": 8, "steps": 2' "$tmp/out" || { echo "FAIL: --cycles JSON"; fail=1; }
expect 2 "--cycles of a store-and-forward schedule" "$N" cc --topology hypercube:3 --cc oab --switching sf --cycles
expect 2 "--cycles with --format csv" "$N" cc --topology hypercube:3 --cc oab --cycles --format csv

# ---- one-port AAB of the 4x4 mesh: 15 steps (paper 000), the pipelined ring ----
expect 0 "one-port AAB mesh 4x4" "$N" cc --topology mesh:4x4 --cc aab --ports 1
grep -q "found 15 steps (pipelined ring)" "$tmp/out" || { echo "FAIL: one-port AAB 15 by the ring"; fail=1; }
expect 1 "--ring 0: a tiny search does not find 15" "$N" cc --topology mesh:4x4 --cc aab --ports 1 --ring 0 --steps 15 --budget 1
expect 2 "--ring 2" "$N" cc --topology mesh:4x4 --cc aab --ring 2

# Counts the exit-status checks; a failed content check above also fails the script.
echo "cc_cli: $((checks - failed)) passed, $failed failed"
exit $fail
