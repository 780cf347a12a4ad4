# Shared by the shell tests (sourced, before they change directory): the
# pass/fail counters, ok/bad, and check WHAT GOT WANT.  Each test ends with
# its own "NAME: N passed, M failed" line built from pass and fail.
# expect STATUS FRAGMENT WHAT CMD... runs CMD and wants that exit status and
# one line on stderr holding FRAGMENT (a test may define its own expect).
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { [ "$2" = "$3" ] && ok || bad "$1: got '$2', want '$3'"; }
expect() {
  local want=$1 frag=$2 what=$3; shift 3
  local err; err=$("$@" 2>&1 >/dev/null); local rc=$?
  [ $rc -eq "$want" ] || { bad "$what: exit $rc, want $want ($err)"; return; }
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || { bad "$what: not one line: $err"; return; }
  case $err in *"$frag"*) ok;; *) bad "$what: '$err' lacks '$frag'";; esac
}
