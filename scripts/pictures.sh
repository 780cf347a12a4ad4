#!/usr/bin/env bash
# Regenerates the example pictures of README's "Pictures" section (docs/*.png)
# with nocsim's own commands.  Needs gnuplot (Debian gnuplot-nox).  About a
# minute on two cores.  Usage: scripts/pictures.sh [OUTDIR] (default docs).
set -eu
N=${NOCSIM:-./nocsim}
out=${1:-docs}
mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

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
echo "pictures written to $out/"
