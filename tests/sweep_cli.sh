#!/usr/bin/env bash
# `nocsim sweep` and `nocsim db sweep` from the outside:
#  - a local sweep records exactly the expected runs (traffic x grid x
#    replicates, one per task seed), each equal to the same `nocsim ga` run
#    done on its own with that seed (same generation rows, same recorded
#    chromosomes);
#  - `db sweep` means and bests agree with SQL over the same runs;
#  - bad grids and flags are refused with exit 2 and no database;
#  - a sweep SIGKILLed mid-way and resumed ends with every run exactly once;
#  - the MPI build (NOCSIM_MPI_BIN, run under mpirun -np 3) gives the same
#    runs, and survives SIGKILL of a worker rank and of rank 0 with --resume;
#  - `ga --islands` on one rank equals the plain run; on three ranks rank 0
#    records one run whose best replays to its recorded duration.
set -u
N=${NOCSIM:-./nocsim}
M=${NOCSIM_MPI_BIN:-}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
tmp=$(mktemp -d); trap 'pkill -9 -P $$ 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp"
export TMPDIR=$tmp

cat > small.grid <<'G'
# two axes: 2 x 2 grid points
max-genes 2 8
watchdog,lifetime 0,0 0,30   # joint axis
G
GA_OPTS="--size 4 --generations 150"

q() { sqlite3 "$1" "$2"; }

# The chromosome and generation tables of run $2 in $1 without ids or times.
fingerprint() {
  $N db export "$2" --db "$1" --format csv --table chromosomes | cut -d, -f3- | tail -n +2
  $N db export "$2" --db "$1" --format csv --table generations | cut -d, -f1-4 | tail -n +2
}

# Every GA run of sweep $2 in $1 equals a serial `nocsim ga` with its seed.
check_serial() {
  local db=$1 sweep=$2 label=$3 n=0 same=0
  while IFS='|' read -r run traffic seed mg wd lt; do
    n=$((n + 1))
    rm -f serial.db*
    $N ga $GA_OPTS --traffic "$traffic" --slices 2 --max-genes "$mg" --watchdog "$wd" --lifetime "$lt" \
       --seed "$seed" --threads 1 --quiet --db serial.db >/dev/null 2>&1
    if [ "$(fingerprint "$db" "$run")" = "$(fingerprint serial.db 1)" ] && [ -n "$(fingerprint serial.db 1)" ]; then
      same=$((same + 1))
    else
      bad "$label: run $run (seed $seed) differs from the serial run"
    fi
  done < <(q "$db" "select id, traffic, seed, json_extract(params,'$.max_genes'), json_extract(params,'$.watchdog'),
                    json_extract(params,'$.lifetime') from runs where parent = $sweep and kind = 'ga' order by id")
  [ "$n" -eq 16 ] && [ "$same" -eq 16 ] && ok || bad "$label: $same of $n runs equal their serial runs (want 16)"
}

# Exactly the expected tasks: 16 finished GA runs, 16 distinct seeds, every
# (traffic, max_genes, watchdog, lifetime) point twice.
check_runs() {
  local db=$1 sweep=$2 label=$3
  local got; got=$(q "$db" "select count(*), count(distinct seed) from runs where parent = $sweep and kind = 'ga' and status = 'finished'")
  [ "$got" = "16|16" ] && ok || bad "$label: runs|seeds = $got, want 16|16"
  got=$(q "$db" "select count(*) from (select traffic, json_extract(params,'$.max_genes') m, json_extract(params,'$.watchdog') w,
                 json_extract(params,'$.lifetime') l, count(*) c from runs where parent = $sweep and kind = 'ga' group by 1,2,3,4 having c = 2)")
  [ "$got" = 8 ] && ok || bad "$label: $got grid points with two runs, want 8"
  got=$(q "$db" "select count(*) from runs where kind = 'ga' and (parent is null or parent != $sweep)")
  [ "$got" = 0 ] && ok || bad "$label: $got GA runs outside the sweep"
  ls -d "$tmp"/nocsim-sweep-* >/dev/null 2>&1 && bad "$label: scratch folders left behind" || ok
}

# --- a local sweep ----------------------------------------------------------
$N sweep --traffic brev,shfl --grid small.grid --runs 2 $GA_OPTS --jobs 2 --quiet --db s.db > out.txt 2> err.txt
rc=$?
[ $rc -eq 0 ] && ok || bad "local sweep: exit $rc ($(cat err.txt))"
grep -q "sweep 1: 16 of 16 runs" out.txt && ok || bad "local sweep summary: $(cat out.txt)"
[ "$(q s.db "select kind, status from runs where id = 1")" = "sweep|finished" ] && ok || bad "sweep record not finished"
check_runs s.db 1 local
check_serial s.db 1 local

# --- db sweep against SQL over the same runs ---------------------------------
$N db sweep 1 --db s.db --format csv > pts.csv
[ "$(wc -l < pts.csv)" -eq 9 ] && ok || bad "db sweep csv: $(wc -l < pts.csv) lines, want 9"
want=$(q s.db "select traffic, json_extract(params,'$.max_genes'), json_extract(params,'$.watchdog')||','||json_extract(params,'$.lifetime'),
               count(*), min(best_duration), printf('%.2f', avg(best_duration)) from runs where parent = 1 and kind = 'ga'
               group by 1,2,3 order by 1, cast(2 as int), 3" | tr '|' ',')
got=$(tail -n +2 pts.csv | sed 's/"//g' | awk -F, '{print $1","$2","$3","$4","$5","$6","$7}' | sort -t, -k1,1 -k2,2n -k3,3)
want=$(echo "$want" | sort -t, -k1,1 -k2,2n -k3,3)
[ "$got" = "$want" ] && ok || bad "db sweep points differ from SQL:
$got
---
$want"
$N db sweep 1 --db s.db --format json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["sweep"]["done"]==16 and len(d["points"])==8 and len(d["patterns"])==2' \
  && ok || bad "db sweep json"
best=$(q s.db "select min(best_duration) from runs where parent = 1 and traffic = 'shfl'")
$N db sweep 1 --db s.db | grep -Eq "^shfl +$best " && ok || bad "db sweep text: shfl best is not $best"
err=$($N db sweep 2 --db s.db 2>&1); rc=$?
[ $rc -eq 2 ] && case $err in *"not a sweep"*) true;; *) false;; esac && ok || bad "db sweep of a GA run: rc $rc '$err'"

