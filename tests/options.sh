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
# A number, or the value of the library's constant of that name.
const() {
  case $1 in [-0-9]*) echo "$1"; return;; esac
  sed -n -E "s/^#define $1 +([-0-9.e]+)L?( .*)?$/\1/p" sim/openloop.h sim/sim.h sim/olnet.h ga/ga.h ga/ga_options.h \
    sim/interval.h sim/pool.h sim/stacking.h cli/cmd_sim.c cli/cmd_methods.c viz/viz_options.h \
    cc/search.h cc/paths.h cc/problem.h cc/exact.h cc/instance.h ccsim/replay.h | head -1
}
numeq() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 == b + 0 && a != "" && b != "") }'; }
value_of() { printf '%s\n' "$1" | sed -n "s/^$2=//p"; }
# check_rows CMD EXTRA ROWS: each numeric row of ROWS ("name kind lo hi default",
# constants by name; kind int, real, or realo: hi excluded; lo excluded when
# written "(LO"; default - for none) against CMD's parse under
# NOCSIM_PARSE_SHOW=1 (with the flags EXTRA): the default is the constant,
# both ends are taken and a step past either is refused, naming the flag.
check_rows() {
  local cmd=$1 extra=$2 rows=$3 defaults name kind lo hi def open_lo lov hiv defv below above
  # shellcheck disable=SC2086
  defaults=$(NOCSIM_PARSE_SHOW=1 $N $cmd $extra 2>&1)
  while read -r name kind lo hi def; do
    open_lo=0; case $lo in "("*) open_lo=1; lo=${lo#(};; esac
    lov=$(const "$lo"); hiv=$(const "$hi")
    [ -n "$lov" ] && [ -n "$hiv" ] || { bad "$cmd --$name: constant $lo or $hi not found"; continue; }
    if [ "$def" != - ]; then
      defv=$(const "$def")
      numeq "$(value_of "$defaults" "$name")" "$defv" && ok || bad "$cmd --$name: default $(value_of "$defaults" "$name"), $def is $defv"
    fi
    if [ $kind = int ]; then below=$((lov - 1)); above=$((hiv + 1)); else
      below=$(awk -v a="$lov" -v b="$hiv" 'BEGIN { printf "%.10g", a - (b - a) * 1e-3 }')
      above=$(awk -v a="$lov" -v b="$hiv" 'BEGIN { printf "%.10g", b + (b - a) * 1e-3 }'); fi
    [ $open_lo = 1 ] && below=$lov
    [ $kind = realo ] && above=$hiv
    # shellcheck disable=SC2086
    [ $open_lo = 0 ] && { numeq "$(value_of "$(NOCSIM_PARSE_SHOW=1 $N $cmd $extra --$name "$lov" 2>&1)" "$name")" "$lov" && ok || bad "$cmd --$name $lov refused"; }
    # shellcheck disable=SC2086
    [ $kind != realo ] && { numeq "$(value_of "$(NOCSIM_PARSE_SHOW=1 $N $cmd $extra --$name "$hiv" 2>&1)" "$name")" "$hiv" && ok || bad "$cmd --$name $hiv refused"; }
    # shellcheck disable=SC2086
    expect 2 "--$name: '$below' is out of range" "$cmd --$name below its range" env NOCSIM_PARSE_SHOW=1 $N $cmd $extra --$name "$below"
    # shellcheck disable=SC2086
    expect 2 "--$name: '$above' is out of range" "$cmd --$name above its range" env NOCSIM_PARSE_SHOW=1 $N $cmd $extra --$name "$above"
  done <<< "$rows"
}
defaults=$(show)
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

