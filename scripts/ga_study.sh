#!/usr/bin/env bash
# Which search should `nocsim ga` use by default?  Runs each variant on the
# six patterns with several seeds at a fixed simulation budget (every
# simulation counted: baselines, seeding, records) and tabulates the best
# duration relative to our simple-stacking optimum (as `nocsim stack` reports
# it): median and best over the seeds, simulations until the search matched
# simple stacking, and wall time.
#
#   scripts/ga_study.sh [--evals 50000] [--seeds "1 2 3 4 5"] [--patterns "..."] [--variants "a b"]
#                       [--jobs 1] [--threads 2] [--out DIR] [--append]
# --append adds rows to an existing data/ga_study.csv (e.g. other variants or
# seeds) and rebuilds the table from all of them; --table-only just rebuilds it.
# --jobs J runs J runs at once (each with --threads T); results do not depend
# on either, only the wall times do.  Variants whose name ends in a setting
# (-n8, -s3, -s4) run on an 8x8 torus or with 3 or 4 slices; they go to their
# own rows (--patterns randperm draws the permutation from the seed).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
N=${NOCSIM:-$here/nocsim}
evals=50000 seeds="1 2 3 4 5" patterns="bcmp brev brot shfl torn trns" out=$here/data only= append=0 table_only=0
jobs=1 threads=2
while [ $# -gt 0 ]; do
  case $1 in
    --evals) evals=$2; shift 2;;
    --seeds) seeds=$2; shift 2;;
    --patterns) patterns=$2; shift 2;;
    --variants) only=$2; shift 2;;
    --out) out=$2; shift 2;;
    --jobs) jobs=$2; shift 2;;
    --threads) threads=$2; shift 2;;
    --append) append=1; shift;;
    --table-only) table_only=1; shift;;
    *) echo "ga_study.sh: unknown option $1" >&2; exit 2;;
  esac
done
# name | flags (all runs: --size 16 --slices 2 --evals $evals; later flags win)
# v1 rows in data/ga_study.csv are the default before issue 16 (every scheme's
# stacking optimum seeded a lineage, duplicates included, no line shifts);
# today's binary no longer runs it.  v2 is the default of issue 16's first
# round (eight lineages with crossover, distinct optima seeded, late-lb,
# genes drawn uniformly, line shifts, every synonym recorded); its flags
# still run it (since proven repeats, with the children they prove not
# counted).  local is today's default (one lineage, one child a generation,
# proven repeats not simulated and not counted, ties by --sort-key tail);
# local-late3 the same with the previous key; local-allsim rows are the
# search with late3 before proven repeats, when every child was simulated
# and counted (the binary of commit 9d1ee77).  local-c2 is the late3 search
# with two children a generation (no proofs: every child simulated); rows
# of local-* probes other than these were run before proven repeats.  A
# variant's name may end in a setting (-n8, -s3, -s4).  local-tt is the
# default with --start timetable (issue 24).
v2="--pop 8 --generations 6250 --crossover-interval 10 --sort-key late-lb --weights genes --shift 0.3 --target 0 --record all"
variants=(
  "paper|--algo paper --mutation 0.05 --crossover-rate 0.4 --crossover-interval 10 --watchdog 200"
  "local|"
  "local-late3|--sort-key late3"
  "local-shift3|--shift 0.3 --sort-key late3"
  "local-notarget|--target 0 --sort-key late3"
  "local-late-lb|--sort-key late-lb"
  "local-w8|--target-window 8 --sort-key late3"
  "local-t6|--target 0.6 --sort-key late3"
  "local-wd3k|--watchdog 3000 --sort-key late3"
  "local-wd8k|--watchdog 8000 --sort-key late3"
  "local-n8|--size 8"
  "local-s3|--slices 3"
  "local-s4|--slices 4"
  "local-tt|--start timetable"
  "local-tt-n8|--start timetable --size 8"
  "local-tt-s3|--start timetable --slices 3"
  "local-tt-s4|--start timetable --slices 4"
  "local-c2|--children 2 --sort-key late3"
  "local-c2-n8|--children 2 --sort-key late3 --size 8"
  "local-c2-s3|--children 2 --sort-key late3 --slices 3"
  "local-c2-s4|--children 2 --sort-key late3 --slices 4"
  "v2|$v2"
  "v2-n8|$v2 --size 8"
  "v2-s3|$v2 --slices 3"
  "v2-s4|$v2 --slices 4"
)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
raw=$out/ga_study.csv
[ $table_only = 1 ] && variants=()
[ $append = 1 ] || [ $table_only = 1 ] && [ -s "$raw" ] || echo "variant,traffic,seed,best,stacking,ratio,evals_to_stacking,seconds,floor" > "$raw"
# One line per run: its order, the variant's name and flags, pattern, seed.
n=0
for v in "${variants[@]}"; do
  name=${v%%|*} flags=${v#*|}
  if [ -n "$only" ]; then case " $only " in *" $name "*) ;; *) continue;; esac; fi
  for t in $patterns; do
    for s in $seeds; do n=$((n + 1)); printf '%05d|%s|%s|%s|%s\n' $n "$name" "$flags" "$t" "$s"; done
  done
