#!/usr/bin/env bash
# `nocsim db` from the outside, against databases made by `nocsim ga`: every
# answer is compared with the same question asked of sqlite3 directly;
# --where injection attempts are refused and harm nothing; merge gives the
# union of runs and is idempotent; csv and json parse; bad input exits 2 and
# prints nothing on stdout.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
in_scratch
q() { sqlite3 "$@"; }

# expect_usage WHAT FRAGMENT CMD...: exit 2, one stderr line with FRAGMENT, no stdout.
json_ok() { python3 -c 'import json,sys; json.load(sys.stdin)' 2>/dev/null; }
# Number of records of a CSV document (header excluded), quoting respected.
csv_rows() { python3 -c 'import csv,sys; print(len(list(csv.reader(sys.stdin))) - 1)'; }
# Column NAME of CSV row number ROW (0-based) of stdin.
csv_col() { python3 -c 'import csv,sys; r=list(csv.DictReader(sys.stdin)); print(r[int(sys.argv[2])][sys.argv[1]])' "$1" "$2"; }

GA="--size 4 --slices 2 --generations 20 --pop 8 --stack-vmax 30 --threads 2 --quiet"
$N ga $GA --traffic brev --seed 1 --db a.db >/dev/null 2>ga.err || bad "ga a.db: $(cat ga.err)"
$N ga $GA --traffic shfl --seed 2 --db b.db >/dev/null 2>ga.err || bad "ga b.db: $(cat ga.err)"
$N ga $GA --traffic brev --seed 3 --db b.db >/dev/null 2>ga.err || bad "ga b.db 2: $(cat ga.err)"
[ -s a.db ] && [ -s b.db ] || { echo "db_cli: cannot build the test databases"; echo "db_cli: $pass passed, $((fail + 1)) failed"; exit 1; }

# ---- runs ------------------------------------------------------------------
best=$(q a.db "select best_duration from runs where id = 1")
check "runs: best of run 1" "$($N db runs --db a.db --format csv | csv_col best 0)" "$best"
check "runs: synonyms of run 1" "$($N db runs --db a.db --format csv | csv_col synonyms 0)" \
      "$(q a.db "select count(*) from synonyms where run = 1")"
check "runs text has run 1" "$($N db runs --db a.db | awk 'NR == 2 {print $1, $11}')" "1 $best"
check "runs --traffic" "$($N db runs --db b.db --traffic shfl --format csv | csv_rows)" \
      "$(q b.db "select count(*) from runs where traffic = 'shfl'")"
check "runs --slices 1" "$($N db runs --db b.db --slices 1 --format csv | csv_rows)" 0
check "runs --kind cc" "$($N db runs --db b.db --kind cc --format csv | csv_rows)" 0

# ---- synonyms --------------------------------------------------------------
nsyn=$(q a.db "select count(*) from synonyms where run = 1")
[ "$nsyn" -gt 1 ] && ok || bad "test needs several synonyms, run 1 has $nsyn"
$N db synonyms 1 --db a.db --format csv >syn.csv || bad "synonyms csv exit $?"
check "synonyms: rows = view" "$(csv_rows <syn.csv)" "$nsyn"
check "synonyms: every duration is the best" \
      "$(python3 -c 'import csv,sys; print(sorted({r["duration"] for r in csv.DictReader(open("syn.csv"))}))')" "['$best']"
check "synonyms: crc is 8 hex digits" \
      "$(python3 -c 'import csv,re; print(all(re.fullmatch("[0-9a-f]{8}", r["crc"]) for r in csv.DictReader(open("syn.csv"))))')" True
check "synonyms: crc matches sqlite3" \
      "$(python3 -c 'import csv; print(" ".join(str(int(r["crc"],16)) for r in csv.DictReader(open("syn.csv"))))')" \
      "$(q a.db "select crc from synonyms where run = 1 order by id" | tr '\n' ' ' | sed 's/ $//')"
check "synonyms text: rows + header + footer" "$($N db synonyms 1 --db a.db | wc -l)" $((nsyn + 2))
check "synonyms --all" "$($N db synonyms 1 --all --db a.db --format csv | csv_rows)" \
      "$(q a.db "select count(*) from chromosomes where run = 1")"
check "synonyms --limit" "$($N db synonyms 1 --limit 3 --db a.db --format csv | csv_rows)" 3

