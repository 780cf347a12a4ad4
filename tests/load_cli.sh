#!/usr/bin/env bash
# CLI contract of `nocsim load`: bad input answered by one line naming the
# flag and exit 2 before any work; the three output formats; a signal stops
# a curve with 130 after printing the points already finished.
set -u
N=${NOCSIM:-./nocsim}
source "$(dirname "$0")/testlib.bash"
# Every run below records into the scratch folder's nocsim.db (the default).
in_scratch

expect_usage "rate 0"            "(0, 1]"                    $N load --rate 0
expect_usage "rate above 1"      "(0, 1]"                    $N load --rate 1.5
expect_usage "descending range"  "descending"                $N load --rates 0.5:0.2:0.1
expect_usage "empty range"       "A:B:STEP"                  $N load --rates ""
expect_usage "range without step" "A:B:STEP"                 $N load --rates 0.1:0.2
expect_usage "hotspot node"      "node 2 of the list"        $N load --hotspot 3,64:0.2
expect_usage "hotspot fraction"  "(0, 1]"                    $N load --hotspot 3:1.5
expect_usage "packet mix sum"    "sum to 0.9"                $N load --packet 1:0.5,8:0.4
expect_usage "packet length"     "--packet"                  $N load --packet 300
expect_usage "power of two"      "power-of-two"              $N load --traffic bitrev --size 6
expect_usage "transpose square"  "square grid"               $N load --traffic transpose --size 8x4
expect_usage "size below 2"      "--size"                    $N load --size 1
expect_usage "size too large"    "--size"                    $N load --size 2000x2000
expect_usage "size syntax"       "WxH"                       $N load --size x8
expect_usage "odd torus"         "even sides"                $N load --topology torus --size 7
# --per-flow reaches the verdict (issue 36: parsed and ignored survived): on
# the 8x8 torus, transpose at its bound 1/4 passes the network-wide rules and
# fails the per-flow one (the last CSV column says why a point saturated).
PF="--topology torus --size 8 --traffic transpose --rate 0.25 --no-db --quiet --threads 1 --format csv"
check "torus transpose at its bound" "$($N load $PF | tail -n 1 | awk -F, '{print $NF}')" no
check "torus transpose at its bound, --per-flow" "$($N load $PF --per-flow | tail -n 1 | awk -F, '{print $NF}')" flow
# Odd square meshes run with every closed-loop pattern, randperm and a file
# (issue 35: 'torus size 5: must be even' on a mesh); only a torus needs even
# sides, and no message about a mesh speaks of a torus.  One packet 0 -> 4 on
# a 5 x 5 mesh crosses the row: 4 hops (1 on a torus of that width).
printf '0 4\n' > one5.tr
for t in randperm torn file:one5.tr; do
  for s in 5 3; do
    $N load --size $s --topology mesh --traffic $t --rates 0.01:0.01:0.01 --no-db --quiet >/dev/null 2>err.txt \
      && ok || bad "load --size $s --topology mesh --traffic $t: $(cat err.txt)"
  done
done
j=$($N load --size 5 --topology mesh --traffic file:one5.tr --rates 0.01:0.01:0.01 --no-db --quiet --format json)
check "one packet across a 5 x 5 mesh: hops" "$(printf '%s' "$j" | python3 -c 'import json, sys; print(json.load(sys.stdin)["points"][0]["hops"])')" 4.0
expect_usage "bit pattern on a 6 x 6 mesh" "traffic brev needs a power-of-two grid side, not 6" $N load --traffic brev --size 6
expect_usage "odd torus, closed-loop pattern" "size 5x5: a torus needs even sides" $N load --topology torus --size 5 --traffic torn
expect_usage "any-VC torus"      "only on a mesh"            $N load --topology torus --vc-rule any
expect_usage "torus 2 VCs"       "at least 3"                $N load --topology torus --vcs 2
expect_usage "unknown traffic"   "unknown traffic 'foo'"     $N load --traffic foo
expect_usage "bad process"       "bernoulli periodic"        $N load --process poisson
expect_usage "unknown option"    "unknown option"            $N load --bogus
expect_usage "db and no-db"      "contradict each other"     $N load --db x.db --no-db --rate 0.1

