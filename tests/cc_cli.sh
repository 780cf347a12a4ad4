#!/usr/bin/env bash
# CLI-level tests of `nocsim cc`: exit codes, one-line errors, run -> --out -> verify.
set -u
N=${NOCSIM:-./nocsim}
fail=0 checks=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expect() {  # want-status description command...
  local want=$1 what=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?
  checks=$((checks + 1))
  if [ "$got" != "$want" ]; then echo "FAIL: $what: exit $got, want $want"; cat "$tmp/err"; fail=1; failed=$((failed + 1)); fi
}
expect 0 "help" "$N" cc --help
expect 2 "missing --cc" "$N" cc --topology octagon
grep -q -- "--cc" "$tmp/err" || { echo "FAIL: missing --cc message"; fail=1; }
expect 2 "bad --cc" "$N" cc --topology octagon --cc xyz
[ "$(wc -l <"$tmp/err")" = 1 ] || { echo "FAIL: error is not one line"; fail=1; }
expect 2 "bad topology" "$N" cc --topology mesh:0x3 --cc oab
expect 2 "bad root" "$N" cc --topology octagon --cc oab --root 99
expect 2 "bad fault" "$N" cc --topology octagon --cc oab --fail-link 0-2
expect 2 "disconnecting faults" "$N" cc --topology ring:4 --cc aas --fail-link 0-1 --fail-link 2-3
expect 2 "unknown option" "$N" cc --topology octagon --cc oab --bogus
expect 0 "bounds" "$N" cc bounds --topology mesh:4x4 --cc aas
grep -q "lower bound: 16" "$tmp/out" || { echo "FAIL: mesh AAS bound"; fail=1; }
expect 0 "run octagon oas" "$N" cc --topology octagon --cc oas --out "$tmp/s.json"
expect 0 "verify own schedule" "$N" cc verify "$tmp/s.json" --topology octagon --cc oas --steps 3
expect 1 "verify against a fault" "$N" cc verify "$tmp/s.json" --topology octagon --cc oas --fail-link 0-4
sed 's/"step": 1,/"step": 0,/' "$tmp/s.json" >"$tmp/bad.json"
expect 1 "verify port/conflict" "$N" cc verify "$tmp/bad.json" --topology octagon --cc oas --ports 3
printf '{"schedule": [\n  {"step": 0 "transfers": []}]}\n' >"$tmp/broken.json"
expect 2 "verify unparsable" "$N" cc verify "$tmp/broken.json" --topology octagon --cc oas
grep -q "line 2" "$tmp/err" || { echo "FAIL: parse error does not name the line"; fail=1; }
expect 0 "json runs" "$N" cc --topology hypercube:3 --cc oab --runs 3 --format json
grep -q '"success_rate": 1.0000' "$tmp/out" || { echo "FAIL: success rate"; fail=1; }
expect 0 "save to a database" "$N" cc --topology octagon --cc oab --db "$tmp/cc.db"
if command -v sqlite3 >/dev/null; then
  [ "$(sqlite3 "$tmp/cc.db" 'select steps from cc_schedules')" = 2 ] || { echo "FAIL: --db schedule row"; fail=1; }
fi
# Counts the exit-status checks; a failed content check above also fails the script.
echo "cc_cli: $((checks - failed)) passed, $failed failed"
exit $fail
