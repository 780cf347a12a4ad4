#!/usr/bin/env bash
# scripts/booksim2.sh refuses bad input before it deletes or builds anything:
# a folder that is not a booksim2 checkout, and a checkout inside the build
# folder (its rm -rf would take the checkout with it).  The build itself needs
# BookSim2's source and is not run here.
set -u
N=${NOCSIM:-./nocsim}
source "$(dirname "$0")/testlib.bash"
script=$(cd "$(dirname "$0")/.." && pwd)/scripts/booksim2.sh
in_scratch

mkdir -p empty
BOOKSIM_DIR=$PWD/build bash "$script" empty > out.txt 2> err.txt
check "not a checkout: exit" $? 2
grep -q "not a booksim2 checkout" err.txt && ok || bad "not a checkout: message: $(cat err.txt)"
[ ! -e build ] && ok || bad "not a checkout: the build folder was made"

mkdir -p build/src && echo "all:" > build/src/Makefile && echo keep > build/src/mine.txt
BOOKSIM_DIR=$PWD/build bash "$script" build > out.txt 2> err.txt
check "checkout is the build folder: exit" $? 2
grep -q "inside the build folder" err.txt && ok || bad "same folder: message: $(cat err.txt)"
check "checkout is the build folder: kept" "$(cat build/src/mine.txt)" keep
BOOKSIM_DIR=$PWD/build/.. bash "$script" build/src/.. > out.txt 2> err.txt
check "checkout inside the build folder: exit" $? 2
check "checkout inside the build folder: kept" "$(cat build/src/mine.txt)" keep

echo "booksim2_script: $pass passed, $fail failed"
[ $fail -eq 0 ]
