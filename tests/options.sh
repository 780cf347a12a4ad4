#!/usr/bin/env bash
# GNU options (issue 25): every flag of every command's --help table is
# accepted as `--flag value` and `--flag=value` (and `-f value`, `-fvalue`
# where it has a short form); switches refuse `--flag=x`; `--` ends options;
# long names are taken whole (no abbreviations); errors stay one line, exit 2.
# The table walk uses NOCSIM_PARSE_TRACE=1 (cli/args.h): the parser prints
# what it recognised and exits without running the command.
set -u
. "$(dirname "$0")/testlib.bash"
N=${NOCSIM:-./nocsim}
expect_eq() { check "$1" "$3" "$2"; } # description, want, got
trace() { NOCSIM_PARSE_TRACE=1 "$@" 2>&1; echo "rc=$?"; }

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo '{}' > "$tmp/s.json"

# Every command line that has its own option table (subcommands included).
commands=(
  "sim" "stack" "ga" "replay" "export" "extrapolate" "post-stack" "sweep" "load"
  "cc" "cc bounds" "cc verify $tmp/s.json" "cc cycles $tmp/s.json"
  "db runs" "db show" "db synonyms" "db best" "db export" "db sweep" "db merge"
  "plot stack" "plot generations" "plot runs" "plot load"
)

# The option lines of a --help text: "  -s, --seed X   ..." or "      --size N   ...".
help_flags() {
  sed -n -E 's/^  (-([a-zA-Z]), |    )(--[a-z][a-z0-9-]*)( ([^ ]+))?( .*)?$/\2 \3 \5/p'
}

total=0 shorts=0
for c in "${commands[@]}"; do
  # shellcheck disable=SC2086
  h=$($N $c --help); rc=$?
  [ $rc -eq 0 ] || bad "$c --help: exit $rc"
  flags=$(printf '%s\n' "$h" | help_flags)
  n=$(printf '%s\n' "$flags" | grep -c -- '--')
  [ "$n" -ge 2 ] || bad "$c --help lists $n options"
  while read -r first second third; do
    # help_flags prints "S --flag ARG" or " --flag ARG" (read drops the blank).
    if [ "${first#--}" != "$first" ]; then short=; flag=$first; arg=$second
    else short=$first; flag=$second; arg=$third; fi
    [ "$flag" = --help ] && continue
    total=$((total + 1))
    if [ -n "$arg" ]; then
      want=$(printf '%s=v 1\nrc=0' "$flag")
      # shellcheck disable=SC2086
      expect_eq "$c $flag value" "$want" "$(trace $N $c "$flag" 'v 1')"
      # shellcheck disable=SC2086
      expect_eq "$c $flag=value" "$want" "$(trace $N $c "$flag=v 1")"
      # shellcheck disable=SC2086
      expect_eq "$c $flag=" "$(printf '%s=\nrc=0' "$flag")" "$(trace $N $c "$flag=")"
      if [ -n "$short" ]; then
        shorts=$((shorts + 1))
        # shellcheck disable=SC2086
        expect_eq "$c -$short value" "$want" "$(trace $N $c "-$short" 'v 1')"
        # shellcheck disable=SC2086
        expect_eq "$c -${short}value" "$want" "$(trace $N $c "-${short}v 1")"
      fi
      # shellcheck disable=SC2086
      expect 2 "$flag needs a value" "$c $flag without a value" $N $c "$flag"
    elif [ "$c $flag" = "ga --islands" ] && ! strings "$N" | grep -q MPI_Init; then
      # Looked for before parsing: without the MPI build it is refused at once.
      expect 2 "--islands needs the MPI build" "ga --islands (no MPI)" $N ga --islands
    else
      # shellcheck disable=SC2086
      expect_eq "$c $flag" "$(printf '%s\nrc=0' "$flag")" "$(trace $N $c "$flag")"
      # shellcheck disable=SC2086
      expect 2 "$flag takes no value" "$c $flag=x" $N $c "$flag=x"
      if [ -n "$short" ]; then
        shorts=$((shorts + 1))
        # shellcheck disable=SC2086
        expect_eq "$c -$short" "$(printf '%s\nrc=0' "$flag")" "$(trace $N $c "-$short")"
      fi
    fi
  done <<< "$flags"
done
# The walk saw the tables (a broken help_flags would see nothing): sim alone
# has 29 flags, and every command has some.
[ "$total" -ge 250 ] && ok || bad "only $total flags walked"
[ "$shorts" -ge 15 ] && ok || bad "only $shorts short options walked"

