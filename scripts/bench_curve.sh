#!/usr/bin/env bash
# Curves at the engine's speed (issue 37 section 6), run by scripts/bench.sh
# or by hand: the 16x16 mesh uniform curve at 0.02:0.22:0.02 (every rate,
# --all, one thread), nocsim beside BookSim2 on the same rates, each side
# run three times with seeds 1, 2, 3, the least user CPU of the three per
# curve (a busy machine only adds to CPU time).  Printed per rate: each
# side's mean latency over the three seeds and the spread of one run's mean
# (1.96 x their standard deviation: the same estimate on both sides, rough
# with three seeds), also as a share of the mean, and nocsim's own CI95
# (batch means, the mean of the three); then `name value unit` lines and the
# target (60x per curve).  Equal statistical quality: nocsim's points are
# asked for a CI95 within 1 % of the mean (BookSim2's spread is 0.4-2 % of
# its mean below 0.18, its latencies being 2-3x ours: its router takes 4
# cycles a hop); a second nocsim setting matched on the CI in cycles
# (2 % of a mean half BookSim2's) is timed beside it.
#   BUILD=dir       the build directory (default build)
#   BOOKSIM=path    a BookSim2 binary (scripts/booksim2.sh builds one); without
#                   it only nocsim's side is run
#   CURVE_FLAGS     nocsim's measurement (default: --ci 0.01 --batch 500
#                   --window 40: relative precision of 1 %, at most 40 batches)
#   CURVE_FLAGS_ABS the second setting (default: --ci 0.02 --batch 500)
#   CURVE_FIXED=0   skip the fixed-window curves (default and --early-stop)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
flags=${CURVE_FLAGS:---ci 0.01 --batch 500 --window 40}
flags_abs=${CURVE_FLAGS_ABS:---ci 0.02 --batch 500}
rates="0.02 0.04 0.06 0.08 0.10 0.12 0.14 0.16 0.18 0.20 0.22"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# A copy: a rebuild during the (long) run must not change the binary timed.
cp "$BUILD/nocsim" "$tmp/nocsim"
nocsim=$tmp/nocsim
TIMEFORMAT=%U
# nocsim's curve, seed $1, flags $2: its CSV into $4, user CPU appended to $3.
ncurve() {
  { time "$nocsim" load --no-db --size 16 --traffic uniform --rates 0.02:0.22:0.02 --all --threads 1 --quiet \
      --format csv --seed "$1" $2 > "$4"; } 2>> "$3"
}
# BookSim2's curve, seed $1: one run a rate (its reference configuration,
# shared/reference/booksim2_openloop.md, on k = 16), each run's output into
# $tmp/b$1.RATE, the curve's user CPU appended to $tmp/bt.
bcurve() {
  { time for r in $rates; do
      cat > "$tmp/b.cfg" <<EOF
topology = mesh; k = 16; n = 2; routing_function = dor; use_noc_latency = 0;
num_vcs = 3; vc_buf_size = 4; wait_for_tail_credit = 0;
router = iq; speculative = 0; routing_delay = 0; vc_alloc_delay = 1; sw_alloc_delay = 1;
st_prepare_delay = 0; st_final_delay = 1; credit_delay = 0;
vc_allocator = islip; sw_allocator = islip; alloc_iters = 1;
traffic = uniform; packet_size = 8; injection_process = bernoulli;
injection_rate_uses_flits = 1; injection_rate = $r;
sim_type = latency; warmup_periods = 3; sample_period = 1000; max_samples = 10;
latency_thres = 500.0; include_queuing = 1; seed = $1;
EOF
      "$BOOKSIM" "$tmp/b.cfg" > "$tmp/b$1.$r" 2>&1 || true
    done; } 2>> "$tmp/bt"
}
for seed in 1 2 3; do
  ncurve "$seed" "$flags" "$tmp/nt" "$tmp/n$seed"
  ncurve "$seed" "$flags_abs" "$tmp/at" "$tmp/a$seed"
  if [ -n "${BOOKSIM:-}" ]; then bcurve "$seed"; fi
done
# BookSim2's latency per rate and seed: the overall packet latency, or
# "sat" when it ended the run unstable (its latency past latency_thres).
if [ -n "${BOOKSIM:-}" ]; then
  for r in $rates; do
    for seed in 1 2 3; do
      v=$(sed -n 's/^Packet latency average = \([0-9.]*\) (1 samples)$/\1/p' "$tmp/b$seed.$r" | tail -1)
      if grep -q "Simulation unstable" "$tmp/b$seed.$r" || [ -z "$v" ]; then v=sat; fi
      echo "$r $seed $v"
    done
  done > "$tmp/blat"
