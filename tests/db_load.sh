#!/usr/bin/env bash
# Open-loop runs (nocsim load) are first-class in the database commands
# (issue 35): load prints the run id it recorded; db runs shows their kind,
# topology and size, --kind filters; db show prints their points, not "0
# generations"; db export writes them (JSON and CSV); db merge brings them
# over so that the merged file's export equals the source's byte for byte.
# Also: a GA run's synonym count is one number everywhere.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
in_scratch

$N ga --size 4 --slices 2 --generations 5 --pop 4 --stack-vmax 30 --threads 1 --quiet --db a.db >/dev/null 2>&1 || bad "ga"
out=$($N load --topology torus --size 4x6 --rates 0.1:0.3:0.1 --threads 1 --batch 200 --window 3 --db a.db --quiet)
case $out in *"run 2 in a.db (nocsim db show 2)"*) ok;; *) bad "load does not name its run: $out";; esac
check "load --format json: run" \
  "$($N load --size 4 --rate 0.1 --threads 1 --batch 200 --window 3 --db b.db --quiet --format json |
     python3 -c 'import json,sys; print(json.load(sys.stdin)["run"])')" 1

check "db runs: the load run" "$($N db runs --db a.db --kind load --format csv | tail -n +2 | cut -d, -f1-6)" \
  "2,load,torus,uniform,4,6"
check "db runs: synonyms of a load run" "$($N db runs --db a.db --kind load --format json |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["rows"][0]["synonyms"])')" None
check "db runs --kind ga" "$($N db runs --db a.db --kind ga --format csv | tail -n +2 | cut -d, -f1-3)" "1,ga,torus"

show=$($N db show 2 --db a.db)
case $show in *"open-loop curve: 3 points"*) ok;; *) bad "db show of a load run: $show";; esac
case $show in *"0 generations"*) bad "db show speaks of generations: $show";; *) ok;; esac
check "db show --format csv: the points" "$($N db show 2 --db a.db --format csv | wc -l)" 4
stored=$(sqlite3 a.db 'SELECT rate, latency, saturated FROM load_points WHERE run = 2 ORDER BY rate' | tr '|' ' ')
shown=$($N db export 2 --db a.db --format csv | tail -n +2 |
  awk -F, '{ printf "%s %s %s\n", $1 + 0, $4 + 0, $17 }')
check "db export csv: the stored points" "$(echo "$stored" | awk '{ printf "%s %s %s\n", $1 + 0, $2 + 0, $3 }')" "$shown"
check "db export json: points" "$($N db export 2 --db a.db | python3 -c '
import json,sys; p=json.load(sys.stdin)["points"]; print(len(p), p[0]["rate"], p[2]["tagged"] > 0)')" "3 0.1 True"
check "db export --table points --format json" "$($N db export 2 --db a.db --table points --format json |
  python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["schema"], len(j["rows"]))')" "nocsim-db-export-points/1 3"

# Merged: the same export byte for byte, then a second merge adds nothing.
$N db merge a.db --db m.db --create >/dev/null || bad "merge"
cmp -s <($N db export 2 --db a.db --format json) <($N db export 2 --db m.db --format json) && ok ||
  bad "the merged load run's export differs"
cmp -s <($N db export 2 --db a.db --format csv) <($N db export 2 --db m.db --format csv) && ok ||
  bad "the merged load run's points differ (csv)"
check "merge again: no points" "$($N db merge a.db --db m.db --format json |
  python3 -c 'import json,sys; r=json.load(sys.stdin)["rows"][0]; print(r["runs_added"], r["load_points"])')" "0 0"

# A run with no chromosome (load, cc) asked for its best: bad input naming
# the kind, not "database is damaged" (exit 1).
$N cc --topology octagon --cc oas --db a.db >/dev/null || bad "cc run"
for c in export replay; do
  expect 2 "run 2 is a load run: it has no chromosome" "$c --best of a load run" $N $c --best 2 --db a.db
  expect 2 "run 3 is a cc run: it has no chromosome" "$c --best of a cc run" $N $c --best 3 --db a.db
done

# The GA summary's synonym count is db runs' (issue 35: 13 against 47); the
# GA's own narrower count has its own name.
out=$($N ga --size 4 --slices 2 --generations 200 --threads 1 --traffic brev --db g.db --quiet)
said=$(echo "$out" | sed -n 's/^synonyms  *\([0-9]*\) .*/\1/p')
check "ga summary synonyms = db runs synonyms" "$said" \
  "$($N db runs --db g.db --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["rows"][0]["synonyms"])')"
echo "$out" | grep -q 'of them also tie on the secondary key' && ok || bad "ga summary: no ties line: $out"
j=$($N ga --size 4 --slices 2 --generations 200 --threads 1 --traffic brev --db g.db --quiet --format json)
check "ga json synonyms = db runs synonyms of its run" "$(echo "$j" | python3 -c 'import json,sys; print(json.load(sys.stdin)["synonyms"])')" \
  "$($N db runs --db g.db --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["rows"][1]["synonyms"])')"

echo "db_load: $pass passed, $fail failed"
[ $fail -eq 0 ]