# Short options, grouped; a value that looks like an option stays a value.
expect_eq "sweep -qj2" "$(printf -- '--quiet\n--jobs=2\nrc=0')" "$(trace $N sweep -qj2)"
expect_eq "sim --traffic --size" "$(printf -- '--traffic=--size\nrc=0')" "$(trace $N sim --traffic --size)"
expect_eq "ga --shift -1" "$(printf -- '--shift=-1\nrc=0')" "$(trace $N ga --shift -1)"
# Operands in order; `--` ends the options.
expect_eq "plot operands and --" "$(printf -- '--output=f.png\noperand=3\noperand=-5\noperand=--db\nrc=0')" \
  "$(trace $N plot generations -o f.png 3 -- -5 --db)"

# --- real runs: the forms give the same results --------------------------------
# randperm depends on the seed: -s 3 and --seed=3 agree and differ from seed 1.
a=$($N sim --traffic=randperm --size=4 --interval=16 -s 3 --format=json)
b=$($N sim --traffic randperm --size 4 --interval 16 --seed 3 --format json)
c=$($N sim --traffic randperm --size 4 --interval 16 --format json)
expect_eq "sim: --flag=value and -s give the long form's result" "$b" "$a"
[ "$a" != "$c" ] && ok || bad "sim: -s 3 gave seed 1's result"
case $a in *'"seed": 3'*) ok;; *) bad "sim -s 3: no seed 3 in $a";; esac
# The issue's example runs (exit 0, brev at interval 16, seed 3).
out=$($N sim --traffic=brev --interval=16 -s 3 --size 4 --format json); rc=$?
expect_eq "sim --traffic=brev --interval=16 -s 3: exit" 0 "$rc"
case $out in *'"traffic": "brev"'*'"seed": 3'*'"interval": 16'*) ok;; *) bad "sim --traffic=brev ...: $out";; esac
# One packet 0 -> 6 on a 4x4 torus, 3 hops: duration H + L + 1 = 12 (tests/parse_cli.sh).
printf '0 6\n' > "$tmp/one.tr"
j=$($N sim --size=4 --traffic="file:$tmp/one.tr" --format=json)
case $j in *'"duration": 12,'*) ok;; *) bad "sim --traffic=file:...: $j";; esac
# ga: -q and -j 1 are --quiet and --threads 1 (the same run, no progress line;
# its wall time, "0.0 s" or "0.1 s" on a busy machine, taken out).
g1=$($N ga -q -j 1 -s 2 --size 4 --generations=3 --no-db 2>"$tmp/err1" | sed -E 's/[0-9]+\.[0-9]+ s$/_ s/')
g2=$($N ga --quiet --threads 1 --seed 2 --size 4 --generations 3 --no-db 2>"$tmp/err2" | sed -E 's/[0-9]+\.[0-9]+ s$/_ s/')
expect_eq "ga short options" "$g2" "$g1"
expect_eq "ga -q: no progress line" "" "$(cat "$tmp/err1")"
# load: -q is --quiet (issue 36: a changed --quiet row dropped its checks with
# it, since the walk above reads --help): the same curve, and no progress line
# where --quiet's absence gives one a rate.
expect_eq "load -q" "$(printf -- '--quiet\nrc=0')" "$(trace $N load -q)"
L="--size 4 --rates 0.1:0.2:0.1 --no-db --threads 1 --format csv"
l1=$($N load $L -q 2>"$tmp/err1")
l2=$($N load $L 2>"$tmp/err2")
expect_eq "load -q: the same curve" "$l2" "$l1"
expect_eq "load -q: no progress line" "" "$(cat "$tmp/err1")"
expect_eq "load without -q: a progress line a rate" 2 "$(grep -c '^nocsim load: rate ' "$tmp/err2")"
# stack -j: threads do not change results.
expect_eq "stack -j 1" "$($N stack --size 4 --arb C00 --interval 8:12 --threads 2 --format csv)" \
  "$($N stack --size 4 --arb=C00 --interval=8:12 -j1 --format=csv)"

# --- errors: one line, exit 2 --------------------------------------------------
expect 2 "unknown option '--slice'" "abbreviation refused" $N sim --slice 2
expect 2 "unknown option '--bogus=1'" "unknown --x=y" $N sim --bogus=1
expect 2 "unknown option '-x'" "unknown short" $N sim -x
expect 2 "-s needs a value" "short without a value" $N sim -s
expect 2 "--interval: 'x' is not an integer" "bad value via =" $N sim --interval=x
expect 2 "unexpected argument '--bogus'" "operand after --" $N sim --size 4 -- --bogus
expect 2 "--threads: the sweep sets this" "sweep: reserved GA flag" $N sweep --traffic brev --threads=2
expect 2 "unknown option '--where=x'" "db: flag of another subcommand" $N db runs --where=x

echo "options: $pass passed, $fail failed"
[ $fail -eq 0 ]
