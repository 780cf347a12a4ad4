#!/usr/bin/env bash
# Output paths, from the outside (issue 26, sections 1 and 4):
# - an output that is one of the command's inputs -- the database (through a
#   symlink, a hard link, another spelling, or its -wal/-journal name), a
#   config, traffic, topology or CSV file -- is bad input: exit 2, one line,
#   and the input is left byte for byte as it was, with no file beside it;
# - one rule for a bad output path (empty, a missing directory, a directory,
#   a trailing '/') from every flag that writes a file: exit 2, one line;
# - a write that fails part-way (ulimit -f) leaves no partial file: exit 1
#   and the old file, if any, untouched.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
in_scratch

# The directory's listing with sizes and checksums: "nothing touched" is this unchanged.
state() { for f in $(ls -A | sort); do [ -f "$f" ] && printf '%s %s\n' "$f" "$(sha1sum < "$f")" || printf '%s\n' "$f"; done; }

GA="--size 4 --slices 2 --generations 10 --pop 4 --stack-vmax 30 --threads 1 --quiet"
$N ga $GA --traffic brev --seed 1 --db v.db >/dev/null 2>&1 || bad "ga v.db"
printf '0 5\n5 0\n' > t.txt
printf 'interval 40\n' > c.cfg
printf '0 1\n1 2\n2 3\n3 0\n' > topo.txt
$N stack --size 4 --traffic brev --slices 2 --interval 8:12 --arb C00 --format csv > s.csv 2>/dev/null || bad "stack csv"
ln -s v.db sym.db
ln v.db hard.db
mkdir sub

# ---- an output that is an input: exit 2, nothing touched ---------------------
before=$(state)
for o in v.db sym.db hard.db ./v.db sub/../v.db "$tmp/v.db" v.db-journal v.db-wal; do
  expect 2 "is the input file" "export -o $o" $N export --best 1 --db v.db -o "$o"
  expect 2 "is the input file" "ga --save-best $o" $N ga $GA --db v.db --save-best "$o"
  expect 2 "is the input file" "plot -o $o" $N plot generations 1 --db v.db -o "$o"
  expect 2 "is the input file" "replay --activity $o" $N replay --best 1 --db v.db --activity "$o"
  expect 2 "is the input file" "cc --out $o" $N cc --topology octagon --cc oas --db v.db --out "$o"
done
expect 2 "is the input file" "sim --activity = --config" $N sim --size 4 --config c.cfg --activity c.cfg
expect 2 "is the input file" "sim --activity = traffic file" $N sim --size 4 --traffic file:t.txt --activity t.txt
expect 2 "is the input file" "ga --save-best = traffic file" $N ga $GA --traffic file:t.txt --no-db --save-best t.txt
expect 2 "is the input file" "replay --activity = --file" $N replay --file c.cfg --size 4 --activity c.cfg
expect 2 "is the input file" "plot stack -o = its CSV" $N plot stack s.csv -o s.csv
expect 2 "is the input file" "cc --out = topology file" $N cc --topology file:topo.txt --cc oas --out topo.txt
check "inputs untouched, nothing beside them" "$(state)" "$before"
[ "$(sqlite3 v.db 'pragma integrity_check')" = ok ] && ok || bad "v.db damaged"

# ---- one rule for a bad output path, every writing flag -----------------------
for p in "" nodir/x.out sub sub/ x.out/ v.db/x; do
  expect 2 "" "export -o '$p'" $N export --best 1 --db v.db -o "$p"
  expect 2 "" "ga --save-best '$p'" $N ga $GA --db g.db --save-best "$p"
  expect 2 "" "plot -o '$p'" $N plot generations 1 --db v.db -o "$p"
  expect 2 "" "sim --activity '$p'" $N sim --size 4 --activity "$p"
  expect 2 "" "replay --activity '$p'" $N replay --best 1 --db v.db --activity "$p"
  expect 2 "" "cc --out '$p'" $N cc --topology octagon --cc oas --out "$p"
done
[ ! -e g.db ] && ok || bad "ga with a bad --save-best created its database"
check "bad paths wrote nothing" "$(state)" "$before"