# --where: the same condition asked of sqlite3 (a median threshold keeps it selective).
lbm=$(q a.db "select lb from synonyms where run = 1 order by lb limit 1 offset $((nsyn / 2))")
for cond in "lb < $lbm" "lb >= $lbm and ob > 3" "not (lb < $lbm) or t_e = 16" "(ib = 0 or lb <= $lbm) and generation >= 1"; do
  want=$(q a.db "select count(*) from synonyms where run = 1 and ($cond)")
  check "--where '$cond'" "$($N db synonyms 1 --db a.db --where "$cond" --format csv | csv_rows)" "$want"
done
want=$(q a.db "select count(*) from synonyms where run = 1 and or_ < 2 and lb < $lbm")
check "--where with the metric 'or'" "$($N db synonyms 1 --db a.db --where "or < 2 and lb < $lbm" --format csv | csv_rows)" "$want"
# --order-by: the column comes out sorted.
check "--order-by 'lb desc'" "$($N db synonyms 1 --db a.db --order-by 'lb desc' --format csv | csv_col lb 0)" \
      "$(q a.db "select max(lb) from synonyms where run = 1")"
sorted=$($N db synonyms 1 --db a.db --order-by ob --format csv | python3 -c 'import csv,sys; v=[int(r["ob"]) for r in csv.DictReader(sys.stdin)]; print(v == sorted(v))')
check "--order-by ob ascending" "$sorted" True

# Injection attempts and malformed expressions: refused, the database intact.
expect_usage "--where injection ;"   "position 4" $N db synonyms 1 --db a.db --where "lb<1; DROP TABLE runs"
expect_usage "--where injection )"   "position 3" $N db synonyms 1 --db a.db --where "1=1) or (1=1"
expect_usage "--where quote"         "--where"    $N db synonyms 1 --db a.db --where "lb < '1'"
expect_usage "--where column"        "--where"    $N db synonyms 1 --db a.db --where "genes_len > 0"
expect_usage "--order-by not metric" "--order-by" $N db synonyms 1 --db a.db --order-by "genes"
expect_usage "--order-by injection"  "--order-by" $N db synonyms 1 --db a.db --order-by "ob; DROP TABLE runs"
check "runs table survives" "$(q a.db "select count(*) from runs")" 1
check "integrity" "$(q a.db "pragma integrity_check")" ok

# ---- show, best, export ----------------------------------------------------
ngen=$(q a.db "select count(*) from generations where run = 1")
check "show csv: every generation" "$($N db show 1 --db a.db --format csv | csv_rows)" "$ngen"
check "show json: best_duration" \
      "$($N db show 1 --db a.db --format json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["run"]["best_duration"], d["run"]["params"]["pop"], len(d["generations"]))')" \
      "$best 8 $ngen"
$N db show 1 --db a.db | grep -q "^best_duration  *$best$" && ok || bad "show text lacks best_duration $best"

want=$(q b.db "select count(distinct traffic || size || slices || flits) from runs")
check "best: one row per group" "$($N db best --db b.db --format csv | csv_rows)" "$want"
check "best brev = min" "$($N db best --db b.db --traffic brev --format csv | csv_col best 0)" \
      "$(q b.db "select min(best_duration) from runs where traffic = 'brev'")"

$N db export 1 --db a.db --genes >export.json || bad "export json exit $?"
check "export json: counts" \
      "$(python3 -c 'import json; d=json.load(open("export.json")); print(d["run"]["id"], len(d["generations"]), len(d["chromosomes"]))')" \
      "1 $ngen $(q a.db "select count(*) from chromosomes where run = 1")"
# The genes are the canonical encoding: their CRC-32 is the recorded signature.
check "export --genes: crc32(genes) = crc" \
      "$(python3 -c 'import json,zlib; d=json.load(open("export.json")); print(all(zlib.crc32(bytes.fromhex(c["genes"])) == int(c["crc"],16) and len(c["genes"]) == 2*c["genes_len"] for c in d["chromosomes"]))')" True
check "export csv: chromosomes" "$($N db export 1 --db a.db --format csv | csv_rows)" \
      "$(q a.db "select count(*) from chromosomes where run = 1")"
