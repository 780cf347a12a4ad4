#!/usr/bin/env bash
# `nocsim ga` from the outside: bad input refused with exit 2 and nothing
# written; a run SIGKILLed mid-way leaves a database that SQLite's integrity
# check accepts, marked unfinished, and --resume finishes it; a resumed run
# keeps its parameters (flags that would change them are refused) and its
# traffic; an unwritable --save-best is refused before the run; --start
# and --delta check their values (a resumed run takes --delta) and a
# timetable run records its rule.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
tmp=$(mktemp -d); trap 'kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
pid=

cd "$tmp"
expect_usage "pop range"        "--pop"            $N ga --pop 0
expect_usage "rate range"       "--crossover-rate" $N ga --crossover-rate 2
expect_usage "watchdog+life"    "exclude"          $N ga --watchdog 100 --lifetime 100
expect_usage "children range"   "--children"       $N ga --children 65
expect_usage "children+perturb" "--children 2 and --perturb 1 exclude" $N ga --children 2 --perturb 1
expect_usage "genes"            "not one of: V I C Q" $N ga --genes V,X
expect_usage "algo"             "local paper"      $N ga --algo magic
expect_usage "interval"         "packet length"    $N ga --interval 3
expect_usage "start"            "not one of: stacking timetable" $N ga --start bogus
expect_usage "delta"            "not one of: off on" $N ga --delta maybe
[ ! -e nocsim.db ] && ok || bad "bad input created nocsim.db"

# The timetable start (issue 24): the best is never worse than simple
# stacking, and the run records its start rule.
$N ga --start timetable --traffic bcmp --size 8 --slices 2 --evals 2000 --db tt.db --quiet > /dev/null && ok || bad "ga --start timetable"
row=$(sqlite3 tt.db "SELECT best_duration, json_extract(params, '$.start') FROM runs")
st=$($N stack --traffic bcmp --size 8 --slices 2 --format csv | awk -F, 'NR > 1 && ($6 < b || b == "") { b = $6 } END { print b }')
case "$row" in *"|timetable") [ "${row%%|*}" -le "$st" ] && ok || bad "timetable best ${row%%|*} above stacking $st";;
  *) bad "timetable run's row: '$row'";; esac

# A directory where the database should be: a wrong file given, exit 2 like every --db.
mkdir not-a-file.db
err=$($N ga --size 4 --generations 1 --db not-a-file.db 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && case $err in *not-a-file.db*) true;; *) false;; esac && ok || bad "unwritable db: rc $rc '$err'"

# Kill test.  The run is long enough that it is still going when killed.
db=$tmp/kill.db
$N ga --traffic brev --size 16 --slices 2 --pop 20 --stack-vmax 16 --evals 6000 --threads 2 --quiet --db "$db" >/dev/null 2>&1 &
pid=$!
gen=0
for _ in $(seq 1 500); do
  gen=$(sqlite3 "$db" "select coalesce(max(generation),0) from generations" 2>/dev/null || echo 0)
  [ "${gen:-0}" -ge 3 ] && break
  sleep 0.02
done
if kill -9 $pid 2>/dev/null; then
  wait $pid 2>/dev/null
  ic=$(sqlite3 "$db" "pragma integrity_check")
  [ "$ic" = ok ] && ok || bad "integrity_check after SIGKILL: $ic"
  st=$(sqlite3 "$db" "select status from runs where id = 1")
  [ "$st" = unfinished ] && ok || bad "status after SIGKILL: $st"
  out=$($N ga --db "$db" --resume 1 --quiet 2>&1); rc=$?
  [ $rc -eq 0 ] && ok || bad "resume exit $rc: $out"
  st=$(sqlite3 "$db" "select status from runs where id = 1")
  [ "$st" = finished ] && ok || bad "status after resume: $st"
  ev=$(sqlite3 "$db" "select max(evaluations) from generations where run = 1")
  [ "${ev:-0}" -ge 6000 ] && ok || bad "resumed run stopped at $ev evaluations"
  # Every recorded chromosome is unique per run and the best is among them.
  n=$(sqlite3 "$db" "select count(*) from chromosomes c join runs r on r.id = c.run where c.crc = r.best_crc")
  [ "$n" = 1 ] && ok || bad "best chromosome recorded $n times"
  expect_usage "resume finished" "finished already" $N ga --db "$db" --resume 1
else
  bad "the run ended before it could be killed (generation $gen)"
fi
# An unwritable --save-best path is refused before the run, not after it:
# exit 2 at once, no run recorded.
expect_usage "save-best dir" "--save-best" $N ga --size 4 --generations 100000 --db sb.db --save-best "$tmp/no/such/dir/best.txt"
[ ! -e sb.db ] && ok || bad "a refused --save-best still created the database"

# A resumed run keeps its traffic: in the summary and in --save-best's header.
# A run stopped by SIGTERM after its first generations is resumed.
rdb=$tmp/resume.db
$N ga --traffic shfl --size 16 --pop 20 --stack-vmax 16 --evals 4000 --threads 1 --quiet --db "$rdb" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 500); do
  gen=$(sqlite3 "$rdb" "select coalesce(max(generation),0) from generations" 2>/dev/null || echo 0)
  [ "${gen:-0}" -ge 2 ] && break
  sleep 0.02
done
kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; pid=
# --delta changes no result, so a resumed run takes it.
out=$($N ga --db "$rdb" --resume 1 --delta on --quiet --format json --save-best "$tmp/best.txt" 2>&1); rc=$?
[ $rc -eq 0 ] && ok || bad "resume after SIGTERM: exit $rc ($out)"
case $out in *'"traffic": "shfl"'*) ok;; *) bad "resumed summary lacks the traffic: $out";; esac
grep -q '^# traffic shfl,' "$tmp/best.txt" 2>/dev/null && ok || bad "resumed --save-best header: $(head -2 "$tmp/best.txt" 2>&1)"
# Flags that a resumed run would ignore are refused, naming the flag, before
# the database is read.
expect_usage "resume --pop"     "--pop: a resumed run keeps"     $N ga --db "$rdb" --resume 1 --pop 30
expect_usage "resume --traffic" "--traffic: a resumed run keeps" $N ga --db "$rdb" --resume 1 --traffic brev
expect_usage "resume --seed"    "--seed: a resumed run keeps"    $N ga --db "$rdb" --resume 1 --seed 9
echo "ga_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
