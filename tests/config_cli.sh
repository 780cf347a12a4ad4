#!/usr/bin/env bash
# Experiment files (`nocsim load --config FILE`, issue 37): BookSim2's keys
# and syntax mapped to load's options with the values checked; a key nocsim
# cannot model refused naming file, line and key; flags override the file;
# the BookSim2 reference configuration runs as it is; several patterns
# give one stored curve each.
set -u
N=${NOCSIM:-./nocsim}
source "$(dirname "$0")/testlib.bash"
in_scratch
show() { NOCSIM_PARSE_SHOW=1 $N load "$@" 2>/dev/null; }
value_of() { printf '%s\n' "$1" | sed -n "s/^$2=//p"; }

# BookSim2's keys, its // comments, ';' and {a,b} lists.
cat > bs.cfg <<'CFG'
// BookSim2 style
topology = torus; k = 6; n = 2; routing_function = dim_order;
num_vcs = 4; vc_buf_size = 6;   // per VC
traffic = tornado; packet_size = {2,6}; packet_size_rate = {1,3};
injection_rate = 0.01;          // packets: 0.01 x (2/4 + 18/4) = 0.05 flits
sample_period = 400; warmup_periods = 2; max_samples = 5; latency_thres = 300; seed = 9;
CFG
s=$(show --config bs.cfg)
for kv in topology=torus routing=dor2 size=6 vcs=4 buffer=6 vc-rule=any traffic=tornado self=send packet=2:0.25,6:0.75 \
          rate=0.05 rates=0.05:0.05:1 batch=400 warmup=2:20 window=5 latency-limit=300 seed=9; do
  check "bs.cfg: ${kv%%=*}" "${kv%%=*}=$(value_of "$s" "${kv%%=*}")" "$kv"
done
# Our own names in a file; flags on the command line override it.
printf 'vcs = 2\nrates = 0.1:0.3:0.1\nbatch = 200 // ours\n' > ours.cfg
s=$(show --config ours.cfg --vcs 5 --rate 0.2)
check "flag over file: vcs" "$(value_of "$s" vcs)" 5
check "flag over file: --rate over the file's rates" "$(value_of "$s" rates)" "0.2:0.2:1"
check "file value kept: batch" "$(value_of "$s" batch)" 200
check "order does not matter" "$(show --vcs 5 --config ours.cfg | sed -n 's/^vcs=//p')" 5
# Refused, naming the file, the line and the key; exit 2 before any work.
printf 'k = 4\nhold_switch_for_packet = 1\n' > unknown.cfg
expect_usage "unknown key" "--config unknown.cfg, line 2: hold_switch_for_packet: unknown key" \
  $N load --config unknown.cfg --no-db
printf 'k = 4 // ok\n\nrouting_function = planar_adapt;\n' > routing.cfg
expect_usage "a routing function nocsim lacks" "routing.cfg, line 3: routing_function: 'planar_adapt' is not a routing function" \
  $N load --config routing.cfg --no-db
check "routing_function = min_adapt is --routing min-adaptive" \
  "$(printf 'routing_function = min_adapt\n' > ma.cfg; show --config ma.cfg | sed -n 's/^routing=//p')" min-adaptive
printf 'routing_function = xy_yx\n' > o1.cfg
expect_usage "stack: o1turn on the default torus" "routing o1turn: only on a mesh" \
  $N stack --config o1.cfg
# BookSim2's pipeline is router timing (docs/config.md): D = routing_delay + vc_alloc_delay +
# sw_alloc_delay - 1, S = st_final_delay, L = 1, C = credit_delay + 1, BookSim2's defaults
# (routing_delay 1, the others as the reference config) where a key is absent.
printf 'vc_alloc_delay = 2\n' > delay.cfg
check "vc_alloc_delay = 2 is router delay 1 + 2 + 1 - 1" \
  "$(show --config delay.cfg | grep -E '^(router|switch|link|credit)-delay=' | tr '\n' ' ')" \
  "router-delay=3 switch-delay=1 link-delay=1 credit-delay=1 "