# ---- a write that fails part-way leaves no partial file -----------------------
$N ga --size 8 --slices 2 --generations 5 --pop 4 --threads 1 --quiet --db big.db >/dev/null 2>&1 || bad "ga big.db"
$N export --best 1 --db big.db -o full.cfg || bad "export full.cfg"
echo old > old.cfg
for o in new.cfg old.cfg; do
  (ulimit -f 4; exec $N export --best 1 --db big.db -o $o) 2>err.txt; rc=$?
  check "export -o $o past ulimit -f 4: exit" $rc 1
  case $(cat err.txt) in *"File too large"*) ok;; *) bad "export -o $o: $(cat err.txt)";; esac
  (ulimit -f 4; exec $N ga --size 8 --slices 2 --generations 5 --pop 4 --threads 1 --quiet --no-db --save-best $o) >/dev/null 2>&1
  check "ga --save-best $o past ulimit -f 4: exit" $? 1
done
[ ! -e new.cfg ] && ok || bad "a partial new.cfg was left ($(wc -c < new.cfg) bytes)"
check "old.cfg kept" "$(cat old.cfg)" old
[ "$(wc -c < full.cfg)" -gt 4096 ] && ok || bad "full.cfg is not over the limit: $(wc -c < full.cfg) bytes"
[ -z "$(ls -A | grep '^\.')" ] && ok || bad "temporary files left: $(ls -A | grep '^\.')"

# ---- a name that is not a regular file is written through, never replaced ----
# (issue 35): copies of /dev/null and /dev/full (mknod, as root) and a FIFO
# keep what they are; the full one fails the write with exit 1.  "-" is
# standard output for every output flag, and no file named "-" appears.
# outs NAME: every command with an output, writing to NAME, each "label:status".
outs() {
  local o=$1
  $N export --best 1 --db v.db -o "$o" >/dev/null 2>>err.txt; printf 'export:%s ' $?
  $N ga $GA --no-db --save-best "$o" >/dev/null 2>>err.txt; printf 'ga:%s ' $?
  if command -v gnuplot >/dev/null; then $N plot generations 1 --db v.db -o "$o" >/dev/null 2>>err.txt; printf 'plot:%s ' $?; fi
  $N sim --size 4 --activity "$o" >/dev/null 2>>err.txt; printf 'sim:%s ' $?
  $N replay --best 1 --db v.db --activity "$o" >/dev/null 2>>err.txt; printf 'replay:%s ' $?
  $N cc --topology octagon --cc oas --out "$o" >/dev/null 2>>err.txt; printf 'cc:%s\n' $?
}
# want STATUS: what outs prints when every command exits STATUS (never run
# against the real /dev/null: an old binary would replace it).
want() {
  local p=; command -v gnuplot >/dev/null && p="plot:$1 "
  echo "export:$1 ga:$1 ${p}sim:$1 replay:$1 cc:$1"
}
if mknod cnull c 1 3 2>/dev/null && mknod cfull c 1 7 2>/dev/null; then
  : > err.txt
  check "outputs to a copy of /dev/null" "$(outs cnull)" "$(want 0)"
  [ -c cnull ] && ok || bad "cnull was replaced: $(ls -l cnull)"
  : > err.txt
  check "outputs to a copy of /dev/full" "$(outs cfull)" "$(want 1)"
  [ -c cfull ] && ok || bad "cfull was replaced: $(ls -l cfull)"
  check "each /dev/full write names the failure" "$(grep -c 'cfull: write failed (No space left on device)' err.txt)" \
    "$(wc -l < err.txt)"
  rm -f cnull cfull
else
  echo "outputs: not root, no character device copies (skipped)"
fi
mkfifo fifo
timeout 10 cat fifo > from_fifo & pid=$!
$N export --best 1 --db v.db -o fifo 2>err.txt; check "export -o FIFO: exit" $? 0
wait "$pid"; pid=
[ -p fifo ] && ok || bad "the FIFO was replaced"
$N export --best 1 --db v.db -o - > from_stdout
cmp -s from_fifo from_stdout && [ -s from_fifo ] && ok || bad "the FIFO got other bytes than -o -"
rm -f fifo from_fifo from_stdout
png() { head -c 4 | od -An -c | tr -d ' '; }
check "sim --activity -: a PNG on stdout" "$($N sim --size 4 --activity - | png)" '211PNG'
if command -v gnuplot >/dev/null; then
  check "plot -o -: a PNG on stdout" "$($N plot generations 1 --db v.db -o - | png)" '211PNG'
fi
$N cc --topology octagon --cc oas --out - | grep -q '"steps"' && ok || bad "cc --out -: no schedule on stdout"
[ ! -e ./- ] && ok || bad "a file named - was written"
[ -z "$(ls -A | grep '^\.')" ] && ok || bad "temporary files left: $(ls -A | grep '^\.')"

echo "outputs: $pass passed, $fail failed"
[ $fail -eq 0 ]
