# Shared by the shell tests (sourced, before they change directory): the
# pass/fail counters, ok/bad, and check WHAT GOT WANT.  Each test ends with
# its own "NAME: N passed, M failed" line built from pass and fail.
# expect STATUS FRAGMENT WHAT CMD... runs CMD and wants that exit status and
# one line on stderr holding FRAGMENT (a test may define its own expect).
pass=0 fail=0
# in_scratch: make $N an absolute path, then work in a new scratch folder
# ($tmp, removed at exit, read-only parts included; a background run whose
# process id is in $pid is killed first).
in_scratch() {
  case $N in /*) ;; *) N=$PWD/$N;; esac
  tmp=$(mktemp -d) || exit 1
  pid=
  trap '[ -n "${pid:-}" ] && kill -9 "$pid" 2>/dev/null; chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
  cd "$tmp" || exit 1
}
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { [ "$2" = "$3" ] && ok || bad "$1: got '$2', want '$3'"; }
# expect_usage WHAT FRAGMENT COMMAND...: COMMAND refuses its input as a usage
# error: exit status 2, nothing on stdout, exactly one line on stderr, and
# that line contains FRAGMENT.  Returns 0 when all of it holds.
expect_usage() { expect_usage_ one "$@"; }
# expect_usage_launched WHAT FRAGMENT COMMAND...: the same for a program run
# through a launcher (mpirun) that adds lines of its own after the
# program's: the first line of stderr must contain FRAGMENT.
expect_usage_launched() { expect_usage_ first "$@"; }
expect_usage_() {
  local mode=$1 what=$2 frag=$3; shift 3
  local o e rc err
  o=$(mktemp) e=$(mktemp)
  "$@" >"$o" 2>"$e"; rc=$?
  err=$(cat "$e")
  local nout nerr; nout=$(wc -c <"$o") nerr=$(wc -l <"$e")
  local head; head=$(head -c 200 "$o")
  [ "$mode" = first ] && err=$(head -n 1 "$e") nerr=1
  rm -f "$o" "$e"
  [ "$rc" -eq 2 ] || { bad "$what: exit $rc, want 2 ($err)"; return 1; }
  [ "$nout" -eq 0 ] || { bad "$what: wrote to stdout: $head"; return 1; }
  [ "$nerr" -eq 1 ] || { bad "$what: stderr is not one line: $err"; return 1; }
  case $err in *"$frag"*) ok ;; *) bad "$what: '$err' lacks '$frag'"; return 1 ;; esac
}
# expect STATUS FRAGMENT WHAT CMD... runs CMD and wants that exit status and
# one line on stderr holding FRAGMENT (a test may define its own expect).
expect() {
  local want=$1 frag=$2 what=$3; shift 3
  local err; err=$("$@" 2>&1 >/dev/null); local rc=$?
  [ $rc -eq "$want" ] || { bad "$what: exit $rc, want $want ($err)"; return; }
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || { bad "$what: not one line: $err"; return; }
  case $err in *"$frag"*) ok;; *) bad "$what: '$err' lacks '$frag'";; esac
}
# busy_factor: how many times over the machine is busy, the 1-minute load
# average per core rounded up, at least 1: a wall-clock limit times it stays
# tight on a quiet machine and wide on a loaded one (a CI run beside other
# builds once took 2.5-2.9 s to stop a run that stops in 0.1 s when quiet).
busy_factor() {
  awk -v n="$(nproc 2>/dev/null || echo 1)" '{ f = $1 / n; print (f > 1 ? int(f + 0.999) : 1) }' /proc/loadavg 2>/dev/null ||
    echo 1
}
# stop_after SECONDS SIGNAL WANT_STATUS WHAT CMD...: start CMD, send SIGNAL after
# SECONDS, and want it to end with WANT_STATUS within 1.5 s (times
# busy_factor, taken as the signal is sent); stderr in err.txt
# (in the current directory); the job's id is in pid while it runs, for the
# test's EXIT trap.
stop_after() {
  local secs=$1 sig=$2 want=$3 what=$4; shift 4
  "$@" >/dev/null 2>err.txt & pid=$!
  sleep "$secs"
  if ! kill -0 $pid 2>/dev/null; then bad "$what: ended before the signal ($(cat err.txt))"; pid=; return; fi
  local lim=$((1500 * $(busy_factor)))
  local t0; t0=$(date +%s%N)
  kill -"$sig" $pid
  wait $pid; local rc=$?; pid=
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  check "$what: exit" $rc "$want"
  [ $ms -lt $lim ] && ok || bad "$what: took $ms ms to stop (limit $lim ms)"
}
# kill_sweep_midway PID DB KIND COUNT LABEL: wait until DB holds COUNT runs
# of KIND, then SIGKILL the sweep whose process is PID, or, with KILL_RANK
# set, the rank of that number of its MPI job (found by its environment);
# waits for PID to end.
kill_sweep_midway() {
  local spid=$1 db=$2 kind=$3 count=$4 label=$5 n=0
  for _ in $(seq 1 400); do
    n=$(sqlite3 "$db" "select count(*) from runs where kind = '$kind'" 2>/dev/null || echo 0)
    [ "${n:-0}" -ge "$count" ] && break
    sleep 0.02
  done
  if [ -n "${KILL_RANK:-}" ]; then
    local victim=
    for p in $(pgrep -f "nocsim sweep"); do
      grep -qz "^OMPI_COMM_WORLD_RANK=$KILL_RANK\$" /proc/$p/environ 2>/dev/null && victim=$p
    done
    [ -n "$victim" ] && kill -9 "$victim" || bad "$label: no rank $KILL_RANK to kill"
  else
    kill -9 "$spid"
  fi
  wait "$spid" 2>/dev/null
}
