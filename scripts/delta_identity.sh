#!/usr/bin/env bash
# Does `nocsim ga --delta on` give exactly the results of `--delta off`
# (issue 38: a child simulated as its difference from its parent's run must
# change nothing but the time)?  Runs each case below twice, each side in a
# folder of its own with a database of its own and fixed seeds, and compares
# byte for byte:
#  - the JSON summary on stdout and the exit status (the wall-clock field
#    "seconds" taken out);
#  - the database, `sqlite3 DB .dump` of a copy whose wall-clock and random
#    columns are blanked by name: runs.uuid, runs.started, runs.finished,
#    generations.elapsed, checkpoints.updated, and checkpoints.data (with its
#    compressed length data_len), which is compared on its own:
#  - each checkpoint, decompressed, but for its elapsed seconds (a double at
#    a fixed place, ga/checkpoint.c) and the CRC-32 signature over them.
#
#   scripts/delta_identity.sh [NOCSIM [quick|small|full [MPI_NOCSIM]]]
#
# NOCSIM defaults to ./nocsim.  quick: five cases, --evals 3000 (the
# default run's start spends 1,870 of them; tests/delta_identity.sh), one
# of them --delta on SIGKILLed after 1.6 s and resumed; small: its three
# 8x8 cases (the ASan build's);
# full (the default): every traffic pattern `nocsim ga --help` lists, torus
# and mesh, both VC rules, --threads 1 and 2, --algo paper, --watchdog,
# --children 2, and with MPI_NOCSIM (a `make MPI=1` build; mpirun needed)
# --islands on two ranks.  Prints one line a case (same / DIFFERENT, with
# the first differences) and exits 1 when any differs, 2 on bad arguments.
set -u
N=${1:-./nocsim}
mode=${2:-full}
M=${3:-}
if [ ! -x "$N" ] || { [ "$mode" != quick ] && [ "$mode" != small ] && [ "$mode" != full ]; } || { [ -n "$M" ] && [ ! -x "$M" ]; }; then
  echo "usage: scripts/delta_identity.sh [NOCSIM [quick|small|full [MPI_NOCSIM]]]" >&2
  exit 2
fi
command -v sqlite3 >/dev/null && command -v python3 >/dev/null ||
  { echo "delta_identity: needs sqlite3 and python3" >&2; exit 2; }
N=$(realpath "$N"); [ -n "$M" ] && M=$(realpath "$M")
work=$(mktemp -d "${TMPDIR:-/tmp}/nocsim-delta-XXXXXX"); trap 'rm -rf "$work"' EXIT
bad=0 cases=0

# The checkpoints of database $1, one line each: run, then the decompressed
# blob in hex with the elapsed seconds and the signature zeroed.  The
# elapsed double follows the magic, the parameters (25 integers, 4 doubles,
# the seed, 18 network integers and, for a routing function other than dor
# ("NCK8"), 3 more), the traffic's name (256 bytes), one integer per node,
# the generator (4) and 20 counters.
checkpoints() {
  sqlite3 "$1" "SELECT c.run, r.size, hex(c.data) FROM checkpoints c JOIN runs r ON r.id = c.run ORDER BY c.run" |
  python3 -c '
import struct, sys, zlib
for line in sys.stdin:
    run, size, blob = line.strip().split("|")
    # The store compresses the GA blob (its length, then its own zlib stream).
    raw = bytearray(zlib.decompress(zlib.decompress(bytes.fromhex(blob))[8:]))
    at = 4 + 25 * 8 + 4 * 8 + 8 + 18 * 8 + (24 if raw[:4] == b"NCK8" else 0) + 256 + 8 * int(size) ** 2 + 32 + 20 * 8
    (elapsed,) = struct.unpack_from("<d", raw, at)
    if not 0 <= elapsed < 1e6:
        sys.exit("checkpoint of run %s: no elapsed seconds at byte %d (%r): layout changed?" % (run, at, elapsed))
    raw[at:at + 8] = bytes(8)
    raw[-4:] = bytes(4)
    print(run, raw.hex())
'
}

# The database $1 without its wall-clock and random columns, as SQL text.
dump() {
  sqlite3 "$1" ".backup '$1.copy'" || return 1
  sqlite3 "$1.copy" "UPDATE runs SET uuid = printf('%032d', 0), started = '_', finished = CASE WHEN finished IS NULL THEN NULL ELSE '_' END;
    UPDATE generations SET elapsed = 0;
    UPDATE checkpoints SET updated = '_', data_len = 0, data = x'';" >/dev/null && sqlite3 "$1.copy" .dump
}

# side DIR DELTA LAUNCHER... -- ARGS...: one side of a case, into DIR.
side() {
  local dir=$1 d=$2; shift 2
  local launch=()
  while [ "$1" != -- ]; do launch+=("$1"); shift; done
  shift
  mkdir -p "$dir"
  (cd "$dir" && "${launch[@]}" ga --quiet --format json --db ga.db --delta $d "$@" > out.json 2> err.txt
   echo "exit $?" >> out.json)
}

