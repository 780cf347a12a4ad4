#!/usr/bin/env bash
# Messages and exit codes that must agree across commands (issue 26 §4):
# - --db /dev/null (not a regular file) is bad input, 2, from every command;
# - a damaged database is 1 from every command, plot included;
# - output to a full device: 1 with a message (cc and its subcommands,
#   db sweep); ga stops at its first progress line that cannot be written,
#   leaving the run resumable;
# - a grid axis that cannot be one (help, db, threads, format, save-best,
#   seed, traffic, slices, size, a flag without a value) is refused with its
#   reason before anything is written; --interlock passes through sweep;
# - cc verify and cc cycles give one verdict (1) for a schedule that parses
#   but is invalid, checking the header's steps and a scatter's msg too;
# - messages stay one line: a 20 KB --where is not echoed whole; gnuplot's
#   warnings are hidden on success, its error shown (one line) on failure.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
in_scratch
export TMPDIR=$tmp

GA="--size 4 --slices 2 --generations 10 --pop 4 --stack-vmax 30 --threads 1 --quiet"
$N ga $GA --traffic brev --seed 1 --db a.db >/dev/null 2>&1 || bad "ga a.db"
printf 'max-genes 2 8\n' > g.grid
SW="--size 4 --slices 2 --generations 10 --pop 4 --stack-vmax 30 --quiet"

# ---- --db /dev/null ------------------------------------------------------------
expect 2 "/dev/null: is not a regular file" "ga --db /dev/null" $N ga $GA --db /dev/null
expect 2 "/dev/null: is not a regular file" "cc --db /dev/null" $N cc --topology octagon --cc oas --db /dev/null
expect 2 "/dev/null: is not a regular file" "sweep --db /dev/null" $N sweep --traffic brev --grid g.grid $SW --db /dev/null
expect 2 "/dev/null: is not a regular file" "db runs --db /dev/null" $N db runs --db /dev/null
expect 2 "/dev/null: is not a regular file" "replay --db /dev/null" $N replay --best 1 --db /dev/null
expect 2 "/dev/null: is not a regular file" "plot --db /dev/null" $N plot generations 1 --db /dev/null -o p.png

# ---- a damaged database: 1 from every command ---------------------------------------
cp a.db d.db
python3 -c 'f = open("d.db", "r+b"); f.seek(4096); f.write(bytes((i * 37 + 11) % 256 for i in range(4096)))'
expect 1 "database is damaged" "db runs on a damaged file" $N db runs --db d.db
expect 1 "database is damaged" "plot generations on a damaged file" $N plot generations 1 --db d.db -o p.png
expect 1 "database is damaged" "plot runs on a damaged file" $N plot runs --db d.db -o p.png
[ ! -e p.png ] && ok || bad "plot of a damaged database wrote p.png"

# ---- a full device ---------------------------------------------------------------------
if [ -w /dev/full ]; then
  full() {   # full WHAT CMD...: stdout to /dev/full gives 1 and one message
    local what=$1; shift
    local err; err=$("$@" 2>&1 >/dev/full); local rc=$?
    check "$what > /dev/full: exit" $rc 1
    case $err in *"No space left on device"*) ok;; *) bad "$what > /dev/full: no reason: '$err'";; esac
  }
  $N cc --topology octagon --cc oas --out s.json >/dev/null 2>&1 || bad "cc s.json"
  full "cc" $N cc --topology octagon --cc oas
  full "cc bounds" $N cc bounds --topology octagon --cc oas
  full "cc verify" $N cc verify s.json --topology octagon --cc oas
  full "cc cycles" $N cc cycles s.json --topology octagon --cc oas
  full "cc --help" $N cc --help
  $N sweep --traffic brev --grid g.grid $SW --db sw.db >/dev/null 2>&1 || bad "sweep sw.db"
  full "db sweep" $N db sweep 1 --db sw.db
  full "db sweep --format csv" $N db sweep 1 --db sw.db --format csv
  # ga: the first progress line that cannot be written stops the run (generation
  # 100 of 3000), the checkpoint written, and --resume finishes it.
  $N ga --size 4 --generations 3000 --progress-every 100 --threads 1 --db f.db >/dev/null 2>/dev/full
  check "ga 2>/dev/full: exit" $? 1
  check "ga 2>/dev/full: stopped at the first progress line" \
    "$(sqlite3 f.db "select status from runs where id = 1; select generation from checkpoints where run = 1" | tr '\n' ' ')" \
    "unfinished 100 "
  $N ga --db f.db --resume 1 --quiet >/dev/null 2>&1
  check "ga resumed after a lost progress line: exit" $? 0
  check "ga resumed after a lost progress line: finished" "$(sqlite3 f.db "select status from runs where id = 1")" finished
fi