check_rows load "" "$rows"
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
# --- ga, sim, stack: their rows against the library's constants ---------------
# (ga/ga_options.c over ga_params; cmd_ga.c, cmd_sim.c, cmd_stack.c over
# their own structs).  The ga defaults not named by a constant are
# ga_params_default's, written here by hand.
showc() { NOCSIM_PARSE_SHOW=1 $N "$@" 2>&1; echo "rc=$?"; }
rows='pop int GA_POP_MIN GA_POP_MAX 1
children int 1 GA_CHILDREN_MAX 1
generations int 0 GA_COUNT_MAX GA_COUNT_MAX
evals int 1 GA_EVALS_MAX GA_BUDGET
train int 0 GA_COUNT_MAX 100
mutation real GA_MUTATION_MIN 1 0.05
max-genes int 1 GA_MAX_GENES_MAX 8
shift real 0 1 0
target real 0 1 0.3
target-window int 1 GA_TARGET_WINDOW_MAX 3
crossover-interval int 0 GA_COUNT_MAX 10
crossover-rate real 0 1 0.4
crossover-pairs int 0 GA_COUNT_MAX 0
watchdog int 0 GA_COUNT_MAX 0
lifetime int 0 GA_COUNT_MAX 0
estimate-slices int 1 SIM_MAX_SLICES 2
perturb int 0 GA_PERTURB_MAX 0
threads int 1 SIM_POOL_MAX_THREADS -
migrate-every int 1 GA_COUNT_MAX GA_MIGRATE_EVERY_DEFAULT
progress-every int 1 GA_COUNT_MAX 0'
check_rows ga "" "$rows"
gd=$(showc ga)
# The paper's defaults where they differ (ga_params_for_algo).
gp=$(showc ga --algo paper)
for c in "pop 1 50" "generations $(const GA_COUNT_MAX) 1000" "evals $(const GA_BUDGET) 0" "sort-key tail none" \
         "record sparse all" "target 0.3 0"; do
  set -- $c
  check "ga --$1 default (local)" "$(value_of "$gd" "$1")" "$2"
  check "ga --$1 default (paper)" "$(value_of "$gp" "$1")" "$3"
done
# The interval and the sweep's end are bounded below by the packet length too.
check "ga --interval: none by default" "$(value_of "$gd" interval)" 0
check "ga --stack-vmax default" "$(value_of "$gd" stack-vmax)" "$(const SIM_STACK_VMAX_DEFAULT)"
for r in interval:SIM_INTERVAL_MAX stack-vmax:SIM_SWEEP_MAX; do
  f=${r%%:*} hi=$(const "${r#*:}")
  check "ga --$f 2 with --flits 2" "$(value_of "$(showc ga --flits 2 --$f 2)" "$f")" 2
  check "ga --$f $hi" "$(value_of "$(showc ga --$f "$hi")" "$f")" "$hi"
  expect 2 "--$f: '0' is out of range (allowed: [1, $hi])" "ga --$f 0" $N ga --$f 0
  expect 2 "--$f: '$((hi + 1))' is out of range (allowed: [1, $hi])" "ga --$f above" $N ga --$f $((hi + 1))
  expect 2 "is below the packet length" "ga --$f below the packet length" $N ga --$f 7
done
for c in "algo local paper" "weights mix genes" "start stacking timetable" "ties random age" "sort-key tail late3" \
         "record sparse all" "fitness duration te" "format text json" "genes V,I,C,Q C,Q" "arb C00 C07"; do
  set -- $c
  check "ga --$1 default" "$(value_of "$gd" "$1")" "$2"
  check "ga --$1 $3" "$(value_of "$(showc ga --$1 "$3")" "$1")" "$3"
done
check "ga --sort te is --fitness te" "$(value_of "$(showc ga --sort te)" fitness)" te
expect 2 "--format: 'csv' is not one of: text json" "ga --format csv" $N ga --format csv
expect 2 "--arb: 'C10' is not a scheme (allowed: C00-C09)" "ga --arb C10" $N ga --arb C10
expect 2 "--genes: 'V' is named twice" "ga --genes V,V" $N ga --genes V,V
check "ga --db default" "$(value_of "$gd" db)" "$(sed -n -E 's/^#define STORE_DEFAULT_PATH "(.*)".*/\1/p' store/store.h)"
check "ga --resume: none by default" "$(value_of "$gd" resume)" 0
expect 2 "--resume: '0' is out of range" "ga --resume 0" $N ga --resume 0
for sw in dry-run no-db quiet; do
  check "ga --$sw off by default" "$(value_of "$gd" $sw)" ""
  check "ga --$sw sets its field" "$(value_of "$(showc ga --$sw)" $sw)" "on"
done
check "ga -q is --quiet" "$(value_of "$(showc ga -q)" quiet)" "on"
check "ga --save-best FILE" "$(value_of "$(showc ga --save-best "$tmp/b.cfg")" save-best)" "$tmp/b.cfg"
rowset() { printf '%s\n' "$1" | grep -v '^rc=' | sed -n 's/=.*//p' | sort | tr '\n' ' '; }
check "ga's rows" "$(rowset "$gd")" "algo arb children crossover-interval crossover-pairs crossover-rate db delta dry-run \
estimate-slices evals fitness format generations genes interval islands lifetime max-genes migrate-every mutation no-db perturb \
pop progress-every quiet record resume save-best shift sort sort-key stack-vmax start target target-window threads ties \
train watchdog weights "
# sim
# (one slice raises an interval below the packet length to it: two here)
check_rows sim "--slices 2" 'interval int 1 SIM_INTERVAL_MAX SIM_CMD_INTERVAL'
sd=$(showc sim)
for c in "arb C00 C09" "format text csv"; do
  set -- $c
  check "sim --$1 default" "$(value_of "$sd" "$1")" "$2"
  check "sim --$1 $3" "$(value_of "$(showc sim --$1 "$3")" "$1")" "$3"
