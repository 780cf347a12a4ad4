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
# Under ASan the 16x16 cases take a minute and a half; test_delta and
# fuzz_delta run the delta engine there, so the 8x8 cases (small) suffice.
mode=quick want=5
if grep -q __asan_init "$N" 2>/dev/null; then mode=small want=3; fi
out=$(bash "$S" "$N" $mode 2>&1) && ok || bad "scripts/delta_identity.sh $N $mode exited $?"
printf '%s\n' "$out"
check "cases the same" "$(printf '%s\n' "$out" | grep -c '^same ')" $want
echo "delta_identity: $pass passed, $fail failed"
[ "$fail" = 0 ]
