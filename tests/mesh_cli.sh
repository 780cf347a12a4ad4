#!/usr/bin/env bash
# Closed-loop commands on a mesh: sim, stack and ga take --topology mesh and
# --vc-rule; durations worked out by hand; bad combinations refused (exit 2).
set -u
N=${NOCSIM:-./nocsim}
source "$(dirname "$0")/testlib.bash"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# One packet from (0,0) to (3,0) on a 4x4 network: 1 hop on the torus (the
# wrap link), 3 on the mesh; duration H + L + 1.
printf '0 3\n' > "$tmp/one.txt"
d=$($N sim --size 4 --traffic "file:$tmp/one.txt" --format csv | tail -1 | cut -d, -f8)
check "torus duration" "$d" 10
d=$($N sim --topology mesh --size 4 --traffic "file:$tmp/one.txt" --format csv | tail -1 | cut -d, -f8)
check "mesh duration" "$d" 12
# Two packets into node 3 from nodes 0 and 2 (4 flits each, 4-flit FIFOs): on
# one VC the 1-hop packet holds node 2's E output first, the other ejects in
# cycle 9 (tests/test_olnet.c works it out), so the duration is 10.
printf '0 3\n2 3\n' > "$tmp/two.txt"
d=$($N sim --topology mesh --vc-rule dateline --size 4 --flits 4 --traffic "file:$tmp/two.txt" --format csv | tail -1 | cut -d, -f8)
check "mesh two packets, one VC" "$d" 10
# Under the any-VC rule with C01 the two interleave on node 2's E link and
# node 3 ejects A's tail in cycle 9 too; with --vcs 1 the any rule is the
# dateline rule.
d=$($N sim --topology mesh --size 4 --flits 4 --arb C01 --traffic "file:$tmp/two.txt" --format csv | tail -1 | cut -d, -f8)
check "mesh two packets, any VC, C01" "$d" 10
j=$($N sim --topology mesh --size 8 --traffic brev --format json)
case $j in *'"topology": "mesh", "vc_rule": "any"'*) ok;; *) bad "sim json lacks the topology: $j";; esac

# stack and ga on a mesh.
$N stack --topology mesh --size 8 --traffic brev --slices 2 --interval 8:40 --format csv > "$tmp/s.csv" && ok || bad "stack on a mesh"
check "stack rows" "$(($(wc -l < "$tmp/s.csv") > 30))" 1
$N ga --topology mesh --size 8 --traffic brev --slices 2 --evals 500 --db "$tmp/g.db" --quiet > /dev/null && ok || bad "ga on a mesh"
check "ga records the topology" "$(sqlite3 "$tmp/g.db" "SELECT json_extract(params, '$.topology') || ' ' || json_extract(params, '$.vc_rule') FROM runs")" "mesh any"
# The checkpoint carries the topology: a replay of the run's best gives the
# run's duration (on the torus the same genes give another).
best=$(sqlite3 "$tmp/g.db" "SELECT best_duration FROM runs WHERE id = 1")
r=$($N replay --best 1 --db "$tmp/g.db" --format csv | tail -1)
case ",$r," in *",$best,"*) ok;; *) bad "replay of a mesh run: '$r' lacks the run's duration $best";; esac

# Text outputs name the mesh, and so does a saved chromosome's header.
$N stack --topology mesh --size 4 --traffic brev --interval 8:12 | head -1 | grep -q "4x4 mesh" && ok || bad "stack text says torus"
$N ga --topology mesh --size 4 --traffic brev --generations 3 --no-db --save-best "$tmp/m.chrom" --quiet > /dev/null
sed -n 2p "$tmp/m.chrom" | grep -q "4x4 mesh" && ok || bad "chromosome header: $(sed -n 2p "$tmp/m.chrom")"
$N replay --file "$tmp/m.chrom" --topology mesh --traffic brev --size 4 | head -1 | grep -q "4x4 mesh" && ok || bad "replay text says torus"
# db best keeps the mesh's best apart from the torus's of the same traffic and size.
$N ga --size 8 --traffic brev --slices 2 --evals 500 --db "$tmp/g.db" --quiet > /dev/null
check "db best: one row per network" "$($N db best --db "$tmp/g.db" --format csv | tail -n +2 | wc -l)" 2

# Refused.
err=$($N sim --vc-rule any 2>&1 >/dev/null); rc=$?
check "any-VC torus status" "$rc" 2
case $err in *"only on a mesh"*) ok;; *) bad "any-VC torus message: $err";; esac
$N sim --topology mesh --vcs 1 --size 4 > /dev/null && ok || bad "a 1-VC mesh refused"
err=$($N sim --vcs 2 2>&1 >/dev/null); rc=$?
check "2-VC torus status" "$rc" 2
err=$($N sim --topology ring 2>&1 >/dev/null); rc=$?
check "bad topology status" "$rc" 2

echo "mesh_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
