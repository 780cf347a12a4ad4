#!/usr/bin/env bash
# `nocsim sweep load` and its `nocsim db sweep` saturation table, from the
# outside, on a 2 x 2 x 3 grid (vcs x buffer x traffic) of short curves on a
# 4x4 mesh:
#  - the sweep records exactly one finished load curve per grid point and
#    pattern (12 runs, 12 distinct seeds), every one with its points and its
#    saturation point;
#  - each curve equals the same `nocsim load` run on its own with that seed
#    (same saturation rate and throughput, same points);
#  - db sweep's saturation per point, its means per parameter value and per
#    pattern agree with SQL over the curves' stored saturation values;
#  - bad input (an axis that is not a load flag, a flag the sweep sets, no
#    grid, an unknown pattern) is refused with exit 2 naming it, no database;
#  - a sweep SIGKILLed mid-way and resumed ends with every curve exactly once;
#  - under mpirun -np 3 (NOCSIM_MPI_BIN, when mpirun exists) the same curves,
#    and a SIGKILLed MPI sweep resumed.
set -u
N=${NOCSIM:-./nocsim}
M=${NOCSIM_MPI_BIN:-}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
in_scratch
export TMPDIR=$tmp

# Short points: a curve and its bisection take a few tenths of a second.
LOAD_OPTS="--size 4 --rates 0.1:1:0.1 --batch 300 --warmup 2:5 --window 4 --precision 0.02"
GRID=(--traffic uniform,transpose,bitcomp --axis 'vcs 1 2' --axis 'buffer 2 4')

q() { sqlite3 "$1" "$2"; }

# Exactly the expected curves: 12 finished load runs under sweep 1, 12
# distinct seeds, every (traffic, vcs, buffer) once, each with points and a
# saturation point; nothing else; no scratch folders.
check_runs() {
  local db=$1 label=$2
  check "$label: runs|seeds" "$(q "$db" "select count(*), count(distinct seed) from runs where parent = 1 and kind = 'load' and status = 'finished'")" "12|12"
  check "$label: grid points once" "$(q "$db" "select count(*) from (select traffic, json_extract(params,'$.vcs'),
         json_extract(params,'$.buffer'), count(*) c from runs where parent = 1 group by 1,2,3 having c = 1)")" 12
  check "$label: curves without points or saturation" "$(q "$db" "select count(*) from runs r where parent = 1 and
         (json_extract(params,'$.saturation.rate') is null or not exists (select 1 from load_points p where p.run = r.id))")" 0
  check "$label: other runs" "$(q "$db" "select count(*) from runs where kind != 'sweep' and (parent is null or parent != 1)")" 0
  ls -d "$tmp"/nocsim-sweep-* >/dev/null 2>&1 && bad "$label: scratch folders left behind" || ok
}

