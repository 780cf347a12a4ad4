#!/usr/bin/env bash
# Rectangular networks (--size WxH) in sim, stack, ga and replay: durations
# worked out by hand, a GA whose best replays to its recorded duration (from
# the database and from an exported file), squares kept apart from the
# rectangles of their width, and bad sizes refused (exit 2, one line).
set -u
N=${NOCSIM:-./nocsim}
source "$(dirname "$0")/testlib.bash"
in_scratch

dur() { "$N" sim "$@" --format csv | tail -1 | cut -d, -f8; }

# One 8-flit packet; node = y * W + x; an isolated packet of H hops takes
# H + 8 + 1 cycles.  On 4x2, node 3 is (3,0): the torus takes the wrap link
# (1 hop), the mesh goes 3 hops east.  Node 5 is (1,1): 1 hop east, then 1
# hop on the ring of 2 (a tie, taken without the wrap link) or the mesh.  On
# a 2x4 grid node 5 would be (1,2), 3 hops: the width comes first.
printf '0 3\n' > a.txt
printf '0 5\n' > b.txt
printf '0 23\n' > c.txt
check "4x2 torus, (0,0) to (3,0)" "$(dur --size 4x2 --traffic file:a.txt)" 10
check "4x2 mesh, (0,0) to (3,0)" "$(dur --size 4x2 --topology mesh --traffic file:a.txt)" 12
check "4x2 torus, (0,0) to (1,1)" "$(dur --size 4x2 --traffic file:b.txt)" 11
check "4x2 mesh, (0,0) to (1,1)" "$(dur --size 4x2 --topology mesh --traffic file:b.txt)" 11
# On 4x6 node 23 is (3,5): the mesh goes 3 + 5 hops (8 + 8 + 1 = 17; with
# 4-flit packets 13), the torus one wrap link in each dimension (2 hops, 11).
check "4x6 mesh, (0,0) to (3,5)" "$(dur --size 4x6 --topology mesh --traffic file:c.txt)" 17
check "4x6 mesh, 4 flits" "$(dur --size 4x6 --topology mesh --flits 4 --traffic file:c.txt)" 13
check "4x6 torus, (0,0) to (3,5)" "$(dur --size 4x6 --traffic file:c.txt)" 11
# An odd height is a mesh's: 4x3.
check "4x3 mesh, (0,0) to (1,1)" "$(dur --size 4x3 --topology mesh --traffic file:b.txt)" 11
# 16 and 16x16 are the same network.
check "16x16 is 16" "$($N sim --size 16x16 --traffic brev --slices 2 --format json)" \
      "$($N sim --size 16 --traffic brev --slices 2 --format json)"

# Outputs name the rectangle: CSV size WxH, JSON size (the width) and height.
c=$($N sim --size 8x4 --traffic torn --format csv | tail -1 | cut -d, -f1-2)
check "sim csv size" "$c" "torn,8x4"
j=$($N sim --size 8x4 --traffic torn --format json)
case $j in *'"size": 8,'*'"height": 4,'*) ok;; *) bad "sim json lacks size and height: $j";; esac
case $($N sim --size 8 --traffic torn --format json) in *height*) bad "a square's json has a height";; *) ok;; esac
case $($N sim --size 8x4 --traffic torn) in *"on a 8x4 torus"*) ok;; *) bad "sim text lacks 8x4";; esac
rows=$($N stack --size 8x4 --traffic torn --slices 2 --arb C00,C05 --interval 8:12 --format csv)
check "stack csv rows" "$(printf '%s\n' "$rows" | wc -l)" 11
check "stack csv size" "$(printf '%s\n' "$rows" | sed -n 2p | cut -d, -f2)" 8x4

# The GA on a rectangle: its best replays to its recorded duration, from the
# database and from an exported chromosome file (which says 'size 8x4').
$N ga --size 8x4 --traffic bcmp --slices 2 --evals 3000 --seed 3 --threads 1 --quiet --db r.db --format json > g.json \
  && ok || bad "ga on 8x4"
best=$(sed -E 's/.*"best_duration": ([0-9]+).*/\1/' g.json)
sig=$(sed -E 's/.*"signature": "([0-9a-f]+)".*/\1/' g.json)
floor=$(sed -E 's/.*"floor": ([0-9]+).*/\1/' g.json)
case $(cat g.json) in *'"height": 4'*) ok;; *) bad "ga json lacks the height";; esac
[ "$floor" -le "$best" ] && ok || bad "floor $floor above the best $best"
r=$($N replay --best 1 --db r.db --format json)
case $r in *"\"recorded_duration\": $best,"*"\"signature\": \"$sig\", \"duration\": $best,"*) ok;;
  *) bad "replay of the 8x4 best: $r (want duration $best, signature $sig)";; esac