printf 'routing_delay = 0; speculative = 1; credit_delay = 2\n' > spec.cfg
check "speculative: the larger allocation alone; credit_delay 2 is C 3" \
  "$(show --config spec.cfg | grep -E '^(router|credit)-delay=' | tr '\n' ' ')" "router-delay=0 credit-delay=3 "
printf 'routing_delay = 0\nst_final_delay = 2\n' > stf.cfg
expect_usage "a pipeline the four delays do not match" \
  "stf.cfg, line 2: st_final_delay = 2: nocsim's router timing matches BookSim2's pipeline" \
  $N load --config stf.cfg --no-db
printf 'vc_alloc_delay = 2\nrouter-delay = 0\n' > own.cfg
check "our own delay keys win over BookSim2's pipeline" \
  "$(show --config own.cfg | grep -E '^(router|link)-delay=' | tr '\n' ' ')" "router-delay=0 link-delay=0 "
printf 'num_vcs = 99\n' > range.cfg
expect_usage "a value out of the option's range" "range.cfg, line 1: num_vcs: '99' is out of range (allowed: [1, 8])" \
  $N load --config range.cfg --no-db
printf 'rate = 0.1; rates = 0.1:0.2:0.1\n' > both.cfg
expect_usage "rate and rates in one file" "--rate and --rates both given (in the --config file)" \
  $N load --config both.cfg --no-db
printf 'k = 4 x\n' > syntax.cfg
expect_usage "syntax" "syntax.cfg, line 1:" $N load --config syntax.cfg --size 4 --no-db
expect_usage "missing file" "nosuch.cfg: cannot open" $N load --config nosuch.cfg --no-db
# An empty list sets nothing: refused, not taken as an empty value (fuzz_experiment found it).
printf 'window = {}\n' > empty.cfg
expect_usage "an empty list" "empty.cfg, line 1: window = {}: an empty list" $N load --config empty.cfg --no-db
printf 'config = other.cfg\n' > nested.cfg
expect_usage "a file naming a file" "nested.cfg, line 1: config: unknown key" $N load --config nested.cfg --no-db
# --rate with --rates on the command line (issue 35 §4).
expect_usage "--rate with --rates" "--rate and --rates both given" $N load --rate 0.1 --rates 0.1:0.2:0.1 --no-db

# The BookSim2 reference configuration (../shared/reference/booksim2_openloop.md), unchanged.
cat > ref.cfg <<'CFG'
// BookSim2 (commit 28f4329) reference config. Torus: add topology=torus routing_function=dim_order
topology = mesh; k = 8; n = 2;
routing_function = dor;          // -> dor_mesh: x then y
use_noc_latency = 0;             // 1-cycle links (default 1 gives torus links latency 2)
num_vcs = 3; vc_buf_size = 4; wait_for_tail_credit = 0;
router = iq; speculative = 0;
routing_delay = 0;               // lookahead routing
vc_alloc_delay = 1; sw_alloc_delay = 1;   // 0 is refused
st_prepare_delay = 0; st_final_delay = 1; // st_final_delay=0 asserts
credit_delay = 0;
vc_allocator = islip; sw_allocator = islip; alloc_iters = 1;
traffic = uniform; packet_size = 8; injection_process = bernoulli;
injection_rate_uses_flits = 1; injection_rate = 0.02;   // flits/node/cycle
sim_type = latency; warmup_periods = 3; sample_period = 1000; max_samples = 10;
latency_thres = 500.0; include_queuing = 1; seed = 0;
CFG
j=$($N load --config ref.cfg --no-db --format json 2>err.txt); rc=$?
check "reference config runs" "$rc" 0
grep -q "taken as the nearest nocsim has (docs/config.md): router, vc_allocator, sw_allocator" err.txt && ok ||
  bad "reference config: the approximate keys are not named: $(cat err.txt)"