# Every curve of sweep 1 in $1 equals `nocsim load` run alone with its seed.
check_alone() {
  local db=$1 label=$2 n=0 same=0
  while IFS='|' read -r run traffic seed vcs buf; do
    n=$((n + 1))
    rm -f alone.db*
    $N load $LOAD_OPTS --vcs "$vcs" --buffer "$buf" --traffic "$traffic" --saturation --seed "$seed" \
       --threads 1 --quiet --db alone.db >/dev/null 2>&1
    local a b
    a=$(q "$db" "select json_extract(params,'$.saturation') from runs where id = $run"
        q "$db" "select group_concat(rate||':'||accepted||':'||latency) from load_points where run = $run")
    b=$(q alone.db "select json_extract(params,'$.saturation') from runs where id = 1"
        q alone.db "select group_concat(rate||':'||accepted||':'||latency) from load_points where run = 1")
    [ -n "$b" ] && [ "$a" = "$b" ] && same=$((same + 1)) || bad "$label: run $run (seed $seed) differs from load alone"
  done < <(q "$db" "select id, traffic, seed, json_extract(params,'$.vcs'), json_extract(params,'$.buffer')
                    from runs where parent = 1 order by id")
  check "$label: curves equal to load alone" "$same of $n" "12 of 12"
}

# --- a local sweep -------------------------------------------------------------
$N sweep load "${GRID[@]}" $LOAD_OPTS --jobs 2 --quiet --db s.db > out.txt 2> err.txt
rc=$?
check "local sweep exit ($(cat err.txt))" $rc 0
grep -q "sweep 1: 12 of 12 runs" out.txt && ok || bad "local sweep summary: $(cat out.txt)"
check "sweep record" "$(q s.db "select kind, status from runs where id = 1")" "sweep|finished"
check_runs s.db local
check_alone s.db local

# --- db sweep against SQL over the curves' stored saturation --------------------
$N db sweep 1 --db s.db --format csv > pts.csv
check "db sweep csv lines" "$(wc -l < pts.csv)" 13
check "db sweep csv header" "$(head -1 pts.csv)" "traffic,vcs,buffer,runs,saturation,saturation_rate,best_run"
want=$(q s.db "select traffic, json_extract(params,'$.vcs'), json_extract(params,'$.buffer'), 1,
               printf('%.6f', json_extract(params,'$.saturation.accepted')), printf('%.6f', json_extract(params,'$.saturation.rate')), id
               from runs where parent = 1" | tr '|' ',' | sort)
check "db sweep points = stored saturation" "$(tail -n +2 pts.csv | sort)" "$want"
# Means per parameter value and per pattern: SQL's averages, to 1e-6.
$N db sweep 1 --db s.db --format json > sum.json
q s.db "select traffic, 'vcs', json_extract(params,'$.vcs'), avg(json_extract(params,'$.saturation.accepted')) from runs where parent = 1 group by 1, 3
        union all
        select traffic, 'buffer', json_extract(params,'$.buffer'), avg(json_extract(params,'$.saturation.accepted')) from runs where parent = 1 group by 1, 3" > levels.sql
q s.db "select traffic, avg(json_extract(params,'$.saturation.accepted')), max(json_extract(params,'$.saturation.accepted'))
        from runs where parent = 1 group by 1" > patterns.sql
python3 - sum.json levels.sql patterns.sql <<'PY' && ok || bad "db sweep json means differ from SQL"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["sweep"]["command"] == "load" and d["sweep"]["done"] == 12 and d["sweep"]["total"] == 12, d["sweep"]
lv = {(l["traffic"], l["parameter"], l["value"]): l["saturation"] for l in d["levels"]}
rows = [r.split("|") for r in open(sys.argv[2]).read().split("\n") if r]
assert len(rows) == 12 and len(lv) == 12, (len(rows), len(lv))
for t, p, v, m in rows:
    assert abs(lv[(t, p, v)] - float(m)) < 1e-6, (t, p, v, lv[(t, p, v)], m)
pt = {p["traffic"]: p for p in d["patterns"]}
for t, mean, best in (r.split("|") for r in open(sys.argv[3]).read().split("\n") if r):
    assert abs(pt[t]["mean"] - float(mean)) < 1e-6 and abs(pt[t]["best"] - float(best)) < 1e-6, (t, pt[t], mean, best)
    # the parameter that mattered most: the larger spread of the two axes' level means
    sp = {a: max(lv[(t, a, v)] for v in vals) - min(lv[(t, a, v)] for v in vals)
          for a, vals in (("vcs", ("1", "2")), ("buffer", ("2", "4")))}
    top = max(sp, key=sp.get)
    assert pt[t]["most_influential"] == top and abs(pt[t]["spread"] - sp[top]) < 2e-6, (t, pt[t], sp)
PY
$N db sweep 1 --db s.db > sum.txt
grep -q "^load sweep 1 (finished): 12 of 12 curves" sum.txt && ok || bad "db sweep text header: $(head -1 sum.txt)"
best=$(q s.db "select printf('%.6f', max(json_extract(params,'$.saturation.accepted'))) from runs where parent = 1 and traffic = 'transpose'")
grep -Eq "^transpose +[0-9.]+ +$best " sum.txt && ok || bad "db sweep text: transpose's best is not $best"

# A one-flag axis takes each value whole: a packet mix, commas and all.
$N sweep load --traffic uniform --axis 'packet 8 1:0.5,8:0.5' $LOAD_OPTS --jobs 1 --quiet --db mix.db >/dev/null 2>err.txt
check "packet-mix axis ($(cat err.txt))" \
  "$(q mix.db "select group_concat(json_extract(params,'$.packet'), ' ') from (select * from runs where parent = 1 order by id)")" \
  "8 1:0.5,8:0.5"

# --- bad input: exit 2 naming the fault, nothing written ----------------------------
expect_usage "unknown load flag"  "--vcz"            $N sweep load --traffic uniform --axis 'vcz 1 2' $LOAD_OPTS --db bad.db
expect_usage "load value range"   "--vcs"            $N sweep load --traffic uniform --axis 'vcs 1 9' $LOAD_OPTS --db bad.db
expect_usage "axis the sweep's"   "'saturation' cannot be an axis" $N sweep load --traffic uniform --axis 'saturation 1' --db bad.db
expect_usage "seed axis"          "'seed' cannot be an axis"       $N sweep load --traffic uniform --axis 'seed 1 2' --db bad.db
expect_usage "no grid"            "needs its grid"   $N sweep load --traffic uniform $LOAD_OPTS --db bad.db
expect_usage "paper grid"         "GA's grid"        $N sweep load --traffic uniform --grid paper --db bad.db
expect_usage "slices"             "--slices"         $N sweep load --traffic uniform --axis 'vcs 1' --slices 2 --db bad.db
expect_usage "reserved flag"      "--saturation"     $N sweep load --traffic uniform --axis 'vcs 1' --saturation --db bad.db
expect_usage "threads"            "--threads"        $N sweep load --traffic uniform --axis 'vcs 1' --threads 2 --db bad.db
expect_usage "unknown pattern"    "nope"             $N sweep load --traffic uniform,nope --axis 'vcs 1' --db bad.db
expect_usage "axis and option"    "also an axis"     $N sweep load --traffic uniform --axis 'vcs 1 2' --vcs 2 --db bad.db
expect_usage "ga flag to load"    "--mutation"       $N sweep load --traffic uniform --axis 'vcs 1' --mutation 0.1 --db bad.db
[ ! -e bad.db ] && ok || bad "bad input created bad.db"

# --- SIGKILL mid-way, then --resume: every curve exactly once ---------------------
killed_resume() {
  local label=$1 db=$2; shift 2
  local runner=("$@")
  "${runner[@]}" sweep load "${GRID[@]}" $LOAD_OPTS --jobs 1 --quiet --db "$db" >/dev/null 2>&1 &
  pid=$!
  kill_sweep_midway $pid "$db" load 3 "$label"
  pid=
  local before; before=$(q "$db" "select count(*) from runs where kind = 'load'")
  [ "$before" -lt 12 ] && ok || bad "$label: the sweep finished ($before curves) before it was killed"
  check "$label: integrity" "$(q "$db" "pragma integrity_check")" ok
  "${runner[@]}" sweep --resume 1 --db "$db" --quiet >/dev/null 2>err.txt; local rc=$?
  check "$label: resume exit ($(cat err.txt))" $rc 0
  check "$label: sweep finished" "$(q "$db" "select status from runs where id = 1")" finished
  check_runs "$db" "$label"
  # The same curves as the uninterrupted sweep.
  check "$label: same curves as the local sweep" \
    "$(q "$db" "select group_concat(seed||':'||json_extract(params,'$.saturation.accepted')) from (select * from runs where parent = 1 order by seed)")" \
    "$(q s.db "select group_concat(seed||':'||json_extract(params,'$.saturation.accepted')) from (select * from runs where parent = 1 order by seed)")"
}
killed_resume "local kill" k.db $N

# --- under mpirun -np 3 ------------------------------------------------------------
if [ -n "$M" ] && command -v mpirun >/dev/null; then
  MPIRUN=(mpirun --allow-run-as-root --oversubscribe -np 3)
  "${MPIRUN[@]}" "$M" sweep load "${GRID[@]}" $LOAD_OPTS --quiet --db m.db >/dev/null 2>err.txt
  rc=$?
  check "mpi sweep exit ($(cat err.txt))" $rc 0
  check_runs m.db mpi
  check "mpi: same curves as the local sweep" \
    "$(q m.db "select group_concat(seed||':'||json_extract(params,'$.saturation')) from (select * from runs where parent = 1 order by seed)")" \
    "$(q s.db "select group_concat(seed||':'||json_extract(params,'$.saturation')) from (select * from runs where parent = 1 order by seed)")"
  check "mpi: db sweep = local db sweep" "$($N db sweep 1 --db m.db --format csv | cut -d, -f1-6)" "$(cut -d, -f1-6 pts.csv)"
  KILL_RANK=0 killed_resume "mpi rank-0 kill" mk0.db "${MPIRUN[@]}" "$M"
else
  echo "sweep_load.sh: MPI part skipped (set NOCSIM_MPI_BIN to a 'make MPI=1' build and install openmpi-bin)"
fi

echo "sweep_load.sh: $pass passed, $fail failed"
[ $fail -eq 0 ]
