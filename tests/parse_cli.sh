#!/usr/bin/env bash
# Text input end to end (issue 10): lines of any length read whole, NUL bytes
# refused, numbers and lists parsed strictly, chromosome files complete and
# matching their signature, input echoed escaped.  Every refusal is one line
# on stderr and exit status 2.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
expect_eq() { # description, want, got
  [ "$2" = "$3" ] && ok || bad "$1: got '$3', want '$2'"
}
json_field() { # field, json text: the number after "field":
  printf '%s\n' "$2" | tr ',' '\n' | sed -n "s/.*\"$1\": \([0-9-]*\).*/\1/p" | head -1
}
zeros() { printf '0%.0s' $(seq "$1"); }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# --- lines longer than the old 512/1024-byte buffers are read whole ---------
# A comment of 1022 bytes that ends in a directive: still a comment, the run
# keeps the default interval 16 (the old reader parsed the tail: interval 99).
# (The setting after it keeps the file from being one with no chromosome.)
{ printf '#'; printf 'x%.0s' $(seq 1021); printf ' interval 99\ninject 0 0\n'; } > "$tmp/long.cfg"
j=$($N sim --size 4 --traffic bcmp --config "$tmp/long.cfg" --format json)
expect_eq "config: long comment's tail ignored" 16 "$(json_field interval "$j")"
# A directive after 2000 blanks is one line and applies.
{ printf '%2000s' ''; printf 'interval 40\n'; } > "$tmp/wide.cfg"
j=$($N sim --size 4 --traffic bcmp --config "$tmp/wide.cfg" --format json)
expect_eq "config: long line read whole" 40 "$(json_field interval "$j")"
# Traffic file: a commented '3 4' past byte 512 is no packet; the one real
# pair (0 -> 6, 3 hops) is: 8 flits, duration H + L + 1 = 12.
{ printf '#'; printf 'x%.0s' $(seq 509); printf ' 3 4\n0 6\n'; } > "$tmp/long.tr"
j=$($N sim --size 4 --traffic "file:$tmp/long.tr" --format json)
expect_eq "traffic: long comment's tail ignored (flits)" 8 "$(json_field flits_injected "$j")"
expect_eq "traffic: long comment's tail ignored (duration)" 12 "$(json_field duration "$j")"

# --- a traffic file's line limit (issue 35: an endless line ate memory) ------------
# 65536 bytes before the newline are a line; 65537 are refused, by file and
# line, exit 2; so is a 10 MB line arriving through a pipe (read up to the limit).
{ printf '0 6 #'; printf 'x%.0s' $(seq 65531); printf '\n'; } > "$tmp/max.tr"
j=$($N sim --size 4 --traffic "file:$tmp/max.tr" --format json)
expect_eq "traffic: a 65536-byte line is read" 8 "$(json_field flits_injected "$j")"
{ printf '1 2\n'; printf 'x'; cat "$tmp/max.tr"; } > "$tmp/over.tr"
expect_usage "traffic: a 65537-byte line" "traffic file $tmp/over.tr, line 2: longer than 65536 bytes" \
  $N sim --size 4 --traffic "file:$tmp/over.tr"
expect_usage "traffic: a 10 MB line from a pipe" "traffic file /dev/stdin, line 1: longer than 65536 bytes" \
  sh -c "yes '0 ' | tr -d '\\n' | head -c 10000000 | $N sim --size 4 --traffic file:/dev/stdin"