# Uniform with BookSim2's self-addressed packets on an 8x8 mesh: mean hops
# 2 x (8^2 - 1) / (3 x 8) = 5.25 over all 64 destinations; BookSim2's pipeline
# is D = S = L = C = 1, 4 cycles a hop, and a lone 8-flit packet takes 4H + 14
# (BookSim2's own lone packets, test_openloop), so the zero-load latency is
# 4 x 5.25 + 14 = 35; at 0.02 the measured latency is near it (BookSim2: 35.5).
check "reference: zero load" "$(printf '%s' "$j" | python3 -c 'import json,sys; print(json.load(sys.stdin)["zero_load"])')" 35.0
check "reference: the timing recorded" "$(printf '%s' "$j" | python3 -c '
import json,sys; d=json.load(sys.stdin); print(d["router_delay"], d["switch_delay"], d["link_delay"], d["credit_delay"])')" "1 1 1 1"
check "reference: one point at 0.02, near zero load" "$(printf '%s' "$j" | python3 -c '
import json,sys; p=json.load(sys.stdin)["points"]; print(len(p), p[0]["rate"], abs(p[0]["latency"] - 35) < 1.5)')" "1 0.02 True"

# Several patterns: one curve each, each stored as its own run.
$N load --size 4 --traffic uniform,transpose --rates 0.1:0.2:0.1 --db two.db --quiet --format csv > two.csv; rc=$?
check "two patterns: exit" "$rc" 0
check "two patterns: runs" "$(sqlite3 two.db "SELECT traffic FROM runs WHERE kind = 'load' ORDER BY id" | tr '\n' ' ')" \
  "uniform transpose "
check "two patterns: points per run" "$(sqlite3 two.db 'SELECT COUNT(*) FROM load_points GROUP BY run ORDER BY run' | tr '\n' ' ')" "2 2 "
check "two patterns: one CSV header" "$(grep -c '^topology,' two.csv)" 1
check "two patterns: rows" "$(cut -d, -f3 two.csv | tail -n +2 | tr '\n' ' ')" "uniform uniform transpose transpose "
# Each curve is the one a call with that pattern alone gives.
check "two patterns: transpose as alone" "$(grep ',transpose,' two.csv)" \
  "$($N load --size 4 --traffic transpose --rates 0.1:0.2:0.1 --no-db --quiet --format csv | tail -n +2)"
expect_usage "a bad pattern is refused before any curve" "unknown traffic 'nosuch'" \
  $N load --size 4 --traffic uniform,nosuch --rate 0.1 --db bad.db
[ ! -e bad.db ] && ok || bad "a refused pattern list left bad.db"
expect_usage "a pattern named twice" "'uniform' is named twice" $N load --traffic uniform,uniform --no-db

# The closed-loop commands (stack, ga, replay) take the keys that apply to
# them: the same run as the flags, flags override, load-only keys refused.
printf 'topology = mesh; k = 4; num_vcs = 2; vc_buf_size = 6; packet_size = 4; traffic = trns; seed = 5\n' > closed.cfg
check "stack --config: the flags' run" "$($N stack --config closed.cfg --arb C00 --interval 8:10 --format csv 2>/dev/null)" \
  "$($N stack --size 4 --topology mesh --vcs 2 --buffer 6 --flits 4 --traffic trns --seed 5 --arb C00 --interval 8:10 --format csv)"
check "stack: a flag before --config overrides it" \
  "$($N stack --buffer 1 --config closed.cfg --arb C00 --interval 8:10 --format csv 2>/dev/null)" \
  "$($N stack --size 4 --topology mesh --vcs 2 --buffer 1 --flits 4 --traffic trns --seed 5 --arb C00 --interval 8:10 --format csv)"
expect_usage "ga: a load-only key" "--config ref.cfg, line 13: injection_rate: not an option of ga" \
  $N ga --config ref.cfg --no-db
expect_usage "stack: a packet mix" "closed2.cfg, line 1: packet_size: one packet length" \
  sh -c "printf 'packet_size = {1,8}\n' > closed2.cfg; exec $N stack --config closed2.cfg"

echo "config_cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
