#!/usr/bin/env bash
# scripts/run_tests.sh, the runner `make check` uses: bad options are refused
# with exit 2 before anything runs; tests run in parallel are printed whole in
# the order given, a failure is named and gives exit 1; a stopped run ends
# the tests it started and leaves no side files.
set -u
N=${NOCSIM:-./nocsim}
source "$(dirname "$0")/testlib.bash"
runner=$(cd "$(dirname "$0")/.." && pwd)/scripts/run_tests.sh
in_scratch

# Three tests: the first is the slowest, so with two lanes the second and
# third finish before it; the output must still follow the given order.
cat > slow.sh <<'EOF'
sleep 1; echo slow-output
EOF
cat > fast.sh <<'EOF'
echo fast-output
EOF
cat > broken.sh <<'EOF'
echo broken-output; exit 3
EOF

bash "$runner" -j 0 slow.sh > out.txt 2> err.txt
check "-j 0: exit" $? 2
grep -q "positive integer" err.txt && ok || bad "-j 0: message: $(cat err.txt)"
[ ! -e build ] && ok || bad "-j 0: a log folder was made"
bash "$runner" -j 2 -d logs slow.sh slow.sh > out.txt 2> err.txt
check "two tests of one name: exit" $? 2

bash "$runner" -j 2 -d logs slow.sh fast.sh broken.sh > out.txt 2> err.txt
check "a failing test: exit" $? 1
check "printed in the given order" "$(grep -E '^(== [a-z]+\.sh|PASS |FAIL )' out.txt | cut -d' ' -f1-2 | tr '\n' ' ')" \
  "== slow.sh PASS slow.sh == fast.sh PASS fast.sh == broken.sh FAIL broken.sh "
grep -q "^FAIL broken.sh (exit 3" out.txt && ok || bad "exit status not named: $(cat out.txt)"
grep -q "^FAILED: broken.sh$" out.txt && ok || bad "failures not listed: $(cat out.txt)"
check "each test's own log" "$(cat logs/fast.sh.log)" fast-output
check "times recorded" "$(wc -l < logs/times)" 3

bash "$runner" -j 2 -d logs2 fast.sh > out.txt 2> err.txt
check "all passing: exit" $? 0

# Stopped mid-run: the running test, and what it started itself, are ended
# with the runner, exit 143.
cat > long.sh <<'EOF'
sleep 60 & echo $! > child.pid
echo $$ > long.pid; wait
EOF
# ended PID: the process is gone, or a zombie (an orphan's zombie waits for
# PID 1 to reap it, which may take a while), within five seconds.
ended() {
  local _
  for _ in $(seq 50); do
    kill -0 "$1" 2> /dev/null || return 0
    [ "$(awk '{print $3}' "/proc/$1/stat" 2> /dev/null)" = Z ] && return 0
    sleep 0.1
  done
  return 1
}
mkdir own-tmp
TMPDIR=$PWD/own-tmp bash "$runner" -j 1 -d logs3 long.sh > out.txt 2> err.txt &
pid=$!
for _ in $(seq 50); do [ -s long.pid ] && break; sleep 0.1; done
kill -TERM $pid
wait $pid
check "stopped: exit" $? 143
ended "$(cat long.pid)" && ok || bad "the running test outlived the runner"
ended "$(cat child.pid)" && ok || bad "a process the running test started outlived the runner"
check "stopped: nothing on stderr" "$(cat err.txt)" ""
check "stopped: no side files left" "$(ls -A own-tmp)" ""

echo "run_tests_script: $pass passed, $fail failed"
[ $fail -eq 0 ]
