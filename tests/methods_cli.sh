#!/usr/bin/env bash
# Parameter-loading mode and the paper's methods, end to end: replays give
# the recorded scores, extrapolation and post-stacking respect the link-load
# bound and record runs that replay to what they report, chromosome files
# travel, and bad sources are refused with exit 2.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
db=$tmp/m.db
json() { sed -n "s/.*\"$1\": \"\{0,1\}\([0-9a-f]*\).*/\1/p"; }   # a number or hex field of one-line JSON


$N ga --size 8 --traffic brev --slices 1 --generations 8 --pop 8 --stack-vmax 40 --db "$db" --quiet >/dev/null || bad "ga S=1"
$N ga --size 8 --traffic brev --slices 2 --generations 8 --pop 8 --stack-vmax 40 --db "$db" --quiet >/dev/null || bad "ga S=2"

# Replaying the best of a run gives its recorded duration; so does every
# recorded chromosome (at its own interval).
rec=$(sqlite3 "$db" "select best_duration from runs where id = 2")
d=$($N replay --db "$db" --best 2 --format json | json duration)
[ -n "$rec" ] && [ "$d" = "$rec" ] && ok || bad "replay --best 2: $d, recorded $rec"
for row in $(sqlite3 "$db" "select id || ':' || duration || ':' || printf('%08x', crc) from chromosomes where run = 2 limit 15"); do
  IFS=: read -r id dur crc <<< "$row"
  out=$($N replay --db "$db" --chrom "$id" --format json)
  [ "$(echo "$out" | json duration)" = "$dur" ] && [ "$(echo "$out" | json signature)" = "$crc" ] && ok ||
    bad "chromosome $id replays to '$out', recorded $dur $crc"
done
by_crc=$($N replay --db "$db" --crc "$(sqlite3 "$db" "select printf('%08x', best_crc) from runs where id = 2")" --run 2 --format json | json duration)
[ "$by_crc" = "$rec" ] && ok || bad "replay --crc: $by_crc"

# The link-load bound at 2 slices: the busiest link's flits + 1 (routing is
# deterministic, so any configuration shows the same load).
bound=$(( $($N sim --size 8 --traffic brev --slices 2 --format json | json max_link_flits) + 1 ))
out=$($N extrapolate --db "$db" --run 1 --slices 2 --format json)
ex=$(echo "$out" | json best_duration); exrun=$(echo "$out" | json run)
[ -n "$ex" ] && [ "$ex" -ge "$bound" ] && ok || bad "extrapolation $ex below the bound $bound"
[ "$(sqlite3 "$db" "select kind || ',' || parent || ',' || slices from runs where id = $exrun")" = "extrapolate,1,2" ] && ok ||
  bad "extrapolation run $exrun not recorded as derived from run 1"
d=$($N replay --db "$db" --best "$exrun" --format json | json duration)
[ "$d" = "$ex" ] && ok || bad "extrapolated chromosome replays to $d, reported $ex"
# A range replay finds at most the extrapolation's duration for the same chromosome.
d=$($N replay --db "$db" --best "$exrun" --interval 8:60 --format json | json duration)
[ "$d" -le "$ex" ] && ok || bad "interval range $d > $ex"
rows=$($N replay --db "$db" --best "$exrun" --interval 8:20 --format csv | wc -l)
[ "$rows" = 14 ] && ok || bad "replay csv rows $rows, want 14"

out=$($N post-stack --db "$db" --run 2 --format json)
ps=$(echo "$out" | json best_duration); cand=$(echo "$out" | json candidates)
all=$(sqlite3 "$db" "select count(*) from synonyms where run = 2")
[ -n "$ps" ] && [ "$ps" -ge "$bound" ] && ok || bad "post-stack $ps below the bound $bound"
[ "$cand" -ge 1 ] && [ "$cand" -le "$all" ] && ok || bad "post-stack used $cand of $all synonyms"
cand_all=$($N post-stack --db "$db" --run 2 --all --no-record --format json | json candidates)
[ "$cand_all" = "$all" ] && ok || bad "post-stack --all used $cand_all of $all"

# Chromosome files: export and replay give the same duration; a file for
# another network size is refused naming the size.
$N export --db "$db" --best 2 -o "$tmp/best.cfg" && ok || bad "export"
d=$($N replay --file "$tmp/best.cfg" --size 8 --traffic brev --slices 2 --format json | json duration)
[ "$d" = "$rec" ] && ok || bad "exported chromosome replays to $d, recorded $rec"
expect_usage "file of another size" "8x8"        $N replay --file "$tmp/best.cfg" --size 16 --traffic brev
expect_usage "missing chromosome"   "does not exist" $N replay --db "$db" --chrom 99999
expect_usage "unknown signature"    "no chromosome"  $N replay --db "$db" --crc deadbeef
expect_usage "bad signature"        "CRC-32"         $N replay --db "$db" --crc xyz
expect_usage "two sources"          "exactly one"    $N replay --db "$db" --chrom 1 --best 1
expect_usage "missing run"          "not in"         $N extrapolate --db "$db" --run 999
expect_usage "missing database"     "$tmp/none.db"   $N replay --db "$tmp/none.db" --chrom 1
[ ! -e "$tmp/none.db" ] && ok || bad "a query created the database"

echo "methods_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
