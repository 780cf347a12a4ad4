# Shared by the shell tests (sourced, before they change directory): the
# pass/fail counters, ok/bad, and check WHAT GOT WANT.  Each test ends with
# its own "NAME: N passed, M failed" line built from pass and fail.
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { [ "$2" = "$3" ] && ok || bad "$1: got '$2', want '$3'"; }
# expect_usage WHAT FRAGMENT COMMAND...: the command fails with exit status 2
# and one line on stderr that contains FRAGMENT.
expect_usage() {
  local what=$1 frag=$2; shift 2
  local err; err=$("$@" 2>&1 >/dev/null); local rc=$?
  if [ $rc -ne 2 ]; then bad "$what: exit $rc, want 2"; return; fi
  if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then bad "$what: error is not one line: $err"; return; fi
  case $err in *"$frag"*) ok;; *) bad "$what: '$err' lacks '$frag'";; esac
}
