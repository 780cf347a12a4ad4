# Shared by the shell tests (sourced, before they change directory): the
# pass/fail counters, ok/bad, and check WHAT GOT WANT.  Each test ends with
# its own "NAME: N passed, M failed" line built from pass and fail.
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { [ "$2" = "$3" ] && ok || bad "$1: got '$2', want '$3'"; }
