#!/usr/bin/env bash
# Reproduce the paper's Table 4 (duration per method, 16x16 torus, 8-flit
# packets, two slices) in our model, for the six patterns, and write it
# beside the paper's figures.
#
#   scripts/table4.sh [--generations G (40)] [--pop P (20)] [--seed X] [--full] [--patterns "brev shfl"] [--db FILE]
#
# Every GA column is one run of `nocsim ga` (default search, seed X) at the
# given budget; --full uses the paper's 50 x 1,000.  The paper's columns are
# the best of 1,440 runs each, so ours (one run each) are a harder test.
# Output: data/table4.md (table) and data/table4.csv (raw), unless --out DIR.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
N=${NOCSIM:-$here/nocsim}
gens=40 pop=20 seed=1 out=$here/data db= patterns="bcmp brev brot shfl torn trns"
while [ $# -gt 0 ]; do
  case $1 in
    --generations) gens=$2; shift 2;;
    --pop) pop=$2; shift 2;;
    --seed) seed=$2; shift 2;;
    --full) gens=1000; pop=50; shift;;
    --patterns) patterns=$2; shift 2;;
    --db) db=$2; shift 2;;
    --out) out=$2; shift 2;;
    *) echo "table4.sh: unknown option $1" >&2; exit 2;;
  esac
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
[ -n "$db" ] || db=$tmp/table4.db
ga="$N ga --size 16 --db $db --quiet --format json --pop $pop --generations $gens --seed $seed"
field() { sed -n "s/.*\"$1\": \"\{0,1\}\([0-9.a-z-]*\).*/\1/p"; }
start=$(date +%s)

csv=$tmp/table4.csv
echo "traffic,S1,C00,simple,w_Tadj,fullGA,wo_Tadj,S1_S2,S2_S2,S4_S2,E2_S2,E4_S2,PS_C00_S1,PS_S1,PS_S2,PS_S4,pert_fullGA,pert_wo_Tadj" > "$csv"
for t in $patterns; do
  echo "== $t" >&2
  full=$($ga --traffic $t --slices 2)
  run_full=$(echo "$full" | field run)
  S1=$(echo "$full" | field nonsplit)
  simple=$(echo "$full" | field stacking)
  fullGA=$(echo "$full" | field best_duration)
  C00=$($ga --traffic $t --slices 2 --genes V,I --arb C00 | field best_duration)
  w=""
  for k in 0 1 2 3 4 5 6 7 8 9; do   # Table 3: timing adjustment per scheme, best of the row
    d=$($ga --traffic $t --slices 2 --genes V,I --arb C0$k | field best_duration)
    if [ -z "$w" ] || [ "$d" -lt "$w" ]; then w=$d; fi
  done
  wo=$($ga --traffic $t --slices 2 --genes V,C,Q | field best_duration)
  run_s1=$($ga --traffic $t --slices 1 | field run)
  run_s4=$($ga --traffic $t --slices 4 | field run)
  run_c00s1=$($ga --traffic $t --slices 1 --genes V,I --arb C00 | field run)
  ex() { $N extrapolate --db "$db" --run "$1" --slices 2 --format json | field best_duration; }
  ps() { $N post-stack --db "$db" --run "$1" --slices 2 --format json | field best_duration; }
  S1_S2=$(ex $run_s1); S2_S2=$(ex $run_full); S4_S2=$(ex $run_s4)
  est() { $ga --traffic $t --fitness estimate --estimate-slices "$1" | field run; }
  run_e2=$(est 2); run_e4=$(est 4)
  E2_S2=$($N extrapolate --db "$db" --run "$run_e2" --slices 2 --best-only --format json | field best_duration)
  E4_S2=$($N extrapolate --db "$db" --run "$run_e4" --slices 2 --best-only --format json | field best_duration)
  PS_C00=$(ps $run_c00s1); PS_S1=$(ps $run_s1); PS_S2=$(ps $run_full); PS_S4=$(ps $run_s4)
  pert_full=$($ga --traffic $t --slices 2 --perturb 5 | field best_duration)
  pert_wo=$($ga --traffic $t --slices 2 --perturb 5 --genes V,C,Q | field best_duration)
  echo "$t,$S1,$C00,$simple,$w,$fullGA,$wo,$S1_S2,$S2_S2,$S4_S2,$E2_S2,$E4_S2,$PS_C00,$PS_S1,$PS_S2,$PS_S4,$pert_full,$pert_wo" >> "$csv"
done
secs=$(( $(date +%s) - start ))
cp "$csv" "$out/table4.csv"

paper=$here/data/paper_table4_methods.csv
{
  echo "# Table 4 in our model: duration per method (cycles)"
  echo
  echo "16x16 torus, 8-flit packets, two slices; one \`nocsim ga\` run per GA cell (default search,"
  echo "population $pop, $gens generations, seed $seed); $secs s on $(nproc) cores. Each cell: ours / paper"
  echo "(difference). Paper: Yokota, Ootsu, Kojima, IEICE Trans. Inf. & Syst. E106-D(11), 2023, Table 4"
  echo "(\`data/paper_table4_methods.csv\`; its cells are the best of 1,440 GA runs, starred ones in parentheses there)."
  echo "Regenerate: \`scripts/table4.sh --generations $gens --pop $pop --seed $seed\`."
  echo
  awk -F, -v paper="$paper" '
    BEGIN { while ((getline l < paper) > 0) { if (l ~ /^#/) continue; n = split(l, f, ","); if (f[1] == "traffic") { for (k = 1; k <= n; k++) H[k] = f[k]; nc = n; continue } for (k = 2; k <= n; k++) { v = f[k]; sub(/\*/, "", v); P[f[1], k] = v } } }
    NR == 1 { printf "|"; for (k = 1; k <= nc; k++) printf " %s |", H[k]; printf "\n|"; for (k = 1; k <= nc; k++) printf "---|"; printf "\n"; next }
    { printf "| %s |", $1; for (k = 2; k <= NF; k++) { p = P[$1, k]; if ($k == "") printf " - |"; else { d = $k - p; printf " %s / %s (%+d) |", $k, p, d; s[k] += (d < 0 ? -d : d); c[k]++ } } printf "\n" }
    END { printf "| mean abs. diff. |"; for (k = 2; k <= nc; k++) printf " %.1f |", c[k] ? s[k] / c[k] : 0; printf "\n" }' "$csv"
} > "$out/table4.md"
echo "wrote $out/table4.md ($secs s)" >&2
