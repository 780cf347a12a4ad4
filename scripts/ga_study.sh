#!/usr/bin/env bash
# Which search should `nocsim ga` use by default?  Runs each variant on the
# six patterns with several seeds at a fixed simulation budget (every
# simulation counted: baselines, seeding, records) and tabulates the best
# duration relative to our simple-stacking optimum (as `nocsim stack` reports
# it): median and best over the seeds, simulations until the search matched
# simple stacking, and wall time.
#
#   scripts/ga_study.sh [--evals 50000] [--seeds "1 2 3 4 5"] [--patterns "..."] [--variants "a b"] [--out DIR] [--append]
# --append adds rows to an existing data/ga_study.csv (e.g. other variants or
# seeds) and rebuilds the table from all of them; --table-only just rebuilds it.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
N=${NOCSIM:-$here/nocsim}
evals=50000 seeds="1 2 3 4 5" patterns="bcmp brev brot shfl torn trns" out=$here/data only= append=0 table_only=0
while [ $# -gt 0 ]; do
  case $1 in
    --evals) evals=$2; shift 2;;
    --seeds) seeds=$2; shift 2;;
    --patterns) patterns=$2; shift 2;;
    --variants) only=$2; shift 2;;
    --out) out=$2; shift 2;;
    --append) append=1; shift;;
    --table-only) table_only=1; shift;;
    *) echo "ga_study.sh: unknown option $1" >&2; exit 2;;
  esac
done
# name | flags (all runs: --size 16 --slices 2 --evals $evals)
variants=(
  "paper|--algo paper --mutation 0.05 --crossover-rate 0.4 --crossover-interval 10 --watchdog 200"
  "local|"
  "local-lb|--sort-key lb"
  "local-none|--sort-key none"
  "local-p50|--pop 50 --generations 1000"
  "local-p16|--pop 16"
  "local-g4|--max-genes 4"
  "local-nox|--crossover-interval 0"
)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
db=$tmp/study.db
field() { sed -n "s/.*\"$1\": \"\{0,1\}\([0-9.a-z-]*\).*/\1/p"; }
raw=$out/ga_study.csv
[ $table_only = 1 ] && variants=()
[ $append = 1 ] || [ $table_only = 1 ] && [ -s "$raw" ] || echo "variant,traffic,seed,best,stacking,ratio,evals_to_stacking,seconds" > "$raw"
for v in "${variants[@]}"; do
  name=${v%%|*} flags=${v#*|}
  if [ -n "$only" ]; then case " $only " in *" $name "*) ;; *) continue;; esac; fi
  for t in $patterns; do
    for s in $seeds; do
      j=$($N ga --size 16 --slices 2 --traffic "$t" --seed "$s" --generations 100000000 --evals "$evals" $flags \
            --db "$db" --quiet --format json)
      run=$(echo "$j" | field run); best=$(echo "$j" | field best_duration); st=$(echo "$j" | field stacking)
      secs=$(echo "$j" | field seconds)
      reach=$(sqlite3 "$db" "select coalesce(min(evaluations), '') from generations where run = $run and best <= $st")
      ratio=$(awk -v b="$best" -v s="$st" 'BEGIN { printf "%.3f", b / s }')
      echo "$name,$t,$s,$best,$st,$ratio,$reach,$secs" | tee -a "$raw" >&2
    done
  done
done
{
  echo "# GA study: best duration / simple stacking, 16x16 torus, two 8-flit slices"
  echo
  echo "Budget $evals simulations per run (all counted; runs may exceed it by the records of their last generation)."
  echo "Cell: median (best) of the ratio over the seeds run (see the raw rows for which);"
  echo "below it the median simulations until the search matched simple stacking and the median wall time."
  echo "Raw rows: \`data/ga_study.csv\`. Regenerate: \`scripts/ga_study.sh --evals $evals --variants NAME --seeds \"...\" --append\`."
  echo
  awk -F, -v pats="$patterns" '
    NR == 1 { next }
    { k = $1 SUBSEP $2; n[k]++; r[k, n[k]] = $6; e[k, n[k]] = ($7 == "" ? 1e18 : $7); w[k, n[k]] = $8; V[$1] = 1; if (!($1 in order)) { order[$1] = ++nv; names[nv] = $1 } }
    function median(arr, k, cnt,   i, j, t, a) { for (i = 1; i <= cnt; i++) a[i] = arr[k, i]; for (i = 2; i <= cnt; i++) for (j = i; j > 1 && a[j] < a[j-1]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } return cnt % 2 ? a[(cnt+1)/2] : (a[cnt/2] + a[cnt/2+1]) / 2 }
    END {
      np = split(pats, P, " ")
      printf "| variant |"; for (p = 1; p <= np; p++) printf " %s |", P[p]; printf "\n|---|"; for (p = 1; p <= np; p++) printf "---|"; printf "\n"
      for (i = 1; i <= nv; i++) {
        v = names[i]; printf "| %s |", v
        for (p = 1; p <= np; p++) { k = v SUBSEP P[p]; if (!n[k]) { printf " - |"; continue }
          b = 9; for (j = 1; j <= n[k]; j++) if (r[k, j] < b) b = r[k, j]
          me = median(e, k, n[k]); printf " %.3f (%.3f)<br>%s, %.0f s |", median(r, k, n[k]), b, (me >= 1e18 ? "never matched" : sprintf("%d sims", me)), median(w, k, n[k]) }
        printf "\n" } }' "$raw"
} > "$out/ga_study.md"
echo "wrote $out/ga_study.md" >&2