# Outputs.  A 4x4 mesh's neighbor pattern at 0.001: every packet alone, so
# the mean latency is the analytic H + L + 1 (mean hops: 3 nodes a row move
# 1 in X, one moves 3 back: 1.5 per dimension, so 3 + 8 + 1 = 12); sources
# have 2 to 6 hops, so the mean of the ~400 packets of 200,000 cycles is
# within about 0.2 of it.
j=$($N load --size 4 --traffic neighbor --rate 0.001 --window 200 --format json --quiet)
check "json zero load" "$(printf '%s' "$j" | python3 -c 'import json,sys; print(json.load(sys.stdin)["zero_load"])')" "12.0"
lat=$(printf '%s' "$j" | python3 -c 'import json,sys; print(abs(json.load(sys.stdin)["points"][0]["latency"] - 12) < 0.25)')
check "measured zero load" "$lat" "True"
c=$($N load --size 4 --rates 0.1:0.3:0.1 --format csv --quiet)
check "csv rows" "$(printf '%s\n' "$c" | wc -l)" "4"
check "csv header" "$(printf '%s\n' "$c" | head -1 | cut -d, -f1-6)" "topology,size,traffic,zero_load,bound,rate"
t=$($N load --size 4 --rates 0.1:0.3:0.1 --quiet)
check "text rows" "$(printf '%s\n' "$t" | grep -c '^ *0\.[123]00 ')" "3"
# The curve stops after its first saturated point unless --all.
c=$($N load --size 4 --traffic transpose --rates 0.1:1:0.1 --format csv --quiet)
last=$(printf '%s\n' "$c" | tail -1 | cut -d, -f22)
[ "$last" != no ] && ok || bad "last row of a stopped curve is not saturated: $last"
check "stopped early" "$(($(printf '%s\n' "$c" | wc -l) < 11))" 1
c=$($N load --size 4 --traffic transpose --rates 0.1:1:0.1 --all --format csv --quiet)
check "--all rows" "$(printf '%s\n' "$c" | wc -l)" 11
# Threads do not change a curve.
a=$($N load --size 4 --rates 0.1:0.5:0.1 --threads 1 --format csv --quiet)
b=$($N load --size 4 --rates 0.1:0.5:0.1 --threads 3 --format csv --quiet)
check "threads" "$a" "$b"

# The database: one run of kind load per curve, one row per point.
check "runs recorded" "$(sqlite3 nocsim.db "SELECT COUNT(*) FROM runs WHERE kind = 'load' AND status = 'finished'")" 7
check "points of the --all curve" "$(sqlite3 nocsim.db "SELECT COUNT(*) FROM load_points WHERE run = 5")" 10
check "point row" "$(sqlite3 nocsim.db "SELECT saturated > 0 FROM load_points WHERE run = 5 AND rate = 1.0")" 1
# nocsim plot load draws recorded curves; refuses what is not one.
if command -v gnuplot > /dev/null; then
  $N plot load 5 2 -o curves.png && check "plot load is a PNG" "$(head -c 4 curves.png | tail -c 3)" PNG || bad "plot load failed"
fi
expect_usage "plot load missing run" "run 99 does not exist"  $N plot load 99 -o x.png
sqlite3 nocsim.db "INSERT INTO runs (uuid, kind, started) VALUES ('0123456789abcdef0123456789abcdef', 'ga', 'now')"
expect_usage "plot load of a ga run" "not an open-loop curve"  $N plot load 8 -o x.png
[ ! -e x.png ] && ok || bad "a refused plot left a file"
rm -f nocsim.db
$N load --size 4 --rates 0.1:0.2:0.1 --no-db --quiet > /dev/null
[ ! -e nocsim.db ] && ok || bad "--no-db wrote a database"
expect_usage "db not ours"       "not a nocsim database"     $N load --db /etc/passwd

# A point's row is pinned for a seed.  The rows below came from the
# implementation before the Bernoulli calendar (commit a940722), which asked
# every sender every cycle: the calendar must draw the same random numbers in
# the same order (sender order within a cycle), and the fast path must move
# every flit as it did.
check "pinned row, 8-flit packets" \
  "$($N load --no-db --size 4x6 --rate 0.3 --seed 7 --batch 200 --window 3 --quiet --format csv | tail -n 1)" \
  "mesh,4x6,uniform,12.3333,0.6389,0.3,0.290000,0.291111,18.648,2.554,16.920,16,53,72,3.4368,522,522,1400,34,2034,1,no"
check "pinned row, a length mix" \
  "$($N load --no-db --size 4x6 --rate 0.3 --seed 7 --batch 200 --window 3 --packet 1:0.5,4:0.5 --quiet --format csv | tail -n 1)" \
  "mesh,4x6,uniform,6.8333,0.6389,0.3,0.306319,0.307014,10.361,1.862,9.793,9,29,41,3.3349,1717,1717,1200,25,1825,1,no"

