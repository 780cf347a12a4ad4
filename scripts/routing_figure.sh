#!/usr/bin/env bash
# Regenerate docs/routing_transpose.png: latency against offered load on the
# 8x8 mesh under transpose traffic for every routing function, each curve
# from 0.01 in steps of 0.01 to its first saturated rate (4 VCs, 4-flit
# FIFOs, 8-flit packets, the credits selection).  Needs gnuplot.
#   NOCSIM=path   the binary (default ./nocsim);  SEED=s (default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${NOCSIM:-./nocsim}
SEED=${SEED:-1}
command -v gnuplot >/dev/null || { echo "routing_figure.sh: gnuplot is needed" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
plots=""
for r in dor yx o1turn romm valiant west-first north-last negative-first odd-even min-adaptive; do
  "$N" load --size 8 --topology mesh --vcs 4 --routing "$r" --traffic transpose --rates 0.01:1:0.01 \
    --seed "$SEED" --no-db --quiet --format csv > "$tmp/$r.csv"
  # offered (column 7) and latency (column 9), the header row dropped.
  awk -F, 'NR > 1 { print $7 "," $9 }' "$tmp/$r.csv" > "$tmp/$r.dat"
  plots="$plots${plots:+, }'$tmp/$r.dat' using 1:2 with linespoints title '$r'"
done
gnuplot <<GP
set terminal pngcairo size 900,600 noenhanced
set datafile separator ','
set output 'docs/routing_transpose.png'
set title "nocsim load: 8x8 mesh, transpose, 4 VCs x 4 flits, 8-flit packets, seed $SEED"
set xlabel 'offered load (flits/cycle per sending node)'
set ylabel 'average packet latency (cycles)'
set yrange [0:200]
set key top left
set grid
plot $plots
GP
echo "docs/routing_transpose.png written"