check "export csv --table generations" "$($N db export 1 --db a.db --format csv --table generations | csv_rows)" "$ngen"
check "export csv --table run" "$($N db export 1 --db a.db --format csv --table run | csv_col uuid 0)" \
      "$(q a.db "select uuid from runs where id = 1")"

# Every subcommand's json parses and csv has a consistent number of columns.
for c in "runs" "best" "show 1" "synonyms 1" "synonyms 1 --all" "export 1" "export 1 --genes --table chromosomes"; do
  $N db $c --db a.db --format json | json_ok && ok || bad "db $c --format json does not parse"
  cols=$($N db $c --db a.db --format csv | python3 -c 'import csv,sys; print(len({len(r) for r in csv.reader(sys.stdin)}))')
  check "db $c csv columns" "$cols" 1
done

# ---- merge -----------------------------------------------------------------
na=$(q a.db "select count(*) from runs"); nb=$(q b.db "select count(*) from runs")
ca=$(q a.db "select count(*) from chromosomes"); cb=$(q b.db "select count(*) from chromosomes")
out=$($N db merge a.db --db b.db) || bad "merge exit $?"
case $out in *"1 run added, 0 skipped"*) ok;; *) bad "merge says: $out";; esac
check "merge: union of runs" "$(q b.db "select count(*) from runs")" $((na + nb))
check "merge: distinct uuids" "$(q b.db "select count(distinct uuid) from runs")" $((na + nb))
check "merge: chromosomes" "$(q b.db "select count(*) from chromosomes")" $((ca + cb))
check "merge: merged run keeps its best" "$(q b.db "select best_duration from runs where uuid = (select uuid from runs order by id desc limit 1)")" "$best"
check "merge again: json" "$($N db merge a.db --db b.db --format json | python3 -c 'import json,sys; d=json.load(sys.stdin)["rows"][0]; print(d["runs_added"], d["runs_skipped"], d["chromosomes"])')" "0 $na 0"
check "merge again: runs unchanged" "$(q b.db "select count(*) from runs")" $((na + nb))
check "merge: source untouched" "$(q a.db "select count(*) from runs")" "$na"
expect_usage "merge into a missing file" "no such database file" $N db merge a.db --db new.db
[ ! -e new.db ] && ok || bad "merge without --create made new.db"
$N db merge a.db --db new.db --create >/dev/null && ok || bad "merge --create failed"
check "merge --create" "$(q new.db "select count(*) from runs")" "$na"

# ---- bad input ---------------------------------------------------------------
expect_usage "missing run"        "run 99 is not in"      $N db show 99 --db a.db
expect_usage "missing run (syn)"  "run 99 is not in"      $N db synonyms 99 --db a.db
expect_usage "missing run (exp)"  "run 99 is not in"      $N db export 99 --db a.db
expect_usage "run not a number"   "RUN"                   $N db show x1 --db a.db
expect_usage "missing RUN"        "missing RUN"           $N db show --db a.db
expect_usage "missing db"         "nope.db"               $N db runs --db nope.db
[ ! -e nope.db ] && ok || bad "a query created nope.db"
expect_usage "missing default db" "nocsim.db"             $N db runs
[ ! -e nocsim.db ] && ok || bad "a query created nocsim.db"
echo "not a database" >text.db
expect_usage "not sqlite"         "not a nocsim database" $N db runs --db text.db
q other.db "create table t(x)"
expect_usage "foreign sqlite"     "not a nocsim database" $N db runs --db other.db
cp a.db v9.db && q v9.db "pragma user_version = 9"
expect_usage "schema version"     "schema version 9"      $N db runs --db v9.db
expect_usage "merge other version" "schema version 9"     $N db merge v9.db --db b.db
check "refused merge wrote nothing" "$(q b.db "select count(*) from runs")" $((na + nb))
expect_usage "bad format"         "--format"              $N db runs --db a.db --format xml
expect_usage "export text"        "--format"              $N db export 1 --db a.db --format text
expect_usage "unknown option"     "--where"               $N db runs --db a.db --where "lb<1"
expect_usage "unknown subcommand" "allowed"               $N db frobnicate
expect_usage "--limit 0"          "--limit"               $N db synonyms 1 --db a.db --limit 0
$N db --help | grep -q "synonyms RUN" && ok || bad "db --help"
$N db synonyms --help | grep -q -- "--where" && ok || bad "db synonyms --help"

echo "db_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
