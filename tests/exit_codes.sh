#!/usr/bin/env bash
# The exit-status rule of every command (cli/status.h): 0 success, 1 a
# run-time failure (a lost write included), 2 bad input, 128 + the signal
# for SIGINT (130) and SIGTERM (143).  Checked from the outside:
# - the same bad --db gives the same status and the same kind of message
#   from every command that takes --db;
# - output to a full device (/dev/full) fails with 1 and a message;
# - a file-size limit (ulimit -f) makes ga fail with 1 and a message, not
#   die by SIGXFSZ (153), and leaves the database valid;
# - the machine's faults (a thread that cannot start, memory) exit 1 and bad
#   traffic 2, by the fault's kind (util/fault.h), not its message;
# - SIGINT and SIGTERM stop ga with 130 and 143, the run resumable;
# - `nocsim` alone prints a one-line hint and exits 2.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
tmp=$(mktemp -d); pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp"

# expect STATUS PATTERN DESCRIPTION COMMAND...: exit status and one stderr
# line matching *PATTERN* (a glob).
expect() {
  local want=$1 frag=$2 what=$3; shift 3
  local err; err=$("$@" 2>&1 >/dev/null); local rc=$?
  [ $rc -eq "$want" ] || { bad "$what: exit $rc, want $want ($err)"; return; }
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || { bad "$what: not one line: $err"; return; }
  # shellcheck disable=SC2254
  case $err in *$frag*) ok;; *) bad "$what: '$err' lacks '$frag'";; esac
}

# A real database, for the commands that read one.
$N ga --traffic brev --size 4 --generations 5 --seed 1 --quiet --db good.db >/dev/null 2>&1 || bad "setting up good.db"

# ---- the same bad --db from every command --------------------------------
mkdir dir.db
echo "just some text, not SQLite" > text.db
sqlite3 foreign.db "create table t(x); insert into t values (1);"
cp good.db newer.db && sqlite3 newer.db "pragma user_version = 99"
for bad_db in "dir.db:is a directory" "text.db:not a nocsim database" \
              "foreign.db:not a nocsim database" "newer.db:*schema version"; do
  f=${bad_db%%:*} kind=${bad_db#*:}
  expect 2 "--db: $f: $kind" "ga --db $f"          $N ga --size 4 --generations 1 --quiet --db "$f"
  expect 2 "--db: $f: $kind" "replay --db $f"      $N replay --best 1 --db "$f"
  expect 2 "--db: $f: $kind" "export --db $f"      $N export --best 1 --db "$f"
  expect 2 "--db: $f: $kind" "extrapolate --db $f" $N extrapolate --run 1 --db "$f"
  expect 2 "--db: $f: $kind" "post-stack --db $f"  $N post-stack --run 1 --db "$f"
  expect 2 "--db: $f: $kind" "db runs --db $f"     $N db runs --db "$f"
  expect 2 "--db: $f: $kind" "cc --db $f"          $N cc --topology ring:4 --cc aab --db "$f"
done
# A resume never creates a database: a typo is a missing file, bad input.
expect 2 "typo.db" "ga --resume on a missing --db" $N ga --resume 1 --db typo.db
[ ! -e typo.db ] && ok || bad "ga --resume created typo.db"

# ---- every write checked: a full device fails the command ----------------
if [ -w /dev/full ]; then
  full() { # description, command...: exit 1 and a message saying the output was lost
    local what=$1; shift
    local err; err=$("$@" 2>&1 >/dev/full); local rc=$?
    [ $rc -eq 1 ] || { bad "$what > /dev/full: exit $rc, want 1 ($err)"; return; }
    case $err in *"cannot write"*|*"writing the output failed"*) ok;; *) bad "$what > /dev/full: '$err'";; esac
  }
  full "sim"            $N sim --size 4
  full "sim --format csv" $N sim --size 4 --format csv
  full "stack"          $N stack --size 4 --interval 8:12
  full "replay"         $N replay --best 1 --db good.db
  full "ga --format json" $N ga --size 4 --generations 2 --no-db --quiet --format json
  full "extrapolate"    $N extrapolate --run 1 --db good.db --no-record
  full "export"         $N export --best 1 --db good.db
  full "--help"         $N --help
  full "sim --help"     $N sim --help
  full "db runs"        $N db runs --db good.db
  full "cc"             $N cc --topology ring:4 --cc aab
fi

# ---- a file-size limit: ga reports the failed write, the DB stays valid ---
err=$( (ulimit -f 100; exec $N ga --traffic brev --size 16 --generations 400 --stack-vmax 16 --threads 1 \
          --quiet --db fsize.db) 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] && ok || bad "ulimit -f: exit $rc, want 1 ($err)"