# ---- grid axes that cannot be axes ---------------------------------------------------
for ax in "help 1 2" "db x.db y.db" "threads 1 2" "format json text" "save-best a.cfg b.cfg" "seed 1 2" \
          "traffic brot shfl" "slices 1 2" "size 4 8" "interlock 0 1" "mutation,seed 0.1,1 0.2,2"; do
  printf '# axis\n%s\n' "$ax" > ax.grid
  name=${ax%% *}; name=${name#*,}
  expect 2 "ax.grid: line 2: '$name' cannot be an axis: " "grid axis $name" \
    $N sweep --traffic brev --grid ax.grid $SW --runs 1 --db ax.db
  [ ! -e ax.db ] && ok || { bad "grid axis $name: ax.db written"; rm -f ax.db*; }
done
$N sweep --traffic brev --grid g.grid $SW --runs 1 --interlock --db il.db >/dev/null 2>err.txt
check "sweep --interlock: exit ($(cat err.txt))" $? 0
check "sweep --interlock reaches every run" \
  "$(sqlite3 il.db "select count(*) from runs where kind = 'ga' and json_extract(params, '\$.interlock') = 1")" 2

# ---- cc verify / cycles: one verdict, header steps and scatter msg checked --------------
$N cc --topology octagon --cc oas --out oas.json >/dev/null 2>&1 || bad "cc oas.json"
check "oas.json states 3 steps" "$(grep -c '"steps": 3,' oas.json)" 1
sed 's/"steps": 3,/"steps": 17,/' oas.json > steps17.json
sed 's/"steps": 3,/"steps": 2,/' oas.json > steps2.json
# The transfer 0 -> 1 -> 2 of step 1 named as carrying message 5, or 0 (JSON
# edited as JSON: the writer's layout is not part of the format).
with_msg() { # MSG OUT
  python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open("oas.json"))
for st in d["schedule"]:
    for tr in st["transfers"]:
        if tr["path"] == ["0", "1", "2"]:
            tr["msg"] = sys.argv[1]
            json.dump(d, open(sys.argv[2], "w"))
            sys.exit(0)
sys.exit(1)
PY
}
with_msg 5 msg5.json && with_msg 0 msg0.json || bad "oas.json has no transfer 0 -> 1 -> 2"
check "msg5.json names message 5" "$(grep -c '"msg": "5"' msg5.json)" 1
expect 0 "" "verify oas.json" $N cc verify oas.json
expect 0 "" "verify a scatter msg that is its first node" $N cc verify msg0.json
for f in steps17.json steps2.json msg5.json; do
  out=$($N cc verify $f 2>&1); rc=$?
  check "verify $f: exit" $rc 1
  case $f in
    steps*) frag="the header says ${f//[!0-9]/} steps, the schedule uses 3";;
    *) frag="step 1: transfer 0->2 names the message of 5, not of 0";;
  esac
  case $out in *"INVALID: $frag"*) ok;; *) bad "verify $f: '$out' lacks '$frag'";; esac
  expect 1 "not a valid schedule: $frag" "cycles $f" $N cc cycles $f
done
printf '{"schedule": [' > broken.json
expect 2 "broken.json" "verify of an unparsable file" $N cc verify broken.json --topology octagon --cc oas
expect 2 "broken.json" "cycles of an unparsable file" $N cc cycles broken.json --topology octagon --cc oas

# ---- one line, whatever the input -----------------------------------------------------
W=$(python3 -c 'print("duration < 5 and " * 1200 + "bogus")')
err=$($N db synonyms 1 --db a.db --where "$W" 2>&1 >/dev/null); rc=$?
check "a 20 KB --where: exit" $rc 2
[ ${#err} -lt 600 ] && ok || bad "a 20 KB --where is echoed in ${#err} bytes"
check "a 20 KB --where: one line" "$(printf '%s\n' "$err" | wc -l)" 1
expect 2 "unexpected character ';' (in \"lb <\\n 1;\")" "a newline in --where is escaped" \
  $N db synonyms 1 --db a.db --where "$(printf 'lb <\n 1;')"
$N stack --size 4 --traffic brev --slices 2 --interval 8:12 --arb C00 --format csv > st.csv 2>/dev/null || bad "stack st.csv"
awk -F, 'NR == 1 { print; next } { $NF = 30; print }' OFS=, st.csv > flat.csv
check "flat.csv: one duration" "$(tail -n +2 flat.csv | cut -d, -f6 | sort -u)" 30
if command -v gnuplot >/dev/null; then
  err=$($N plot stack flat.csv -o flat.png 2>&1); rc=$?
  check "plot of a flat curve: exit" $rc 0
  check "plot of a flat curve: gnuplot's warning hidden" "$err" ""
fi
mkdir fakebin
printf '#!/bin/sh\necho "warning: something minor" >&2\necho "plot.gp line 9: undefined variable: nonsense" >&2\nexit 1\n' > fakebin/gnuplot
chmod +x fakebin/gnuplot
err=$(PATH=$tmp/fakebin:$PATH $N plot stack flat.csv -o fail.png 2>&1); rc=$?
check "plot when gnuplot fails: exit" $rc 1
case $err in *"gnuplot failed (exit status 1) on "*": plot.gp line 9: undefined variable: nonsense") ok;;
  *) bad "plot when gnuplot fails: '$err'";; esac
check "plot when gnuplot fails: one line" "$(printf '%s\n' "$err" | wc -l)" 1
[ ! -e fail.png ] && ok || bad "a failed plot left fail.png"

echo "messages: $pass passed, $fail failed"
[ $fail -eq 0 ]