# --- bad input: exit 2, nothing written ---------------------------------------
printf 'mutation 0.1\nmutation 0.2\n' > dup.grid
printf 'watchdog,lifetime 100\n' > tuple.grid
printf 'max-genes\n' > empty.grid
printf 'max-genes 2 0\n' > range.grid
expect_usage "flag twice"       "dup.grid: line 2"   $N sweep --traffic brev --grid dup.grid --db bad.db
expect_usage "tuple width"      "tuple.grid: line 1" $N sweep --traffic brev --grid tuple.grid --db bad.db
expect_usage "no values"        "has no values"      $N sweep --traffic brev --grid empty.grid --db bad.db
expect_usage "ga range"         "--max-genes"        $N sweep --traffic brev --grid range.grid --db bad.db
expect_usage "missing grid"     "nope.grid"          $N sweep --traffic brev --grid nope.grid --db bad.db
expect_usage "bad traffic"      "traffic"            $N sweep --traffic brev,nope --grid small.grid --db bad.db
expect_usage "empty traffic"    "empty pattern"      $N sweep --traffic brev,,shfl --db bad.db
expect_usage "reserved flag"    "--threads"          $N sweep --traffic brev --threads 4 --db bad.db
expect_usage "axis and option"  "also an axis"       $N sweep --traffic brev --grid small.grid --max-genes 3 --db bad.db
expect_usage "resume + spec"    "record"             $N sweep --resume 1 --traffic brev --db s.db
expect_usage "resume not sweep" "not a sweep"        $N sweep --resume 2 --db s.db
printf 'max-genes 2\n\000x 3\n' > nul.grid
expect_usage "NUL in grid"      "nul.grid, line 2"   $N sweep --traffic brev --grid nul.grid --db bad.db
[ ! -e bad.db ] && ok || bad "bad input created bad.db"
# The record is input too: a damaged spec is reported, nothing runs.
cp s.db d.db
q d.db "update runs set params = replace(params, 'runs 2', 'runs x') where id = 1"
err=$($N sweep --resume 1 --db d.db 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] && case $err in *"damaged"*"runs"*) true;; *) false;; esac && ok || bad "damaged sweep record: rc $rc '$err'"