case $err in *"nocsim ga: database:"*) ok;; *) bad "ulimit -f: message '$err'";; esac
ic=$(sqlite3 fsize.db "pragma integrity_check" 2>&1)
[ "$ic" = ok ] && ok || bad "ulimit -f: integrity_check says $ic"

# ---- the kind decides, not the text: the machine's faults exit 1 ----------
# A thread that cannot be started is a resource fault (sim/pool.c), not bad
# input and not a quietly smaller pool: with 1 GB thread stacks in 1.5 GB of
# address space the third evaluation thread cannot start.  Not under ASan
# (its shadow memory needs the address space).
if ! grep -q __asan_init "$N" 2>/dev/null; then
  for c in "stack --interval 8:12" "ga --generations 2 --no-db --quiet"; do
    expect 1 "cannot start evaluation thread 3 of 4" "${c%% *}: a thread that cannot start" \
      sh -c "ulimit -s 1000000; ulimit -v 1500000; exec \"$N\" $c --traffic brev --size 8 --threads 4"
  done
  # Memory that runs out in sim_new is a resource fault too; the same
  # command with room is fine, so the limit is what fails it.
  expect 1 "out of memory" "sim: out of memory" \
    sh -c "ulimit -v 60000; exec \"$N\" sim --traffic brev --size 256 --slices 64"
fi
expect 2 "--traffic" "sim: bad traffic is bad input" $N sim --traffic nosuch
expect 2 "Is a directory" "sim: a directory as the traffic file is bad input" $N sim --traffic file:/
expect 1 "read error" "sim: a traffic file whose read fails is I/O" $N sim --traffic file:/proc/self/mem
expect 1 "read error" "ga: the same from the GA" $N ga --traffic file:/proc/self/mem --size 4 --no-db --quiet
expect 1 "read error" "sim: a --config whose read fails is I/O" $N sim --config /proc/self/mem
expect 2 "No such file" "sim: a missing --config is bad input" $N sim --config /nonexistent/x.cfg
expect 1 "read error" "plot stack: a sweep file whose read fails is I/O" $N plot stack /proc/self/mem -o "$tmp/x.png"
expect 2 "--traffic" "load: bad traffic is bad input" $N load --traffic nosuch

# ---- signals: 130 for SIGINT, 143 for SIGTERM, the run resumable ---------
# start_ga DB: a run long enough to be stopped, waited for until it has
# recorded a few generations.
start_ga() {
  $N ga --traffic brev --size 16 --pop 20 --stack-vmax 16 --evals 400000 --threads 1 --quiet --db "$1" \
    >/dev/null 2>"$1.err" &
  pid=$!
  for _ in $(seq 1 500); do
    gen=$(sqlite3 "$1" "select coalesce(max(generation),0) from generations" 2>/dev/null || echo 0)
    [ "${gen:-0}" -ge 3 ] && return 0
    sleep 0.02
  done
  return 1
}
for s in INT:130 TERM:143; do
  sig=${s%%:*} want=${s#*:} db=sig$sig.db
  if start_ga "$db"; then
    kill -$sig $pid; wait $pid; rc=$?; pid=
    [ $rc -eq "$want" ] && ok || bad "SIG$sig: exit $rc, want $want ($(cat "$db.err"))"
    case $(cat "$db.err") in *"stopped by SIG$sig"*"--resume 1"*) ok;; *) bad "SIG$sig: message '$(cat "$db.err")'";; esac
    st=$(sqlite3 "$db" "select status from runs where id = 1")
    [ "$st" = unfinished ] && ok || bad "SIG$sig: status $st, want unfinished"
    # The resumed run continues (a short budget would be refused: parameters
    # come from the run) and is stopped again, still resumable.
    expect 2 "--evals: a resumed run keeps" "SIG$sig: resume with --evals" timeout 20 $N ga --db "$db" --resume 1 --evals 10
  else
    kill -9 $pid 2>/dev/null; pid=
    bad "SIG$sig: the run did not get going"
  fi
done
out=$($N ga --db sigINT.db --resume 1 --quiet --threads 1 --format json 2>&1 &
      p=$!; sleep 0.5; kill -INT $p; wait $p; echo "rc=$?")
case $out in *rc=130*) ok;; *) bad "resumed run stopped by SIGINT: $out";; esac

# ---- nocsim without a command: a short hint ------------------------------
expect 2 "nocsim --help lists the commands" "nocsim alone" $N

echo "exit_codes: $pass passed, $fail failed"
[ $fail -eq 0 ]
