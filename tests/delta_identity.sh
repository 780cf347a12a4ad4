#!/usr/bin/env bash
# `nocsim ga --delta on` gives exactly the results of `--delta off` (issue
# 38): scripts/delta_identity.sh's quick cases (the default pattern on one
# and two threads, a mesh, --watchdog, and a --delta on run killed and
# resumed), each compared on its JSON summary, database and checkpoint.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
S=$(cd "$(dirname "$0")/.." && pwd)/scripts/delta_identity.sh
case $N in /*) ;; *) N=$PWD/$N;; esac
out=$(bash "$S" "$N" quick 2>&1) && ok || bad "scripts/delta_identity.sh $N quick exited $?"
printf '%s\n' "$out"
check "cases the same" "$(printf '%s\n' "$out" | grep -c '^same ')" 5
echo "delta_identity: $pass passed, $fail failed"
[ "$fail" = 0 ]
