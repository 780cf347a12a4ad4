#!/usr/bin/env bash
# A traffic in which no node sends -- an empty file, /dev/null, only
# self-loops (skipped by --self skip) -- is bad input for load, sim and ga
# (issue 35): exit 2 and one line naming --traffic, not an all-zero curve or
# "improvement 0.000".  With --self send the self-loops do send.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
in_scratch
: > empty.txt
printf '0 0\n3 3\n' > selfs.txt
for t in file:empty.txt file:selfs.txt file:/dev/null; do
  expect 2 "--traffic $t: no node sends" "load $t" $N load --size 4 --traffic $t --rate 0.1 --no-db --quiet
  expect 2 "--traffic $t: no node sends" "sim $t" $N sim --size 4 --traffic $t
  expect 2 "--traffic $t: no node sends" "ga $t" $N ga --size 4 --traffic $t --generations 2 --no-db --quiet
done
$N sim --size 4 --traffic file:selfs.txt --self send >/dev/null && ok || bad "sim --self send with self-loops"
$N load --size 4 --traffic file:selfs.txt --self send --rate 0.1 --batch 200 --window 3 --threads 1 --no-db \
  --quiet >/dev/null && ok || bad "load --self send with self-loops"
echo "no_senders: $pass passed, $fail failed"
[ $fail -eq 0 ]
