#!/usr/bin/env bash
# Regenerates the example pictures of README's "Pictures" section (docs/*.png)
# with nocsim's own commands, the open-loop curves included.  Needs gnuplot
# (Debian gnuplot-nox).  About two minutes on two cores.
# Usage: scripts/pictures.sh [OUTDIR] (default docs); KEEP_DB=DIR (an existing
# folder) keeps the databases there, for reading the figures' numbers.
set -eu
N=${NOCSIM:-./nocsim}
out=${1:-docs}
mkdir -p "$out"
tmp=${KEEP_DB:-$(mktemp -d)}; [ -n "${KEEP_DB:-}" ] || trap 'rm -rf "$tmp"' EXIT

# Fig. 6: bit-complement, 16x16, four slices, simple stacking (C00) at the
# best interval of 8..60; the first quarter of the links (routers 0-63), 2x2.
v=$($N stack --traffic bcmp --slices 4 --arb C00 --interval 8:60 | awk '$1 == "C00" { print $2 }')
$N sim --traffic bcmp --slices 4 --interval "$v" --arb C00 --activity "$out/activity_bcmp.png" \
    --activity-links 0:255 --activity-scale 2 > /dev/null

# Fig. 3: bit-rotation, 16x16, two slices, every scheme over V = 8..200.
$N stack --traffic brot --slices 2 --interval 8:200 --format csv | $N plot stack - -o "$out/stack_brot.png" --size 760x480

# Fig. 4: the paper's GA on 8x8 bit-reversal, two seeds, 150 generations.
db=$tmp/runs.db
for seed in 1 2; do
  $N ga --db "$db" --traffic brev --size 8 --slices 2 --algo paper --pop 20 --generations 150 --watchdog 60 \
      --seed "$seed" > /dev/null
done
$N plot generations 1 2 --db "$db" -o "$out/generations.png" --size 760x480

# Fig. 5: 8x8 shuffle and bit-reversal, four settings x three seeds each.
for t in shfl brev; do
  for setting in "--pop 4 --max-genes 2" "--pop 4 --max-genes 8" "--pop 8 --max-genes 2" "--pop 8 --max-genes 8"; do
    for seed in 11 12 13; do
      # shellcheck disable=SC2086
      $N ga --db "$db" --traffic "$t" --size 8 --slices 2 --generations 60 $setting --seed "$seed" > /dev/null
    done
  done
done
$N plot runs --db "$db" -o "$out/runs.png" --size 560x480

# Open-loop curves (issue 37): the seven patterns on the 8x8 mesh (any-VC
# rule, 3 VCs x 4 flits, 8-flit packets), each to its first saturated rate
# with its saturation point by bisection, on a log y axis (their latencies
# span 12 to 400 cycles); and uniform traffic with 1, 2 and 4 VCs, whose key
# names the VCs alone, on the default linear axis.
ldb=$tmp/load.db
for t in uniform transpose bitcomp bitrev shuffle tornado neighbor; do
  $N load --db "$ldb" --topology mesh --size 8 --traffic "$t" --rates 0.02:1:0.02 --saturation --quiet > /dev/null
done
$N plot load 1 2 3 4 5 6 7 --db "$ldb" -o "$out/openloop_mesh8.png" --size 900x640 --logy
vdb=$tmp/vcs.db
for v in 1 2 4; do
  $N load --db "$vdb" --topology mesh --size 8 --traffic uniform --vcs "$v" --rates 0.02:1:0.02 --saturation \
      --quiet > /dev/null
done
$N plot load 1 2 3 --db "$vdb" -o "$out/openloop_vcs.png" --size 760x480
echo "pictures written to $out/"