done
check "sim --links" "$(value_of "$(showc sim --links)" links)/$(value_of "$sd" links)" "on/"
check "sim's rows" "$(rowset "$sd")" "arb config format interval links "
# stack
check_rows stack "" 'threads int 1 SIM_POOL_MAX_THREADS -'
kd=$(showc stack)
check "stack --interval default" "$(value_of "$kd" interval)" "$(const SIM_STACK_VMIN_DEFAULT):$(const SIM_STACK_VMAX_DEFAULT)"
check "stack --interval 8:MAX" "$(value_of "$(showc stack --interval "8:$(const SIM_SWEEP_MAX)")" interval)" "8:$(const SIM_SWEEP_MAX)"
expect 2 "--interval: '0' is out of range (allowed: [1, $(const SIM_SWEEP_MAX)])" "stack --interval 0:9" $N stack --interval 0:9
expect 2 "--interval: '$(( $(const SIM_SWEEP_MAX) + 1 ))' is out of range" "stack --interval above" \
  $N stack --interval "8:$(( $(const SIM_SWEEP_MAX) + 1 ))"
check "stack --arb default" "$(value_of "$kd" arb)" all
check "stack --arb C05,C01" "$(value_of "$(showc stack --arb C05,C01)" arb)" C05,C01
check "stack --format json" "$(value_of "$(showc stack --format json)" format)" json
check "stack's rows" "$(rowset "$kd")" "arb format interval threads "

# replay, export, extrapolate, post-stack, plot: their rows (cmd_replay.c,
# cmd_methods.c, cmd_plot.c; plot's limits viz/viz_options.h).  Ids are
# bounded by 2^53 (CLI_ID_MAX, cli/args.h).
id_max=$((1 << 53))
check_rows replay "--chrom 1" 'slices int 1 SIM_MAX_SLICES -'
rd=$(showc replay --chrom 1)
check "replay --interval 9:MAX" "$(value_of "$(showc replay --chrom 1 --interval "9:$(const SIM_SWEEP_MAX)")" interval)" \
  "9:$(const SIM_SWEEP_MAX)"
expect 2 "--interval: '0' is out of range (allowed: [1, $(const SIM_SWEEP_MAX)])" "replay --interval 0" $N replay --chrom 1 --interval 0
check "replay --crc" "$(value_of "$(showc replay --crc 3A)" crc)" 0000003a
check "replay's rows" "$(rowset "$rd")" "best chrom crc db file format interval run slices "
for f in chrom run best; do
  with=; [ $f = run ] && with="--crc 1"   # --run only narrows --crc
  # shellcheck disable=SC2086
  check "replay --$f 2^53" "$(value_of "$(showc replay $with --$f $id_max)" $f)" "$id_max"
  expect 2 "--$f: '$((id_max + 1))' is out of range (allowed: [1, $id_max])" "replay --$f above" $N replay --$f $((id_max + 1))
done
check "export's rows" "$(rowset "$(showc export)")" "best chrom crc db output run "
check_rows extrapolate "--run 1" 'slices int 1 SIM_MAX_SLICES METHOD_EXTRAPOLATE_SLICES
threads int 1 SIM_POOL_MAX_THREADS -'
check_rows post-stack "--run 1" 'slices int 1 SIM_MAX_SLICES 0'
check "extrapolate --best-only" "$(value_of "$(showc extrapolate --run 1 --best-only)" best-only)" on
check "post-stack --all" "$(value_of "$(showc post-stack --run 1 --all)" all)" on
check "extrapolate's rows" "$(rowset "$(showc extrapolate --run 1)")" \
  "best-only db format limit no-record run slices synonyms threads "
check "post-stack's rows" "$(rowset "$(showc post-stack --run 1)")" "all db format limit no-record run slices threads "
check_rows plot "runs" 'ymax real VIZ_YMAX_MIN VIZ_YMAX_MAX -
slices int 1 VIZ_FILTER_SLICES_MAX -'
pd=$(showc plot runs)
check "plot --size default" "$(value_of "$pd" size)" "$(const VIZ_DEFAULT_WIDTH)x$(const VIZ_DEFAULT_HEIGHT)"
check "plot --size MINxMAX" "$(value_of "$(showc plot runs --size "$(const VIZ_SIDE_MIN)x$(const VIZ_SIDE_MAX)")" size)" \
  "$(const VIZ_SIDE_MIN)x$(const VIZ_SIDE_MAX)"
