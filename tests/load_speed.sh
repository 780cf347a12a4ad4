#!/usr/bin/env bash
# `nocsim load`'s early stopping, precision instead of cycles and link load
# (issue 37 sections 6 and 4) through the CLI: --early-stop leaves every
# stable row of a curve as it was and ends the saturated ones sooner; --ci
# ends stable windows between 5 batches and the --window cap; the link
# table of a single flow on a 3x3 mesh by hand (periodic at 0.5 in 8-flit
# packets, alone: 5,000 flits in the 10,000-cycle window on each of the four
# links of its x-then-y route, none elsewhere); the picture written as a
# PNG; the records' params; the refusals, exit 2 with one line.
set -u
N=${NOCSIM:-./nocsim}
source "$(dirname "$0")/testlib.bash"
in_scratch
jget() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

# Early stopping: stable rows identical, saturated rows shorter, same verdicts.
curve="--no-db --quiet --size 6 --traffic uniform --rates 0.1:0.7:0.2 --all --format csv"
a=$($N load $curve)
b=$($N load $curve --early-stop)
check "early stop: stable rows as without" "$(printf '%s\n' "$b" | grep ',no$')" "$(printf '%s\n' "$a" | grep ',no$')"
check "early stop: as many saturated rows" "$(printf '%s\n' "$b" | grep -vc ',no$')" "$(printf '%s\n' "$a" | grep -vc ',no$')"
ca=$(printf '%s\n' "$a" | awk -F, 'NR > 1 && $22 != "no" { c += $20 } END { print c }')
cb=$(printf '%s\n' "$b" | awk -F, 'NR > 1 && $22 != "no" { c += $20 } END { print c }')
[ "$cb" -lt "$ca" ] && ok || bad "early stop: saturated points ran $cb cycles, without it $ca"

# --ci: a stable point's window is 5 to 10 batches; an unmeetable CI runs the cap.
w=$($N load --no-db --quiet --size 6 --rate 0.1 --ci 0.05 --format csv | awk -F, 'NR == 2 { print ($20 - $18 - $19) / 1000 }')
[ "$w" -ge 5 ] && [ "$w" -le 10 ] && ok || bad "--ci 0.05: window of $w batches"
w=$($N load --no-db --quiet --size 6 --rate 0.1 --ci 0.000001 --window 7 --format csv | awk -F, 'NR == 2 { print ($20 - $18 - $19) / 1000 }')
check "--ci unmeetable: the --window cap" "$w" "7"

# The single flow's links.
printf '0 8 1\n' > flow.txt
one="--no-db --quiet --size 3 --traffic matrix:flow.txt --process periodic --rate 0.5 --links"
c=$($N load $one --format csv)
check "links csv: the four route links" "$(printf '%s\n' "$c" | sed -n '/^rate,x,y,port/,$p' | awk -F, '$5 > 0' | tr '\n' ' ')" \
  "rate,x,y,port,flits,load 0.5,0,0,E,5000,0.500000 0.5,1,0,E,5000,0.500000 0.5,2,0,N,5000,0.500000 0.5,2,1,N,5000,0.500000 "
check "links csv: 24 links on the 3x3 mesh" "$(printf '%s\n' "$c" | sed -n '/^rate,x,y,port/,$p' | tail -n +2 | wc -l)" "24"
j=$($N load $one --format json)
check "links json: busiest" "$(printf '%s' "$j" | jget 'j["points"][0]["links"]["busiest"]')" \
  "{'x': 0, 'y': 0, 'port': 'E', 'load': 0.5}"
t=$($N load $one)
case $t in *"busiest (0,0) E 0.5000, mean 0.0833 over 24 links"*) ok;; *) bad "links text: $t";; esac
$N load $one --links-png flow.png > /dev/null
check "links png: a PNG" "$(head -c 8 flow.png | od -An -tx1 | tr -d ' \n')" "89504e470d0a1a0a"

# Recorded params: early_stop and ci only when asked.
$N load --quiet --db r.db --size 4 --rate 0.1 > /dev/null
$N load --quiet --db r.db --size 4 --rate 0.1 --ci 0.05 > /dev/null
check "params without --ci" "$(sqlite3 r.db "select instr(params, 'early_stop') > 0 from runs order by id limit 1")" "0"
check "params with --ci" "$(sqlite3 r.db "select json_extract(params, '\$.ci') || ',' || json_extract(params, '\$.early_stop') from runs order by id desc limit 1")" "0.05,1"

# Refusals.
expect_usage "--ci above 1" "--ci: '1.5' is out of range" $N load --ci 1.5
expect_usage "--links-png, two patterns" "give one pattern" $N load --traffic uniform,transpose --links-png x.png
expect_usage "--links-png, a 65 grid" "up to 64 a side" $N load --size 65 --links-png x.png
# The picture's path is checked before the curve runs: no run is recorded
# (the whole curve once ran, and was recorded, before the path was tried).
expect_usage "--links-png in a missing folder" "--links-png no/such/dir/x.png: directory" \
  $N load --quiet --db refused.db --size 4 --rate 0.1 --links-png no/such/dir/x.png
check "--links-png refused: no run recorded" "$(sqlite3 refused.db 'select count(*) from runs' 2>/dev/null || echo 0)" "0"
expect_usage "--links-png onto the database" "is the input file" $N load --quiet --db r.db --size 4 --rate 0.1 --links-png r.db
printf '0 0 1 4\n' > tr.txt
expect_usage "--trace with --ci" "--ci is a curve's" $N load --size 4 --trace tr.txt --ci 0.1
expect_usage "--trace with --links" "--links is a curve's" $N load --size 4 --trace tr.txt --links
[ ! -e x.png ] && ok || bad "a refused run wrote x.png"

echo "load_speed: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