# SIGINT: exit 130, the finished points printed and kept in the database,
# the run left unfinished, one message.
$N load --size 32 --rates 0.01:1:0.01 --all --threads 1 --format csv --quiet --db int.db > "$tmp/out" 2> "$tmp/err" &
pid=$!
for _ in $(seq 50); do [ -s "$tmp/out" ] || [ "$(wc -l < "$tmp/err")" -gt 0 ] && break; sleep 0.1; done
sleep 1
kill -INT $pid
wait $pid
check "sigint status" "$?" 130
grep -q "stopped by a signal" "$tmp/err" && ok || bad "no stop message: $(cat "$tmp/err")"
check "one message" "$(wc -l < "$tmp/err")" 1
printed=$(($(wc -l < "$tmp/out") - 1))
[ "$printed" -ge 1 ] && ok || bad "no finished point printed"
check "points kept" "$(sqlite3 int.db 'SELECT COUNT(*) FROM load_points')" "$printed"
check "run unfinished" "$(sqlite3 int.db 'SELECT status FROM runs')" unfinished

# What is stored is what is printed (issue 35): with two threads the point
# past the first saturated one may finish before it; it is not part of the
# curve, printed or stored.
for k in 1 2 3; do
  rm -f thr.db
  printed=$($N load --size 8 --rates 0.05:0.9:0.05 --threads 2 --batch 200 --window 3 --warmup 1:3 --db thr.db \
    --format csv --quiet | tail -n +2 | cut -d, -f6 | tr '\n' ' ')
  stored=$(sqlite3 thr.db 'SELECT rate FROM load_points ORDER BY rate' | awk '{ printf "%.6g ", $1 }')
  check "--threads 2, try $k: stored = printed" "$stored" "$printed"
done

# --saturation (issue 35): CSV has the point (three columns on every row);
# when every rate saturates it says so (no "rate 0.0000 ... latency 0.00"
# as if measured); the result is kept in the run's params.
Q="--size 4 --threads 1 --batch 200 --window 3 --quiet"
csv=$($N load $Q --rates 0.3:0.9:0.3 --saturation --db sat.db --format csv)
check "--saturation csv: columns" "$(echo "$csv" | head -1 | cut -d, -f6-8)" \
  "saturation_rate,saturation_accepted,saturation_latency"
srate=$(echo "$csv" | sed -n 2p | cut -d, -f6)
awk -v r="$srate" 'BEGIN { exit !(r > 0.3 && r < 0.9) }' && ok || bad "--saturation csv: rate '$srate'"
check "--saturation stored" "$(sqlite3 sat.db "SELECT printf('%.6f', json_extract(params, '$.saturation.rate')) FROM runs")" "$srate"
out=$($N load $Q --rates 0.5:0.6:0.1 --latency-limit 5 --saturation --db sat.db)
case $out in *"saturation: none found: every rate tried saturates"*) ok;; *) bad "all saturated: $out";; esac
case $out in *"rate 0.0000"*) bad "all saturated prints rate 0: $out";; *) ok;; esac
check "all saturated: json" "$($N load $Q --rates 0.5:0.6:0.1 --latency-limit 5 --saturation --no-db --format json |
  python3 -c 'import json,sys; s=json.load(sys.stdin)["saturation"]; print(s["rate"], s["below"])')" "None 0.005"
check "all saturated: csv" "$($N load $Q --rates 0.5:0.6:0.1 --latency-limit 5 --saturation --no-db --format csv |
  sed -n 2p | cut -d, -f6-8)" ",,"
check "all saturated: stored" "$(sqlite3 sat.db "SELECT json_extract(params, '$.saturation.below') FROM runs WHERE id = 2")" 0.005

# One unit (issue 35): rate, offered, accepted and the bound per sending node.
# Transpose skips its 8 diagonal nodes of 64: at rate 0.1 a sending node
# offers about 0.1 (per network node it would be 0.0875).
j=$($N load --size 8 --traffic transpose --rate 0.1 --no-db --quiet --format json --threads 1)
check "transpose: offered and accepted per sending node" "$(echo "$j" | python3 -c '
import json,sys; j=json.load(sys.stdin); p=j["points"][0]
print(j["unit"], j["senders"], abs(p["offered"] - 0.1) < 0.005, abs(p["accepted"] - 0.1) < 0.005)')" \
  "flits/cycle per sending node 56 True True"
case $($N load --size 8 --traffic transpose --rate 0.1 --no-db --quiet --threads 1) in
  *"per sending node (56 of 64 nodes send)"*) ok;; *) bad "the text header does not name the unit";; esac

echo "load_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