fi
nt=$(sort -n "$tmp/nt" | head -1)
at=$(sort -n "$tmp/at" | head -1)
bt=$( [ -s "$tmp/bt" ] && sort -n "$tmp/bt" | head -1 || echo "")
awk -F, -v nt="$nt" -v at="$at" -v bt="$bt" -v flags="$flags" -v flags_abs="$flags_abs" -v blat="$tmp/blat" '
  function spread(s, s2, n) { return n > 1 ? 1.96 * sqrt((s2 - s * s / n) / (n - 1)) : 0 }
  FNR == 1 { next }
  { r = sprintf("%.2f", $6); rate[r] = 1; n[r]++; s[r] += $9; s2[r] += $9 * $9; ci[r] += $10
    if ($22 != "no") sat[r] = $22 }
  END {
    while ((getline line < blat) > 0) {
      split(line, f, " "); r = sprintf("%.2f", f[1])
      if (f[3] == "sat") bsat[r] = 1; else { bn[r]++; bs[r] += f[3]; bs2[r] += f[3] * f[3] }
    }
    printf "curve_16x16_uniform: rate, nocsim latency +- spread95 (3 seeds; share of the mean), nocsim CI95 (batch means) | BookSim2 latency +- spread95 (3 seeds; share)\n"
    for (k = 2; k <= 22; k += 2) {
      r = sprintf("%.2f", k / 100)
      if (!(r in rate)) continue
      sp = spread(s[r], s2[r], n[r])
      line = sprintf("curve_16x16_uniform_%s %.2f +- %.2f (%.1f %%), ci95 %.2f", r, s[r] / n[r], sp, 100 * sp / (s[r] / n[r]), ci[r] / n[r])
      if (r in sat) line = line " (saturated: " sat[r] ")"
      if (bt != "") {
        if (r in bsat && !(r in bn)) line = line " | BookSim2 unstable (latency past 500)"
        else if (r in bn) {
          sp = spread(bs[r], bs2[r], bn[r])
          if (!(r in sat) && !(r in bsat)) { qn += spread(s[r], s2[r], n[r]) / (s[r] / n[r]); qb += sp / (bs[r] / bn[r]); qk++ }
          line = line sprintf(" | BookSim2 %.2f +- %.2f (%.1f %%)%s", bs[r] / bn[r], sp, 100 * sp / (bs[r] / bn[r]), r in bsat ? " (unstable on some seeds)" : "")
        }
      }
      print line
    }
    printf "openloop_curve_16x16_uniform_s %.2f s CPU (11 rates, --all, one thread, %s, least of 3)\n", nt, flags
    printf "openloop_curve_16x16_uniform_abs_s %.2f s CPU (the same, %s: CI in cycles about BookSim2'"'"'s, least of 3)\n", at, flags_abs
    if (bt != "") {
      printf "booksim2_curve_16x16_uniform_s %.2f s CPU (11 runs, its reference configuration, least of 3)\n", bt
      printf "openloop_curve_vs_booksim2_16x16_abs %.0f x (%s)\n", bt / at, flags_abs
      printf "openloop_curve_vs_booksim2_16x16 %.0f x (%s)\n", bt / nt, flags
      q = qk ? sprintf("quality over the %d rates both keep stable, mean spread95 / mean: nocsim %.2f %%, BookSim2 %.2f %% (%s)",
                       qk, 100 * qn / qk, 100 * qb / qk, qn <= qb ? "nocsim as fine or finer" : "nocsim coarser") : "no rate stable on both sides"
      if (bt / nt >= 60) printf "target_curve_60x met: %.0f x >= 60 x (16x16 mesh uniform 0.02:0.22:0.02, both on this machine; %s)\n", bt / nt, q
      else printf "target_curve_60x missed: %.0f x < 60 x (%.2fx short; %s)\n", bt / nt, 60 / (bt / nt), q
    }
  }' "$tmp"/n1 "$tmp"/n2 "$tmp"/n3
# The fixed window beside it (the default, and with --early-stop): least of 3, seed 1.
if [ "${CURVE_FIXED:-1}" != 0 ]; then
  for f in "" "--early-stop"; do
    rm -f "$tmp/ft"
    for rep in 1 2 3; do ncurve 1 "$f" "$tmp/ft" "$tmp/f"; done
    awk -v t="$(sort -n "$tmp/ft" | head -1)" -v f="${f:-default}" -v c="$(awk -F, 'NR > 1 { c += $20 } END { print c }' "$tmp/f")" \
      'BEGIN { printf "openloop_curve_16x16_uniform_fixed_s %.2f s CPU (%s: 10-batch window, 11 rates, %d cycles, least of 3)\n", t, f, c }'
  done
fi