expect 2 "--size: '$(( $(const VIZ_SIDE_MIN) - 1 ))' is out of range" "plot --size below" $N plot runs --size "$(( $(const VIZ_SIDE_MIN) - 1 ))x200"
expect 2 "--size: '$(( $(const VIZ_SIDE_MAX) + 1 ))' is out of range" "plot --size above" $N plot runs --size "200x$(( $(const VIZ_SIDE_MAX) + 1 ))"
check "plot runs --kind default" "$(value_of "$pd" kind)" ga
check "plot's rows" "$(rowset "$pd")" "db kind logx logy output script-only size slices title traffic ymax "

# cc: its rows (cli/cmd_cc.c over cc/'s and ccsim/'s constants).  Unset
# steps, max-steps, seconds and ts show 0 or -1 (the library decides).
check_rows cc "" 'max-paths int 1 CC_PATHS_MAX CC_PATHS_DEFAULT_MAX
nonminimal int 0 CC_PATHS_MAX_EXTRA CC_DEFAULT_EXTRA
steps int 1 CC_STEPS_MAX 0
max-steps int 1 CC_STEPS_MAX 0
threads int 1 CC_THREADS_MAX 1
neighbour-first int 0 1 1
ring int 0 1 1
budget int 1 CC_BUDGET_MAX CC_DEFAULT_BUDGET
pop int CC_POP_MIN CC_POP_MAX CC_DEFAULT_POP
runs int 1 CC_RUNS_MAX 1
seconds real CC_SECONDS_MIN CC_SECONDS_MAX 0
seed int 0 CC_SEED_MAX CC_DEFAULT_SEED
exact-seconds real CC_EXACT_SECONDS_MIN CC_EXACT_SECONDS_MAX CC_EXACT_DEFAULT_SECONDS
flits int 1 CCSIM_MAX_FLITS CCSIM_DEFAULT_FLITS
ts int 0 CCSIM_MAX_TS -1
ports int 1 CC_PORTS_MAX -'
cd_=$(showc cc)
check "cc --ports default" "$(value_of "$cd_" ports)" all
check "cc --ports all" "$(value_of "$(showc cc --ports 3 --ports all)" ports)" all
check "cc --switching default" "$(value_of "$cd_" switching)" \
  "$(sed -n -E 's/^#define CC_DEFAULT_SWITCHING CC_([A-Z]+).*/\1/p' cc/instance.h | tr A-Z a-z)"
for c in "switching sf" "cc mns" "algo hgsa" "format csv"; do
  set -- $c
  check "cc --$1 $2" "$(value_of "$(showc cc --$1 "$2")" "$1")" "$2"
done
check "cc --algo default" "$(value_of "$cd_" algo)" sa
check "cc --fail-link twice" "$(value_of "$(showc cc --fail-link 1-2 --fail-link 2-3)" fail-link)" "1-2,2-3"
faults=$(for i in $(seq 0 "$(const CC_MAX_FAULTS)"); do printf -- '--fail-node %d ' "$i"; done)
# shellcheck disable=SC2086
expect 2 "--fail-node: at most $(const CC_MAX_FAULTS) faults" "cc: a fault past CC_MAX_FAULTS" $N cc $faults
for sw in exact cycles quiet; do
  check "cc --$sw off by default" "$(value_of "$cd_" $sw)" ""
  check "cc --$sw sets its field" "$(value_of "$(showc cc --$sw)" $sw)" "on"
done
check "cc -q is --quiet" "$(value_of "$(showc cc -q)" quiet)" "on"
check "cc verify FILE takes the rows too" "$(value_of "$(showc cc verify "$tmp/s.json" --steps 3)" steps)" 3
check "cc's rows" "$(rowset "$cd_")" "algo budget cc cycles db exact exact-seconds fail-link fail-node flits format \
max-paths max-steps neighbour-first nonminimal out pop ports quiet receivers ring root runs seconds seed senders steps \
switching threads topology ts "

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
    # the option's line and its continuation lines
    printf '%s\n' "$h" | awk -v f="--$1 " 'index($0, f) { on = 1; print; next } on && /^                              [^ ]/ { print; next } { on = 0 }' |
      grep -q "default $(const "$2"))" && ok || bad "$c --help: --$1's default is not $2"
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
