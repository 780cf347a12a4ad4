#!/usr/bin/env bash
# Regenerate the paper's Table 2 (simple stacking: 16x16 torus, two 8-flit
# slices, best duration over the interval 8..200, per pattern and scheme) in
# our model, and write it beside the paper's figures with the difference per
# cell.  Extra arguments are passed to `nocsim stack` (e.g. a model choice:
# scripts/table2.sh --slot-reuse same-cycle).
#
#   scripts/table2.sh [nocsim stack options] > data/table2.md
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
N=${NOCSIM:-$here/nocsim}
paper=$here/data/paper_table2_simple_stacking.csv
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
for t in bcmp brev brot shfl torn trns; do
  "$N" stack --traffic "$t" --slices 2 --arb all --interval 8:200 --format csv "$@" | tail -n +2 >> "$tmp"
done
echo "# Table 2 in our model: simple stacking, best duration over V = 8..200"
echo
echo "16x16 torus, two 8-flit slices, \`nocsim stack\`$( [ $# -gt 0 ] && printf ' %s' "$@")."
echo "Each cell: ours / paper (difference). Paper: Yokota, Ootsu, Kojima, IEICE Trans. Inf. & Syst."
echo "E106-D(11), 2023, Table 2 (\`data/paper_table2_simple_stacking.csv\`)."
echo
awk -F, -v paper="$paper" '
  BEGIN {
    while ((getline line < paper) > 0) {
      if (line ~ /^#/ || line ~ /^traffic/) continue
      n = split(line, f, ",")
      for (k = 2; k <= n; k++) P[f[1], k - 2] = f[k]
    }
  }
  { key = $1 SUBSEP $4; if ($6 >= 0 && (!(key in best) || $6 < best[key])) best[key] = $6 }
  END {
    printf "| traffic |"; for (k = 0; k < 10; k++) printf " C%02d |", k; printf " row MAE | row MAE %% |\n"
    printf "|---|"; for (k = 0; k < 10; k++) printf "---|"; printf "---|---|\n"
    split("bcmp brev brot shfl torn trns", T, " ")
    for (r = 1; r <= 6; r++) {
      t = T[r]; s = 0; sp = 0
      printf "| %s |", t
      for (k = 0; k < 10; k++) {
        o = best[t, sprintf("C%02d", k)]; p = P[t, k]; d = o - p
        printf " %d / %d (%+d) |", o, p, d
        s += (d < 0 ? -d : d); sp += (d < 0 ? -d : d) / p
        tot += (d < 0 ? -d : d); totp += (d < 0 ? -d : d) / p; cells++
      }
      printf " %.1f | %.1f %% |\n", s / 10, 100 * sp / 10
    }
    printf "\nMean absolute difference over %d cells: %.2f cycles (%.1f %%).\n", cells, tot / cells, 100 * totp / cells
  }' "$tmp"