# killed DIR DELTA ARGS...: the run SIGKILLed after 1.6 s and resumed
# (with the same --delta, which is not recorded) to its end.
killed() {
  local dir=$1 d=$2; shift 2
  mkdir -p "$dir"
  (cd "$dir" && { "$N" ga --quiet --format json --db ga.db --delta $d "$@" > out.json 2> err.txt &
     p=$!; sleep 1.6; kill -9 $p; wait $p; echo "exit $?" >> out.json; } 2>/dev/null
   if [ "$(sqlite3 ga.db "SELECT status FROM runs WHERE id = 1")" = unfinished ]; then
     echo "killed at generation $(sqlite3 ga.db "SELECT generation FROM checkpoints WHERE run = 1"), resumed" > how
     "$N" ga --quiet --format json --db ga.db --resume 1 --delta $d > out.json 2>> err.txt
     echo "exit $?" >> out.json
   else
     echo "finished before the kill: not resumed" > how
   fi)
}

# compare NAME WHAT: the two sides' outputs, database and checkpoints.
compare() {
  local name=$1 what=$2 a=$work/$1.off b=$work/$1.on
  cases=$((cases + 1))
  for dir in "$a" "$b"; do
    sed -E 's/"seconds": *[^,}]*/"seconds": _/' "$dir/out.json" > "$dir/out.clean"
    { dump "$dir/ga.db"; checkpoints "$dir/ga.db"; } > "$dir/db.clean" 2>> "$dir/err.txt"
  done
  if cmp -s "$a/out.clean" "$b/out.clean" && cmp -s "$a/db.clean" "$b/db.clean" && [ -s "$a/db.clean" ]; then
    echo "same       $name: $what"
  else
    echo "DIFFERENT  $name: $what"
    diff "$a/out.clean" "$b/out.clean" | head -4
    diff "$a/db.clean" "$b/db.clean" | cut -c1-200 | head -4
    head -3 "$a/err.txt" "$b/err.txt"
    bad=1
  fi
}

# run NAME LAUNCHER... -- ARGS...: the case with --delta off and on.
run() {
  local name=$1; shift
  side "$work/$name.off" off "$@"
  side "$work/$name.on" on "$@"
  while [ "$1" != -- ]; do shift; done
  shift
  compare "$name" "nocsim ga $*"
}

# resumed NAME ARGS...: --delta off straight through, --delta on killed
# and resumed (the records written again after the resume).
resumed() {
  local name=$1; shift
  side "$work/$name.off" off "$N" -- "$@"
  killed "$work/$name.on" on "$@"
  compare "$name" "nocsim ga $* (on: $(cat "$work/$name.on/how"))"
}

evals=3000
ga=(--evals $evals)
if [ "$mode" = quick ] || [ "$mode" = small ]; then
  if [ "$mode" = quick ]; then
    run default-t2 "$N" -- "${ga[@]}" --traffic brev --slices 2 --seed 1 --threads 2
    run default-t1 "$N" -- "${ga[@]}" --traffic brev --slices 2 --seed 2 --threads 1
  fi
  run mesh-dl    "$N" -- "${ga[@]}" --size 8 --topology mesh --vc-rule dateline --traffic trns --slices 3 --seed 2 --threads 1
  run watchdog   "$N" -- "${ga[@]}" --size 8 --traffic torn --slices 2 --seed 4 --watchdog 20 --threads 2
  resumed resume --evals 20000 --size 8 --traffic brev --slices 2 --seed 5 --threads 1
else
  run default-t2 "$N" -- "${ga[@]}" --traffic brev --slices 2 --seed 1 --threads 2
  run default-t1 "$N" -- "${ga[@]}" --traffic brev --slices 2 --seed 1 --threads 1
  # Every pattern --help lists but a file's.
  for t in $("$N" ga --help | sed -n -E 's/^ *--traffic T +//p' | tr ' ' '\n' | grep -v :); do
    run "$t"     "$N" -- "${ga[@]}" --traffic "$t" --slices 2 --seed 3 --threads 2
  done
  run mesh-dl    "$N" -- "${ga[@]}" --size 8 --topology mesh --vc-rule dateline --traffic trns --slices 3 --seed 2 --threads 2
  run mesh-any   "$N" -- "${ga[@]}" --size 8 --topology mesh --vc-rule any --vcs 2 --traffic randperm --slices 3 --seed 2
  run torus-8    "$N" -- "${ga[@]}" --size 8 --traffic brev --slices 3 --seed 7 --threads 1
  run watchdog   "$N" -- "${ga[@]}" --traffic torn --slices 2 --seed 4 --watchdog 20 --threads 2
  run children-2 "$N" -- "${ga[@]}" --traffic brev --slices 2 --seed 5 --children 2
  run pop-3      "$N" -- "${ga[@]}" --size 8 --traffic shfl --slices 2 --seed 6 --pop 3 --threads 2
  run paper      "$N" -- --algo paper --generations 15 --traffic brev --slices 2 --seed 6
  resumed resume --evals 20000 --size 8 --traffic brev --slices 2 --seed 5 --threads 2
  if [ -n "$M" ] && command -v mpirun >/dev/null; then
    run islands  mpirun --allow-run-as-root --oversubscribe -np 2 "$M" -- "${ga[@]}" --islands --migrate-every 5 \
                 --size 8 --traffic brev --slices 2 --seed 8 --threads 1
  else
    echo "skipped    islands (give a 'make MPI=1' build as MPI_NOCSIM; needs mpirun)"
  fi
fi
echo "delta_identity: $cases cases, $([ $bad = 0 ] && echo all the same || echo SOME DIFFERENT)"
exit $bad