# --- NUL bytes and over-long tokens --------------------------------------------
printf '1 2\n3 4\000 5 6\n' > "$tmp/nul.tr"
expect_usage "traffic: NUL byte" "line 2: a NUL byte at column 4" $N sim --size 4 --traffic "file:$tmp/nul.tr"
printf 'interval 20\000\ninterval 30\n' > "$tmp/nul.cfg"
expect_usage "config: NUL byte" "line 1: a NUL byte" $N sim --size 4 --traffic bcmp --config "$tmp/nul.cfg"
# 64 characters "000...05": one token, so the line has one field, not "0 5".
printf '%s5\n' "$(zeros 63)" > "$tmp/tok.tr"
expect_usage "traffic: 64-char token is one token" "expected 'src dst'" $N sim --size 4 --traffic "file:$tmp/tok.tr"
# The same digits as a whole pair are valid: leading zeros count, nothing is cut.
printf '%s0 %s6\n' "$(zeros 70)" "$(zeros 70)" > "$tmp/zeros.tr"
j=$($N sim --size 4 --traffic "file:$tmp/zeros.tr" --format json)
expect_eq "traffic: long zero-padded ids" 12 "$(json_field duration "$j")"
printf '0 99999999999999999999999\n' > "$tmp/big.tr"
expect_usage "traffic: id past 64 bits" "out of range (allowed: [0, 15])" $N sim --size 4 --traffic "file:$tmp/big.tr"

# --- flags: whole value, no spaces, ranges, lists ------------------------------
expect_usage "stack --arb ''"         "the list is empty"          $N stack --size 4 --arb ''
expect_usage "stack --arb C00,"       "empty element (number 2)"   $N stack --size 4 --arb C00,
expect_usage "stack --arb C00,,C01"   "empty element (number 2)"   $N stack --size 4 --arb C00,,C01
expect_usage "stack --arb C00,C00"    "named twice"                $N stack --size 4 --arb C00,C00
expect_usage "ga --genes V,,I"        "empty element (number 2)"   $N ga --no-db --genes V,,I
expect_usage "sim --interval ' 16'"   "' 16' is not an integer (allowed: [1, 1000000])" $N sim --interval ' 16'
expect_usage "sim --interval '16 '"   "is not an integer"          $N sim --interval '16 '
expect_usage "sim --interval +16"     "is not an integer"          $N sim --interval +16
expect_usage "ga --evals 999999999999" "out of range (allowed: [1, 1000000000])" $N ga --no-db --evals 999999999999
expect_usage "ga --stack-vmax 5"      "--stack-vmax: 5 is below the packet length 8 (allowed: [8, 100000])" \
  $N ga --no-db --size 4 --stack-vmax 5
expect_usage "ga --mutation inf"      "is not a number"            $N ga --no-db --mutation inf
expect_usage "ga --mutation 0x1p-3"   "is not a number"            $N ga --no-db --mutation 0x1p-3
expect_usage "replay --crc ' 3a'"     "is not a CRC-32 in hex"     $N replay --crc ' 3a'
expect_usage "replay --crc 0x3a"      "is not a CRC-32 in hex"     $N replay --crc 0x3a
expect_usage "sim --seed 2^64"        "out of range"               $N sim --seed 18446744073709551616
# A 64-character MIN (61 zeros then 100) is 100, not cut to 63 characters (10).
rows=$($N stack --size 4 --arb C00 --interval "$(zeros 61)100:100" --format csv | tail -n +2 | wc -l)
expect_eq "stack --interval 64-char MIN: one interval" 1 "$rows"
j=$($N sim --size 4 --traffic bcmp --interval "$(zeros 70)16" --format json)
expect_eq "sim --interval 72 digits" 16 "$(json_field interval "$j")"

# --- chromosome files: complete and matching their signature -------------------
$N ga --size 4 --traffic brev --slices 2 --generations 3 --no-db --quiet --save-best "$tmp/best.txt" > "$tmp/ga.out"
want=$(sed -n 's/^best duration *\([0-9]*\).*/\1/p' "$tmp/ga.out")
R="--size 4 --traffic brev --slices 2 --format json"
j=$($N replay --file "$tmp/best.txt" $R)
expect_eq "chromosome: replays to the GA's duration" "$want" "$(json_field duration "$j")"
head -3 "$tmp/best.txt" > "$tmp/head.txt"
expect_usage "chromosome: header only"  "incomplete chromosome file" $N replay --file "$tmp/head.txt" $R
head -n -1 "$tmp/best.txt" > "$tmp/cut.txt"
expect_usage "chromosome: last line cut" "missing 'qorder 15 P 2'"  $N replay --file "$tmp/cut.txt" $R
head -n 40 "$tmp/best.txt" > "$tmp/cut40.txt"
expect_usage "chromosome: cut mid-way"  "incomplete chromosome file" $N replay --file "$tmp/cut40.txt" $R
expect_usage "chromosome: sim --config cut" "incomplete chromosome file" \
  $N sim --size 4 --traffic brev --slices 2 --config "$tmp/cut.txt"
