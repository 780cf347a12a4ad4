#!/usr/bin/env bash
# run_tests.sh [-j JOBS] [-d LOGDIR] [-s "NAME..."] [-p PASS_RE] [-f FAIL_RE] TEST...
#
# Runs the tests JOBS at a time (default: the number of cores; -j 1 runs them
# one after another) and prints each one whole, in the order given, however
# they were scheduled: a "== TEST" header, its output, then
# "PASS NAME (S s)" or "FAIL NAME (exit N, S s)".  Exits 1 if any test
# failed, after a line naming them all.
#
# A TEST is a command line split at spaces: "tests/x.sh" runs under bash,
# anything else is run as it is ("build/tests/test_sim",
# "build/tests/fuzz_engines_random 5").  NAME is the basename of its first
# word; its output (stdout and stderr, stdin from /dev/null) goes to
# LOGDIR/NAME.log (default build/test-logs), kept after the run.
#
# -p / -f: print only the lines of the log matching this extended regex when
#    the test passes / fails, instead of the whole log.
# -s: the names to start first, longest first, so that the last ones to
#    finish are short and the lanes end together.  A previous run's
#    LOGDIR/times (one "SECONDS NAME" a line, written at the end of every
#    run, merged with the earlier ones) orders the start instead when it
#    has them all.
set -u
jobs=$(nproc 2>/dev/null || echo 1) logdir=build/test-logs slow= pass_re= fail_re=
while getopts 'j:d:s:p:f:' o; do
  case $o in
    j) jobs=$OPTARG;; d) logdir=$OPTARG;; s) slow=$OPTARG;;
    p) pass_re=$OPTARG;; f) fail_re=$OPTARG;;
    *) echo "usage: run_tests.sh [-j JOBS] [-d LOGDIR] [-s NAMES] [-p RE] [-f RE] TEST..." >&2; exit 2;;
  esac
done
shift $((OPTIND - 1))
case $jobs in ''|*[!0-9]*|0) echo "run_tests.sh: -j wants a positive integer, not '$jobs'" >&2; exit 2;; esac
tests=("$@") n=$#
[ "$n" -gt 0 ] || exit 0
mkdir -p "$logdir" || exit 1
state=$(mktemp -d) || exit 1
pids=()   # pids[I]: the process (and process group) of running test I
# Each test runs in a process group of its own (job control on), so that a
# stopped run (Ctrl-C, a CI timeout) ends the running tests whole, with
# whatever they started themselves; job control's "Terminated" notices are
# not printed then.
set -m
trap 'exec 2>/dev/null; for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null; done; rm -rf "$state"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

names=()
declare -A index=()
for i in "${!tests[@]}"; do
  read -ra w <<< "${tests[$i]}"
  names[i]=$(basename "${w[0]}")
  if [ -n "${index[${names[i]}]+x}" ]; then
    echo "run_tests.sh: two tests named ${names[i]}" >&2; exit 2
  fi
  index[${names[i]}]=$i
done

# The start order: indices, the longest first.
order=()
declare -A took=()
if [ -f "$logdir/times" ]; then
  while read -r s name; do took[$name]=$s; done < "$logdir/times"
fi
all_known=1
for name in "${names[@]}"; do [ -n "${took[$name]+x}" ] || all_known=0; done
if [ "$all_known" = 1 ]; then
  while read -r _ i; do order+=("$i"); done < <(for i in "${!names[@]}"; do echo "${took[${names[i]}]} $i"; done | sort -k1,1gr -k2,2n)
else
  declare -A first=()
  for name in $slow; do
    [ -n "${index[$name]+x}" ] && [ -z "${first[$name]+x}" ] && { order+=("${index[$name]}"); first[$name]=1; }
  done
  for i in "${!names[@]}"; do [ -n "${first[${names[i]}]+x}" ] || order+=("$i"); done
fi

# Each test, when done, writes "I STATUS MS" to this pipe (a line is written
# at once, whole); the loop below reads them as they come.
mkfifo "$state/done" && exec 3<> "$state/done" || exit 1

# run_one I: test I, its output to its log (fd 3 closed for it).
run_one() {
  local i=$1 w t0 rc
  read -ra w <<< "${tests[$i]}"
  case ${w[0]} in *.sh) w=(bash "${w[@]}");; esac
  t0=$(date +%s%N)
  "${w[@]}" > "$logdir/${names[i]}.log" 2>&1 < /dev/null 3>&-
  rc=$?
  echo "$i $rc $(( ($(date +%s%N) - t0) / 1000000 ))" >&3
}

# report I: the header, the log (or its matching lines), the verdict.
failed=() times=()
report() {
  local i=$1 rc=${status[$1]} ms=${msecs[$1]} log secs w
  log=$logdir/${names[i]}.log
  secs=$(printf '%d.%d' $((ms / 1000)) $((ms % 1000 / 100)))
  read -ra w <<< "${tests[$i]}"
  echo "== ${w[*]}"
  if [ "$rc" = 0 ]; then
    if [ -n "$pass_re" ]; then grep -E -- "$pass_re" "$log"; else cat "$log"; fi
    echo "PASS ${names[i]} ($secs s)"
  else
    if [ -n "$fail_re" ]; then grep -E -- "$fail_re" "$log"; else cat "$log"; fi
    echo "FAIL ${names[i]} (exit $rc, $secs s; log $log)"
    failed+=("${names[i]}")
  fi
  times+=("$(( ms / 1000 )).$(printf '%03d' $((ms % 1000))) ${names[i]}")
}

t_all=$(date +%s)
status=() msecs=()
next=0 printed=0 running=0
while [ "$printed" -lt "$n" ]; do
  # Fill the free lanes.
  while [ "$running" -lt "$jobs" ] && [ "$next" -lt "$n" ]; do
    run_one "${order[$next]}" &
    pids[${order[$next]}]=$!
    next=$((next + 1)) running=$((running + 1))
  done
  # Wait for one to end, then print every finished test whose turn it is.
  read -r -u 3 i rc ms || { echo "run_tests.sh: lost the tests' pipe" >&2; exit 1; }
  status[i]=$rc msecs[i]=$ms running=$((running - 1))
  unset 'pids[i]'   # its group is gone: never signal a reused id
  while [ "$printed" -lt "$n" ] && [ -n "${status[$printed]+x}" ]; do
    report "$printed"
    printed=$((printed + 1))
  done
done
wait
# The times of this run, and those of earlier runs for tests not run now.
for t in "${times[@]}"; do took[${t#* }]=${t%% *}; done
for name in "${!took[@]}"; do echo "${took[$name]} $name"; done | sort -k1,1gr > "$logdir/times"
echo "== $n tests, ${#failed[@]} failed, $jobs at a time, $(( $(date +%s) - t_all )) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