$N export --best 1 --db r.db -o best.cfg && ok || bad "export of the 8x4 best"
grep -qx 'size 8x4' best.cfg && ok || bad "the exported file lacks 'size 8x4'"
grep -q -- '--size 8x4' best.cfg && ok || bad "the exported file's replay line lacks --size 8x4"
r=$($N replay --file best.cfg --size 8x4 --traffic bcmp --slices 2 --format json)
case $r in *"\"signature\": \"$sig\", \"duration\": $best,"*) ok;; *) bad "replay --file of the 8x4 best: $r";; esac
check "sim --config of the 8x4 best" "$(dur --size 8x4 --traffic bcmp --slices 2 --config best.cfg)" "$best"
expect_usage "a file for 8x4 on 4x8" "written for a 8x4 network" $N sim --size 4x8 --traffic bcmp --config best.cfg
expect_usage "a file for 8x4 on 8x8" "written for a 8x4 network" $N sim --size 8 --traffic bcmp --config best.cfg
# A mesh rectangle, too.
$N ga --size 8x4 --topology mesh --traffic shfl --slices 2 --evals 2000 --seed 3 --threads 1 --quiet --db r.db \
  --format json > m.json && ok || bad "ga on an 8x4 mesh"
best=$(sed -E 's/.*"best_duration": ([0-9]+).*/\1/' m.json)
r=$($N replay --best 2 --db r.db --format json)
case $r in *"\"recorded_duration\": $best,"*"\"duration\": $best,"*) ok;; *) bad "replay of the 8x4 mesh best: $r";; esac
# A run derived from a rectangle's (run 3, extrapolated to 4 slices) keeps
# its height in params, and its best replays to its recorded duration.
$N extrapolate --run 1 --slices 4 --db r.db > /dev/null && ok || bad "extrapolate of the 8x4 run"
case $($N db show 3 --db r.db --format json) in *'"method": "extrapolate"'*'"height": 4}'*) ok;;
  *) bad "the extrapolated run's params lack the height";; esac
r=$($N replay --best 3 --db r.db --format json)
case $r in *'"slices": 4,'*) ok;; *) bad "replay of the extrapolated run: $r";; esac
rec=$(printf '%s' "$r" | sed -E 's/.*"recorded_duration": ([0-9]+).*/\1/')
dur4=$(printf '%s' "$r" | sed -E 's/.*"duration": ([0-9]+).*/\1/')
check "extrapolated best replays to its duration" "$dur4" "$rec"
# db best keeps the 8x8 run of the same pattern apart from the 8x4 one.
$N ga --size 8 --traffic bcmp --slices 2 --generations 20 --threads 1 --quiet --db r.db > /dev/null || bad "ga on 8x8"
check "db best rows" "$($N db best --db r.db --format csv | tail -n +2 | wc -l)" 4

# Bad sizes: one line, exit 2, naming --size (and the allowed range).
for cmd in sim stack ga replay; do
  extra=; [ $cmd = replay ] && extra="--file best.cfg"
  expect_usage "$cmd 8x"    "'8x' is not N or WxH"   $N $cmd --size 8x $extra
  expect_usage "$cmd x8"    "'x8' is not N or WxH"   $N $cmd --size x8 $extra
  expect_usage "$cmd 8x4x2" "is not N or WxH"        $N $cmd --size 8x4x2 $extra
  expect_usage "$cmd 0x4"   "allowed: [2, 1024]"     $N $cmd --size 0x4 $extra
  expect_usage "$cmd 4x1"   "allowed: [2, 1024]"     $N $cmd --size 4x1 $extra
  expect_usage "$cmd 1"     "--size"                 $N $cmd --size 1 $extra
  expect_usage "$cmd 2000x4" "allowed: [2, 1024]"    $N $cmd --size 2000x4 $extra
done
expect_usage "odd width"      "the width must be even" $N sim --size 5x4 --traffic torn
expect_usage "width 2"        "the width must be even" $N sim --size 2x4 --traffic torn
expect_usage "odd torus side" "even on a torus"        $N sim --size 4x3 --traffic torn
expect_usage "ga odd width"   "the width must be even" $N ga --size 5x4 --traffic torn --no-db
expect_usage "bit pattern"    "power-of-two sides"     $N sim --size 6x4 --traffic brev
expect_usage "ga bit pattern" "power-of-two sides"     $N ga --size 8x6 --traffic shfl --no-db
expect_usage "stack trns"     "square grid"            $N stack --size 8x4 --traffic trns
expect_usage "file node"      "line 1"                 $N sim --size 4x2 --traffic file:c.txt

# --help of every command that takes it shows N|WxH.
for cmd in sim stack ga replay load; do
  $N $cmd --help | grep -q -- '--size N|WxH' && ok || bad "$cmd --help lacks --size N|WxH"
done

echo "rect_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
