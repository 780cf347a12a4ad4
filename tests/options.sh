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

# --- load: every option row against the library's constants -------------------
# Ranges and defaults are read here from the headers (sim/openloop.h,
# sim/sim.h), not from --help; NOCSIM_PARSE_SHOW=1 (cli/args.h) makes load
# parse for real (handlers, checks) and print each option's value.
show() { NOCSIM_PARSE_SHOW=1 $N load "$@" 2>&1; echo "rc=$?"; }
const() {
  case $1 in [0-9]*) echo "$1"; return;; esac
  sed -n -E "s/^#define $1 +([-0-9.e]+)L?( .*)?$/\1/p" sim/openloop.h sim/sim.h sim/olnet.h | head -1
}
numeq() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 == b + 0 && a != "" && b != "") }'; }
value_of() { printf '%s\n' "$1" | sed -n "s/^$2=//p"; }
defaults=$(show)
# name kind lo hi default (constants by name; kind int, real, or realo: hi excluded;
# lo excluded when written "(LO")
rows='size int OL_MIN_SIDE OL_MAX_SIDE OL_DEFAULT_SIDE
vcs int 1 SIM_MAX_VCS SIM_DEFAULT_VCS
buffer int 1 OL_MAX_BUFFER SIM_DEFAULT_BUFFER
batch int OL_BATCH_MIN OL_BATCH_MAX OL_DEFAULT_BATCH
window int OL_WINDOW_MIN OL_WINDOW_MAX OL_DEFAULT_WINDOW
drain-cap int 0 OL_DRAIN_CAP_MAX OL_DEFAULT_DRAIN_CAP
seed int 0 OL_SEED_MAX OL_DEFAULT_SEED
threads int 1 OL_MAX_THREADS -
warmup-tolerance real 0 1 OL_DEFAULT_WARMUP_TOL
accept-tolerance realo 0 1 OL_DEFAULT_ACCEPT_TOL
latency-limit real OL_LATENCY_LIMIT_MIN OL_LATENCY_LIMIT_MAX OL_DEFAULT_LATENCY_LIMIT
precision real OL_SAT_PRECISION_MIN OL_SAT_PRECISION_MAX OL_DEFAULT_SAT_PRECISION
ci real 0 OL_CI_MAX OL_DEFAULT_CI
router-delay int 0 OLNET_MAX_DELAY 0
switch-delay int 0 OLNET_MAX_DELAY 0
link-delay int 0 OLNET_MAX_DELAY 0
credit-delay int 0 OLNET_MAX_DELAY 0
rate real (0 1 -'
while read -r name kind lo hi def; do
  open_lo=0; case $lo in "("*) open_lo=1; lo=${lo#(};; esac
  lov=$(const "$lo"); hiv=$(const "$hi")
  [ -n "$lov" ] && [ -n "$hiv" ] || { bad "load --$name: constant $lo or $hi not found"; continue; }
  if [ "$def" != - ]; then
    defv=$(const "$def")
    numeq "$(value_of "$defaults" "$name")" "$defv" && ok || bad "load --$name: default $(value_of "$defaults" "$name"), $def is $defv"
  fi
  if [ $kind = int ]; then below=$((lov - 1)); above=$((hiv + 1)); else
    below=$(awk -v a="$lov" -v b="$hiv" 'BEGIN { printf "%.10g", a - (b - a) * 1e-3 }')
    above=$(awk -v a="$lov" -v b="$hiv" 'BEGIN { printf "%.10g", b + (b - a) * 1e-3 }'); fi
  [ $open_lo = 1 ] && below=$lov
  [ $kind = realo ] && above=$hiv
  [ $open_lo = 0 ] && { numeq "$(value_of "$(show --$name "$lov")" "$name")" "$lov" && ok || bad "load --$name $lov refused"; }
  [ $kind != realo ] && { numeq "$(value_of "$(show --$name "$hiv")" "$name")" "$hiv" && ok || bad "load --$name $hiv refused"; }
  expect 2 "--$name: '$below' is out of range" "load --$name below its range" env NOCSIM_PARSE_SHOW=1 $N load --$name "$below"
  expect 2 "--$name: '$above' is out of range" "load --$name above its range" env NOCSIM_PARSE_SHOW=1 $N load --$name "$above"
done <<< "$rows"
# The rows with a range of their own, the choices and the switches, by hand.
check "load --warmup default" "$(value_of "$defaults" warmup)" "$(const OL_DEFAULT_WARMUP_MIN):$(const OL_DEFAULT_WARMUP_MAX)"
check "load --warmup 1:MAX" "$(value_of "$(show --warmup "1:$(const OL_WARMUP_MAX)")" warmup)" "1:$(const OL_WARMUP_MAX)"
expect 2 "--warmup: '0:3' is out of range" "load --warmup 0:3" $N load --warmup 0:3
expect 2 "--warmup: '1:$(( $(const OL_WARMUP_MAX) + 1 ))' is out of range" "load --warmup above" $N load --warmup "1:$(( $(const OL_WARMUP_MAX) + 1 ))"
check "load --rates default" "$(value_of "$defaults" rates)" \
  "$(const OL_DEFAULT_RATE_FROM):$(const OL_DEFAULT_RATE_TO | sed 's/\.0$//'):$(const OL_DEFAULT_RATE_STEP)"
check "load --packet default" "$(value_of "$defaults" packet)" "$(const SIM_DEFAULT_FLITS)"
check "load --traffic default" "$(value_of "$defaults" traffic)" \
  "$(sed -n -E 's/^#define OL_DEFAULT_TRAFFIC "(.*)".*/\1/p' sim/openloop.h)"
for c in "topology mesh torus" "vc-rule any dateline" "tie nowrap minus" "self skip send" "process bernoulli periodic" \
         "format text csv" "arb C00 C07" "routing dor yx" "selection credits first" "vc-alloc lowest rotate"; do
  set -- $c
  check "load --$1 default" "$(value_of "$defaults" "$1")" "$2"
  check "load --$1 $3" "$(value_of "$(show --$1 "$3" --vcs 3 --size 4)" "$1")" "$3"
done
for sw in all saturation per-flow quiet no-db early-stop links; do
  check "load --$sw off by default" "$(value_of "$defaults" $sw)" ""
  check "load --$sw sets its field" "$(value_of "$(show --$sw)" $sw)" "on"
done
check "load -q is --quiet" "$(value_of "$(show -q)" quiet)" "on"
check "load --links-png implies --links" "$(value_of "$(show --links-png x.png)" links)" "on"
check "load --links-png's file" "$(value_of "$(show --links-png x.png)" links-png)" "x.png"
# Every row has a check above: a row added without one, or one dropped, fails here.
check "load's rows" "$(printf '%s\n' "$defaults" | grep -v '^rc=' | sed -n 's/=.*//p' | sort | tr '\n' ' ')" \
  "accept-tolerance all arb batch buffer by-length ci config credit-delay db drain-cap early-stop format histogram hotspot latency-limit link-delay links links-png no-db packet per-flow precision process quiet rate rates router-delay routing saturation seed selection self size switch-delay threads throughput tie topology trace traffic vc-alloc vc-rule vcs warmup warmup-tolerance window "
# The closed-loop commands' model options: the same constants bound the
# shared rows (sim/ol_options.c sim_net_options, sim_model_options), and
# their --help defaults are those constants.
for c in sim stack ga; do
  for r in "vcs 1 SIM_MAX_VCS" "buffer 1 OL_MAX_BUFFER" "flits 2 SIM_MAX_FLITS" "slices 1 SIM_MAX_SLICES" \
           "size SIM_MIN_N SIM_MAX_N" "seed 0 OL_SEED_MAX"; do
    set -- $r; lo=$(const "$2"); hi=$(const "$3")
    expect 2 "--$1: '$((lo - 1))' is out of range (allowed: [$lo, $hi])" "$c --$1 below" $N $c --$1 $((lo - 1))
    expect 2 "--$1: '$((hi + 1))' is out of range (allowed: [$lo, $hi])" "$c --$1 above" $N $c --$1 $((hi + 1))
  done
  h=$($N $c --help)
  for r in "size SIM_DEFAULT_N" "flits SIM_DEFAULT_FLITS" "vcs SIM_DEFAULT_VCS" "buffer SIM_DEFAULT_BUFFER" \
           "seed OL_DEFAULT_SEED"; do
    set -- $r
    printf '%s\n' "$h" | grep -E -- "--$1 " | grep -q "(default $(const "$2"))" && ok || bad "$c --help: --$1's default is not $2"
  done
done

# The completion takes a choice's names from its row (via --help), not from a list of its own.
comp_of() { bash -c '. completion/nocsim.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _nocsim; echo "${COMPREPLY[*]}"' _ "$@"; }
check "completion: load --process" "$(comp_of "$N" load --process "")" "bernoulli periodic onoff:"
check "completion: load --tie" "$(comp_of "$N" load --tie "")" "nowrap plus minus"
# --rate and --rates are one setting: both on one line is refused.
expect 2 "--rate and --rates both given" "load --rate with --rates" $N load --rate 0.1 --rates 0.1:0.2:0.1 --no-db
check "load --rate R is R:R" "$(value_of "$(show --rate 0.25)" rates)" "0.25:0.25:1"

echo "options: $pass passed, $fail failed"
[ $fail -eq 0 ]
