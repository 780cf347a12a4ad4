#!/usr/bin/env bash
# Every mutant of tests/mutants/mutants.txt still applies: its file is in
# the tree and its sed changes it (scripts/mutants.sh --applies).  A moved
# line that leaves a mutant stale is found here, by make check, rather than
# at the next full mutant run.  Then the check's own rule at its outcomes
# on made-up lists: a sed that changes its file, one that changes nothing,
# one sed cannot run, a file not in the tree; names after --applies are
# refused; the tree is left untouched.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
script=$root/scripts/mutants.sh
N=${NOCSIM:-./nocsim}
. "$root/tests/testlib.bash"
in_scratch

out=$(bash "$script" --applies 2>&1); rc=$?
[ $rc -eq 0 ] && ok || bad "the project's mutants: exit $rc: $out"

before=$(cksum < "$root/sim/config.c")
list() { printf 'mutant %s\nfile sim/config.c\nsed %s\ntests test_config\n\n' "$1" "$2"; }
list applies 's/void sim_config_copy/void sim_config_kopy/' > good.txt
MUTANTS_LIST=good.txt bash "$script" --applies >/dev/null 2>&1 && ok || bad "a sed that changes its file is stale"
{ list applies 's/void sim_config_copy/void sim_config_kopy/'; list moved-on 's/no such line 4711/x/'; } > stale.txt
err=$(MUTANTS_LIST=stale.txt bash "$script" --applies 2>&1 >/dev/null); rc=$?
check "a stale sed: exit" "$rc" 1
check "a stale sed: message" "$err" "mutants.sh: mutant moved-on: the sed changes nothing in sim/config.c (mend stale.txt)"
list broken 's/(/x/' > broken.txt
err=$(MUTANTS_LIST=broken.txt bash "$script" --applies 2>&1 >/dev/null); rc=$?
check "a sed that cannot run: exit" "$rc" 1
check "a sed that cannot run: message" "$err" "mutants.sh: mutant broken: sed -E cannot run its expression"
printf 'mutant gone\nfile sim/no_such_file.c\nsed s/a/b/\ntests test_config\n' > gone.txt
err=$(MUTANTS_LIST=gone.txt bash "$script" --applies 2>&1 >/dev/null); rc=$?
check "a file not in the tree: exit" "$rc" 1
check "a file not in the tree: message" "$err" "mutants.sh: mutant gone: sim/no_such_file.c is not in the tree"
err=$(bash "$script" --applies delta-past-half-at-half 2>&1 >/dev/null); rc=$?
check "--applies with a name: exit" "$rc" 2
check "--applies with a name: message" "$err" "mutants.sh: --applies takes no mutant names (it checks them all)"
check "the tree untouched" "$(cksum < "$root/sim/config.c")" "$before"

echo "mutants_list: $pass passed, $fail failed"
[ $fail -eq 0 ]
