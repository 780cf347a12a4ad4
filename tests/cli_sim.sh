#!/usr/bin/env bash
# CLI contract of `nocsim sim` and `nocsim stack`: output formats, and bad
# input answered by one line on stderr naming the flag and exit status 2.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"

expect_usage "unknown traffic"   "unknown traffic 'foo'"     $N sim --traffic foo
expect_usage "non-pow2 bit"      "power-of-two"              $N sim --traffic brev --size 12
expect_usage "odd size"          "--size"                    $N sim --size 15
expect_usage "interval < L"      "below the packet length"   $N sim --slices 2 --interval 5
expect_usage "bad scheme"        "C00-C09"                   $N sim --arb C10
expect_usage "bad format"        "text json csv"             $N sim --format xml
expect_usage "unknown option"    "unknown option '--bogus'"  $N sim --bogus
expect_usage "missing value"     "--slices needs a value"    $N sim --slices
expect_usage "bad choice"        "nowrap plus minus"         $N sim --tie sideways
expect_usage "stack interval"    "--interval"                $N stack --interval 9:5
expect_usage "unknown command"   "unknown command"           $N frobnicate

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '0 5\n1 99\n' > "$tmp/t.txt"
expect_usage "traffic file node" "line 2"                    $N sim --size 4 --traffic "file:$tmp/t.txt"
printf 'scheme 0 E C01\nqorder 0 E 0 N E S W W\n' > "$tmp/c.txt"
expect_usage "config line"       "line 2"                    $N sim --size 4 --traffic bcmp --config "$tmp/c.txt"

# One packet of 3 hops on a 4x4 torus: duration H + L + 1 = 3 + 8 + 1.
printf '0 6  # (0,0) -> (2,1)\n' > "$tmp/one.txt"
d=$($N sim --size 4 --traffic "file:$tmp/one.txt" --format csv | tail -1 | cut -d, -f8)
[ "$d" = 12 ] && ok || bad "single packet duration $d, want 12"
j=$($N sim --size 4 --traffic "file:$tmp/one.txt" --format json)
case $j in *'"duration": 12'*) ok;; *) bad "json lacks duration: $j";; esac
# stack --format csv: header plus one row per scheme and interval.
rows=$($N stack --size 4 --traffic bcmp --arb C00,C05 --interval 8:12 --format csv | wc -l)
[ "$rows" = 11 ] && ok || bad "stack csv rows $rows, want 11"
$N --help >/dev/null && ok || bad "--help"
v=$($N --version); case $v in "nocsim "*) ok;; *) bad "--version: $v";; esac

echo "cli_sim: $pass passed, $fail failed"
[ $fail -eq 0 ]