# --- SIGKILL mid-way, then --resume: every run exactly once -------------------
killed_resume() {
  local label=$1 db=$2; shift 2
  local runner=("$@")
  "${runner[@]}" sweep --traffic brev,shfl --grid small.grid --runs 2 $GA_OPTS --size 8 --generations 60 --quiet --db "$db" >/dev/null 2>&1 &
  kill_sweep_midway $! "$db" ga 3 "$label"
  local before; before=$(q "$db" "select count(*) from runs where kind = 'ga'")
  [ "$before" -lt 16 ] && ok || bad "$label: the sweep finished ($before runs) before it was killed"
  [ "$(q "$db" "pragma integrity_check")" = ok ] && ok || bad "$label: integrity check"
  "${runner[@]}" sweep --resume 1 --db "$db" --quiet >/dev/null 2>err.txt; local rc=$?
  [ $rc -eq 0 ] && ok || bad "$label: resume exit $rc ($(cat err.txt))"
  local got; got=$(q "$db" "select count(*), count(distinct seed) from runs where parent = 1 and kind = 'ga'")
  [ "$got" = "16|16" ] && ok || bad "$label: after resume runs|seeds = $got, want 16|16"
  [ "$(q "$db" "select status from runs where id = 1")" = finished ] && ok || bad "$label: sweep not finished"
}
killed_resume "local kill" k.db $N

# --- the MPI build -------------------------------------------------------------
if [ -n "$M" ] && command -v mpirun >/dev/null; then
  MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np 3)
  MPIRUN1=(mpirun --allow-run-as-root --oversubscribe -np 1)
  "${MPIRUN[@]}" "$M" sweep --traffic brev,shfl --grid small.grid --runs 2 $GA_OPTS --quiet --db m.db >/dev/null 2>err.txt
  rc=$?
  [ $rc -eq 0 ] && ok || bad "mpi sweep: exit $rc ($(cat err.txt))"
  check_runs m.db 1 mpi
  check_serial m.db 1 mpi
  # Same seeds, same runs as the local sweep.
  [ "$(q m.db "select group_concat(seed||':'||best_duration) from (select seed, best_duration from runs where parent = 1 order by seed)")" = \
    "$(q s.db "select group_concat(seed||':'||best_duration) from (select seed, best_duration from runs where parent = 1 order by seed)")" ] \
    && ok || bad "mpi sweep differs from the local sweep"
  # Islands.
  ISL="--size 8 --traffic shfl --generations 120 --threads 1 --quiet --seed 3"
  "${MPIRUN1[@]}" "$M" ga --islands $ISL --db i1.db >/dev/null 2>err.txt || bad "islands -np 1: $(cat err.txt)"
  $N ga $ISL --db p1.db >/dev/null 2>&1
  [ "$(fingerprint i1.db 1)" = "$(fingerprint p1.db 1)" ] && ok || bad "islands on one rank differ from the plain run"
  "${MPIRUN[@]}" "$M" ga --islands --migrate-every 5 $ISL --db i3.db >/dev/null 2>err.txt || bad "islands -np 3: $(cat err.txt)"
  [ "$(q i3.db "select count(*), json_extract(params, '$.islands') from runs")" = "1|3" ] && ok || bad "islands -np 3: runs"
  rec=$(q i3.db "select best_duration from runs where id = 1")
  got=$($N replay --best 1 --db i3.db --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["duration"])' 2>/dev/null)
  [ -n "$rec" ] && [ "$got" = "$rec" ] && ok || bad "islands -np 3: best replays to '$got', recorded '$rec'"
  expect_usage_launched "islands resume" "cannot be resumed" "${MPIRUN1[@]}" "$M" ga --islands --resume 1 --db i3.db

  KILL_RANK=1 killed_resume "mpi worker kill" mk1.db "${MPIRUN[@]}" "$M"
  KILL_RANK=0 killed_resume "mpi rank-0 kill" mk0.db "${MPIRUN[@]}" "$M"
else
  echo "sweep_cli.sh: MPI part skipped (set NOCSIM_MPI_BIN to a 'make MPI=1' build and install openmpi-bin)"
fi

echo "sweep_cli.sh: $pass passed, $fail failed"
[ $fail -eq 0 ]