done > "$tmp/runs"
one_run() {
  IFS='|' read -r k name flags t s <<<"$1"
  db=$tmp/$k.db
  field() { sed -n "s/.*\"$1\": \"\{0,1\}\([0-9.a-z-]*\).*/\1/p"; }
  j=$($N ga --size 16 --slices 2 --traffic "$t" --seed "$s" --generations 100000000 --evals "$evals" --threads "$threads" \
        $flags --db "$db" --quiet --format json) || { echo "ga_study.sh: run $name $t $s failed" >&2; return 1; }
  run=$(echo "$j" | field run); best=$(echo "$j" | field best_duration); st=$(echo "$j" | field stacking)
  secs=$(echo "$j" | field seconds); fl=$(echo "$j" | field floor)
  reach=$(sqlite3 "$db" "select coalesce(min(evaluations), '') from generations where run = $run and best <= $st")
  ratio=$(awk -v b="$best" -v s="$st" 'BEGIN { printf "%.3f", b / s }')
  echo "$name,$t,$s,$best,$st,$ratio,$reach,$secs,$fl" > "$tmp/$k.row"
  echo "$name,$t,$s,$best,$st,$ratio,$reach,$secs,$fl" >&2
}
export -f one_run; export N evals threads tmp
xargs -a "$tmp/runs" -d '\n' -P "$jobs" -I{} bash -c 'one_run "$1"' _ {} || exit 1
for f in "$tmp"/*.row; do [ -e "$f" ] && cat "$f"; done >> "$raw"
# The table goes between the markers of data/ga_study.md (the notes around it stay).
{
  echo "<!-- table: written by scripts/ga_study.sh -->"
  echo "Budget $evals simulations per run (all counted, proven repeats being no simulations; runs may exceed it by the records of their last generation)."
  echo "Cell: median (best) of best duration / simple stacking over the seeds run (the raw rows say which);"
  echo "then the median best duration against the median floor (no schedule can be shorter; README, \"The GA\") and the seeds run,"
  echo "the median simulations until the search matched simple stacking, and the median wall time."
  echo "Raw rows: \`data/ga_study.csv\`. Add rows: \`scripts/ga_study.sh --variants NAME --seeds \"...\" --append\`."
  echo
  awk -F, '
    NR == 1 { next }
    { k = $1 SUBSEP $2; n[k]++; r[k, n[k]] = $6; d[k, n[k]] = $4; e[k, n[k]] = ($7 == "" ? 1e18 : $7); w[k, n[k]] = $8
      f[k, n[k]] = ($9 == "" ? 0 : $9); seen[$2] = 1; if (!($1 in order)) { order[$1] = ++nv; names[nv] = $1 } }
    function median(arr, k, cnt,   i, j, t, a) { for (i = 1; i <= cnt; i++) a[i] = arr[k, i]; for (i = 2; i <= cnt; i++) for (j = i; j > 1 && a[j] < a[j-1]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t } return cnt % 2 ? a[(cnt+1)/2] : (a[cnt/2] + a[cnt/2+1]) / 2 }
    END {
      np = 0; split("bcmp brev brot shfl torn trns randperm", all, " ")
      for (i = 1; i <= 7; i++) if (all[i] in seen) P[++np] = all[i]
      printf "| variant |"; for (p = 1; p <= np; p++) printf " %s |", P[p]; printf "\n|---|"; for (p = 1; p <= np; p++) printf "---|"; printf "\n"
      for (i = 1; i <= nv; i++) {
        v = names[i]; printf "| %s |", v
        for (p = 1; p <= np; p++) { k = v SUBSEP P[p]; if (!n[k]) { printf " - |"; continue }
          b = 9; for (j = 1; j <= n[k]; j++) if (r[k, j] < b) b = r[k, j]
          me = median(e, k, n[k])
          printf " %.3f (%.3f)<br>%s / floor %s, %d seed%s<br>%s, %.0f s |", median(r, k, n[k]), b, median(d, k, n[k]), median(f, k, n[k]),
                 n[k], (n[k] > 1 ? "s" : ""), (me >= 1e18 ? "never matched" : sprintf("%d sims", me)), median(w, k, n[k]) }
        printf "\n" } }' "$raw"
  echo "<!-- /table -->"
} > "$tmp/table"
md=$out/ga_study.md
if [ -s "$md" ] && grep -q '^<!-- table' "$md" && grep -q '^<!-- /table -->' "$md"; then
  awk -v tf="$tmp/table" '/^<!-- table/ { while ((getline l < tf) > 0) print l; skip = 1; next } /^<!-- \/table -->/ { skip = 0; next } !skip' "$md" > "$tmp/md"
else
  { echo "# GA study: best duration / simple stacking"; echo; cat "$tmp/table"; } > "$tmp/md"
fi
cp "$tmp/md" "$md"
echo "wrote $md" >&2