sed 's/^interval .*/interval 77/' "$tmp/best.txt" > "$tmp/edited.txt"
expect_usage "chromosome: edited gene"  "the header names"           $N replay --file "$tmp/edited.txt" $R
sed 's/v1$/v9/' "$tmp/best.txt" > "$tmp/v9.txt"
expect_usage "chromosome: unknown version" "unsupported chromosome file version" $N replay --file "$tmp/v9.txt" $R
# Without the version line it is a plain configuration: edited genes are fine.
tail -n +2 "$tmp/edited.txt" > "$tmp/plain.txt"
j=$($N replay --file "$tmp/plain.txt" $R)
expect_eq "plain config: edited interval applies" 77 "$(json_field interval "$j")"

# A traffic path with a newline stays inside the header's comment (the old
# writer split it, and the file it wrote could not be read back).
nl="$tmp/a"$'\n'"size 8.tr"
printf '0 6\n' > "$nl"
$N ga --size 4 --traffic "file:$nl" --slices 2 --generations 2 --no-db --quiet --save-best "$tmp/nl.chr" > /dev/null
expect_eq "chromosome: header is three comment lines" "size 4" "$(sed -n 4p "$tmp/nl.chr")"
j=$($N replay --file "$tmp/nl.chr" --size 4 --traffic "file:$nl" --slices 2 --format json)
expect_eq "chromosome: traffic path with newline replays" 20 "$(json_field duration "$j")"

# --- control bytes from files are escaped in messages --------------------------
printf '1 \033[31mred\n' > "$tmp/esc.tr"
err=$($N sim --size 4 --traffic "file:$tmp/esc.tr" 2>&1 >/dev/null)
case $err in *$'\033'*) bad "escape byte echoed raw: $err";; *'\x1b[31mred'*) ok;; *) bad "no escaped token: $err";; esac
printf 'scheme 0 E C0\0071\n' > "$tmp/bel.cfg"
err=$($N sim --size 4 --traffic bcmp --config "$tmp/bel.cfg" 2>&1 >/dev/null)
case $err in *$'\a'*) bad "BEL echoed raw: $err";; *'C0\x071'*) ok;; *) bad "no escaped token: $err";; esac

# --- -h/--help anywhere on the line prints help (issue 35) -------------------------
# (after a bad flag or a bad value too); a flag's value "--help" stays a value,
# and after "--" it is an operand.
for c in "sim --bogus --help" "load --rate 5 -h" "ga --size x --help" "plot load 1 --bogus --help" \
         "db runs --bogus -h" "cc --cc nope -h" "sweep --grid --bogus --help" "replay --nope -h"; do
  # shellcheck disable=SC2086
  out=$($N $c 2>/dev/null); rc=$?
  case $rc:$out in 0:usage:*) ok;; *) bad "$c: exit $rc, '${out%%$'\n'*}'";; esac
done
expect 2 "unknown traffic '--help'" "a flag's value --help" $N sim --traffic --help
expect 2 "unexpected argument '--help'" "--help after --" $N sim -- --help
expect 2 "unknown option '--he'" "no abbreviation of --help" $N sim --he

# Contradictory flags are refused, not silently resolved (issue 35).
expect 2 "--db and --no-db contradict each other" "ga --db with --no-db" \
  $N ga --size 4 --generations 1 --db "$tmp/x.db" --no-db --quiet
[ ! -e "$tmp/x.db" ] && ok || bad "ga --db X --no-db created X"

echo "parse_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
