#!/usr/bin/env bash
# Regenerate data/routing.md: nocsim's routing functions side by side with
# BookSim2's on the 8x8 mesh and the 8x8 torus, under uniform, transpose, bit-complement and
# tornado traffic: the saturation point of each (the highest stable rate),
# zero-load latency and the channel-load bound.  Nothing of BookSim2 enters
# the repository; only its measured numbers do.
#   scripts/routing.sh [all|torus]
#   torus: only the 8x8 torus rows run again; the mesh table is kept as the
#          file has it (its tail, scripts/routing_tail.md, copied afresh)
#   NOCSIM=path   the binary (default ./nocsim);  SEED=s (default 1)
#   BOOKSIM=path  a BookSim2 binary (default: scripts/booksim2.sh builds one)
#   JOBS=n        cases run at once (default: the cores)
# Both sides: 4 VCs (BookSim2's two-class functions split the VCs in halves
# and need an even count), 8-flit packets, Bernoulli injection, uniform
# traffic including the source itself and fixed points of a permutation
# sending to themselves (BookSim2's patterns; nocsim --self send).
# Router timing matched: BookSim2's iq router in the configuration of
# shared/reference/booksim2_openloop.md (4-flit buffers), nocsim with the
# same pipeline as router timing (docs/model.md [R-TM-5]: --router-delay 1
# --switch-delay 1 --link-delay 1 --credit-delay 1) and 4-flit FIFOs.
# Saturation: nocsim's own search (load --saturation, precision 0.005);
# BookSim2 by bisection to 1/512 on whether its run ends stable (not
# "unstable", not past its latency_thres of 500).
# Selection: nocsim's min-adaptive runs with --selection random in the
# matched rows, mesh and torus.  BookSim2's min_adapt has no selection
# function: its header requests every admissible VC (the adaptive VCs of
# every minimal port and the escape VC) at once and its iSLIP VC allocator
# picks one without looking at credits, which random matches and credits
# (nocsim's default: most free downstream slots) does not.  The credits
# figures are printed too, in rows of their own against the same BookSim2
# figure, the ratio in parentheses and not counted.  The count lines: the
# matched rows of the listed functions (o1turn, romm, valiant, min-adaptive
# on the mesh; valiant on the torus, which BookSim2 cannot run) and of all
# the rows, dor's and dor2's baselines included.
set -euo pipefail
cd "$(dirname "$0")/.."
PART=${1:-all}
case $PART in all|torus) ;; *) echo "usage: scripts/routing.sh [all|torus]" >&2; exit 2 ;; esac
N=${NOCSIM:-./nocsim}
SEED=${SEED:-1}
BOOKSIM=${BOOKSIM:-$(bash scripts/booksim2.sh)}
JOBS=${JOBS:-$(nproc)}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
functions="dor:dor o1turn:xy_yx romm:romm valiant:valiant min-adaptive:min_adapt"
# The torus rows (docs/model.md [R-RF-11], [R-RF-12]): dor2 against
# BookSim2's dim_order (dim_order_torus) as the torus's baseline,
# min-adaptive against its min_adapt (min_adapt_torus: escape VCs 0 and 1,
# like ours); valiant alone ("-": BookSim2's valiant_torus aborts).
torus_functions="dor2:dim_order min-adaptive:min_adapt valiant:-"
patterns="uniform:uniform transpose:transpose bitcomp:bitcomp tornado:tornado"

# booksim_stable BS_ROUTING BS_TRAFFIC RATE [OUT]: exit 0 when BookSim2 ends
# stable; its output goes to OUT when given.  TOPO: mesh or torus.
booksim_stable() {
  local cfg out
  cfg=$(mktemp "$tmp/cfg.XXXXXX"); out=${4:-$cfg.out}
  cat > "$cfg" <<EOF
topology = ${TOPO:-mesh}; k = 8; n = 2; routing_function = $1; use_noc_latency = 0;
num_vcs = 4; vc_buf_size = 4; wait_for_tail_credit = 0;
router = iq; speculative = 0; routing_delay = 0; vc_alloc_delay = 1; sw_alloc_delay = 1;
st_prepare_delay = 0; st_final_delay = 1; credit_delay = 0;
vc_allocator = islip; sw_allocator = islip; alloc_iters = 1;
traffic = $2; packet_size = 8; injection_process = bernoulli;
injection_rate_uses_flits = 1; injection_rate = $3;
sim_type = latency; warmup_periods = 3; sample_period = 1000; max_samples = 10;
latency_thres = 500.0; include_queuing = 1; seed = 0;
EOF
  "$BOOKSIM" "$cfg" > "$out" 2>&1 || true
  ! grep -q -e "unstable" -e "Aborting" -e "Too many sample periods" "$out" && grep -q "Overall Traffic Statistics" "$out"
}

# nocsim_case NAME PATTERN TOPO JSON [SELECTION...]: nocsim's saturation search
# for one case, its JSON to JSON.  A torus takes the any-VC rule explicitly.
nocsim_case() {
  local name=$1 pat=$2 topo=$3 j=$4; shift 4
  "$N" load --size 8 --topology "$topo" --vcs 4 --vc-rule any --routing "$name" "$@" --traffic "$pat" --self send \
    --rates 0.01:1:0.01 --router-delay 1 --switch-delay 1 --link-delay 1 --credit-delay 1 --vc-alloc rotate \
    --saturation --seed "$SEED" --no-db --quiet --format json > "$j"
}

# one_case NAME BS_NAME PATTERN BS_PATTERN [TOPO]: one line "topo name pattern
# nocsim_json_file booksim_sat booksim_t0 credits_json_file" (nan nan without
# BookSim2's function; "-" for the credits file but for min-adaptive, whose
# matched run takes --selection random and whose default credits run is the
# extra file).
one_case() {
  local lo=0 hi=1 mid t0 topo=${5:-mesh} j=$tmp/$1-$3-${5:-mesh}.json jc=-
  if [ "$1" = min-adaptive ]; then
    nocsim_case "$1" "$3" "$topo" "$j" --selection random
    jc=$tmp/$1-$3-$topo-credits.json
    nocsim_case "$1" "$3" "$topo" "$jc" --selection credits
  else
    nocsim_case "$1" "$3" "$topo" "$j"
  fi
  if [ "$2" = - ]; then echo "$topo $1 $3 $j nan nan $jc"; return; fi
  export TOPO=$topo
  for _ in 1 2 3 4 5 6 7 8 9; do
    mid=$(awk -v a=$lo -v b=$hi 'BEGIN { printf "%.6f", (a + b) / 2 }')
    if booksim_stable "$2" "$4" "$mid"; then lo=$mid; else hi=$mid; fi
  done
  # Zero-load latency: BookSim2's average packet latency at 0.01.
  booksim_stable "$2" "$4" 0.01 "$tmp/t0.out" || true
  t0=$(sed -n 's/^Packet latency average = \([0-9.]*\) (1 samples)/\1/p' "$tmp/t0.out" | tail -1)
  rm -f "$tmp"/cfg.*
  echo "$topo $1 $3 $j $lo ${t0:-nan} $jc"
}
export -f one_case nocsim_case booksim_stable
export N SEED BOOKSIM tmp
# BookSim2's torus valiant: does it run at all?  Its error, for the file.
TOPO=torus booksim_stable valiant uniform 0.05 "$tmp/valiant_torus.out" || true
bs_valiant=$(grep -m1 -o "Assertion.*failed" "$tmp/valiant_torus.out" || echo "runs")
{
  if [ "$PART" = all ]; then
    for f in $functions; do
      for p in $patterns; do echo "${f%%:*} ${f#*:} ${p%%:*} ${p#*:} mesh"; done
    done
  fi
  for f in $torus_functions; do
    for p in $patterns; do echo "${f%%:*} ${f#*:} ${p%%:*} ${p#*:} torus"; done
  done
} | xargs -P "$JOBS" -L 1 bash -c 'mkdir -p "$tmp/$$" && tmp=$tmp/$$ one_case "$@"' _ > "$tmp/cases.txt"
python3 - "$tmp/cases.txt" "$SEED" "$PART" "$bs_valiant" <<'PY'
import json, re, sys
cases, seed, part, bs_valiant = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
m = re.search(r"`([^']*)'", bs_valiant)
bs_valiant = f"aborts on its assertion `{m.group(1)}`" if m else bs_valiant
order = ['dor', 'o1turn', 'romm', 'valiant', 'min-adaptive']
listed = {'mesh': {'o1turn', 'romm', 'valiant', 'min-adaptive'}, 'torus': {'valiant'}}
pats = ['uniform', 'transpose', 'bitcomp', 'tornado']
res = {}
for line in open(cases):
    topo, name, pat, jf, bsat, bt0, jc = line.split()
    res[(topo, name, pat)] = (json.load(open(jf)), float(bsat), float(bt0),
                              None if jc == '-' else json.load(open(jc)))

def fmt(v, f):
    return 'aborts' if v != v else f % v

def rows_of(topo, name, pat, with_sb):
    """The table rows of one case: the matched one (its ratio counted) and,
    for min-adaptive, nocsim's default credits one (its ratio in parentheses).
    Returns (rows, ratio of the matched row)."""
    d, bsat, bt0, dc = res[(topo, name, pat)]
    out, ratio = [], float('nan')
    for sel, dd in ((('random' if dc else '-'), d), ('credits, nocsim default: not counted', dc)):
        if dd is None:
            continue
        sat = dd['saturation']['rate']
        r = sat / bsat if bsat > 0 else float('nan')
        rs = fmt(r, '%.2f')
        if dd is d:
            ratio = r
        elif r == r:
            rs = f"({rs})"
        sb = f" {sat / dd['bound']:.2f} |" if with_sb else ''
        out.append(f"| {name} | {sel} | {pat} | {dd['zero_load']:.1f} | {dd['points'][0]['latency']:.1f} | "
                   f"{fmt(bt0, '%.1f')} | {dd['avg_hops']:.2f} | {dd['bound']:.3f} | {sat:.3f} |{sb} "
                   f"{fmt(bsat, '%.3f')} | {rs} |")
    return out, ratio

def count(ratios):
    """(within 10 %, compared) over the ratios that are numbers."""
    rs = [r for r in ratios if r == r]
    return sum(abs(r - 1) <= 0.10 for r in rs), len(rs)

torus_rows, ratios = [], {}
for name in ['dor2', 'min-adaptive', 'valiant']:
    for pat in pats:
        rr, r = rows_of('torus', name, pat, True)
        torus_rows += rr
        ratios[('torus', name, pat)] = r
t_within, t_total = count(ratios.values())
torus = f"""
## 8x8 torus

Made by the same script (`scripts/routing.sh torus` remakes this part alone), timing and traffic as
above, 4 VCs of 4 flits under the any-VC rule (`--topology torus --vcs 4 --vc-rule any`, the default for these
functions on a torus; the dateline rule would take each class's first VC only). `dor2` and BookSim2's
`dim_order` (`dim_order_torus`) are the torus's dimension order in two dateline classes of two VCs
each, the baseline of the other rows. nocsim's `min-adaptive`
keeps VCs 0 and 1 as its dateline escape and 2-3 adaptive [R-RF-12], matched with `--selection random`
and shown with `credits` too, as on the mesh; BookSim2's `min_adapt`
(`min_adapt_torus`, which needs 4 VCs) keeps VCs 0 and 1 as its escape and VC 3 alone adaptive.
nocsim's `valiant` runs its two phases in two dateline classes each, one VC a class [R-RF-11];
BookSim2's torus `valiant` {bs_valiant} at rate 0.05, as at every load
(shared/reference/booksim2_openloop.md), so its rows are nocsim's alone, saturation against the
channel-load bound.

| routing | nocsim selection | traffic | nocsim T0 | nocsim latency at 0.01 | BookSim2 latency at 0.01 | nocsim hops | nocsim bound | nocsim saturation | saturation / bound | BookSim2 saturation | ratio |
|---|---|---|---|---|---|---|---|---|---|---|---|
""" + '\n'.join(torus_rows) + f"""

Saturation within 10 % of BookSim2's where both run (matched rows): {t_within} of {t_total} cases.
""" + open('scripts/routing_torus_tail.md').read()

if part == 'torus':
    old = open('data/routing.md').read()
    head = old[:old.index('\n## The differences over 10 %, explained')].rstrip('\n') + '\n'
    head = head.replace('(8x8 mesh)\n', '(8x8 mesh and torus)\n', 1)  # a file made before the torus rows
    # The mesh's matched ratios, read back from its table: a ratio in
    # parentheses (a credits row) is not counted.
    for line in head.splitlines():
        c = [x.strip() for x in line.strip('|').split('|')]
        if len(c) == 11 and c[0] in order and c[2] in pats and re.fullmatch(r'[0-9.]+', c[-1]):
            ratios[('mesh', c[0], c[2])] = float(c[-1])
    mesh = None
else:
    rows = []
    for name in order:
        for pat in pats:
            rr, r = rows_of('mesh', name, pat, False)
            rows += rr
            ratios[('mesh', name, pat)] = r
    within, total = count(r for (t, n, p), r in ratios.items() if t == 'mesh')
    l_within, l_total = count(r for (t, n, p), r in ratios.items() if t == 'mesh' and n in listed['mesh'])
    head = f"""# Routing functions: nocsim against BookSim2 (8x8 mesh and torus)

Made by `scripts/routing.sh` (seed {seed}); do not edit by hand. BookSim2 is commit 28f4329, built from
its public source in a scratch folder; its numbers are measured here, its code is not in this
repository.

Both sides: 8x8 mesh, 4 VCs of 4 flits, 8-flit packets, Bernoulli injection, rates in flits per
node per cycle; uniform traffic includes the source itself, a permutation's fixed points send to
themselves (BookSim2's patterns: nocsim `--self send`). Router timing matched: BookSim2's iq router
of `shared/reference/booksim2_openloop.md`, and nocsim's router with the same pipeline (docs/model.md
[R-TM-5]: `--router-delay 1 --switch-delay 1 --link-delay 1 --credit-delay 1`), the any-VC rule,
`--vc-alloc rotate`. BookSim2 names: `dor`, `xy_yx` (o1turn), `romm`, `valiant`, `min_adapt`.

Selection matched too: nocsim's `min-adaptive` runs with `--selection random` in the matched rows.
BookSim2's `min_adapt` has no selection function: its header requests every admissible VC at once
(the adaptive VCs of both minimal ports and the escape VC) and its iSLIP VC allocator picks one
without looking at credits; nocsim's `random` picks among the admissible ports without looking at
credits too, its `credits` (the default: the port with the most free downstream slots) does look.
The `credits` figures are shown in rows of their own against the same BookSim2 figure, their ratio
in parentheses and not counted. The oblivious functions have no selection (`-`).

Saturation: the highest stable rate; nocsim by its own search (`load --saturation`, precision 0.005:
accepted within 2 % of offered, mean latency under 500, the drain finished), BookSim2 by bisection to
1/512 on whether its run ends stable (not "unstable", mean latency under its `latency_thres` of 500).
T0: nocsim's analytic zero-load latency (4 cycles a hop + a lone packet's rest, [R-TM-4]), its
measured latency at 0.01, and BookSim2's measured latency at 0.01.

| routing | nocsim selection | traffic | nocsim T0 | nocsim latency at 0.01 | BookSim2 latency at 0.01 | nocsim hops | nocsim bound | nocsim saturation | BookSim2 saturation | ratio |
|---|---|---|---|---|---|---|---|---|---|---|
""" + '\n'.join(rows) + f"""

Saturation within 10 % of BookSim2's (matched rows): {l_within} of {l_total} cases of the listed
functions (`o1turn`, `romm`, `valiant`, `min-adaptive`), {within} of {total} with `dor`'s.
"""
l_within, l_total = count(r for (t, n, p), r in ratios.items() if n in listed[t])
a_within, a_total = count(ratios.values())
n_listed = sum(1 for (t, n, p) in ratios if n in listed[t])
summary = f"""
## Count

Saturation within 10 % of BookSim2's, matched rows (`min-adaptive` with `--selection random`; the
`credits` rows not counted), mesh and torus together: the listed cases (`o1turn`, `romm`,
`valiant`, `min-adaptive` on the mesh, `valiant` on the torus) {l_within} of the {l_total} that
BookSim2 runs ({n_listed - l_total} of the {n_listed} listed, the torus `valiant`'s, have no BookSim2
figure); all cases, the `dor` and `dor2` baselines and the torus `min-adaptive` included, {a_within}
of {a_total}.
"""
with open('data/routing.md', 'w') as f:
    f.write(head + open('scripts/routing_tail.md').read() + torus + summary)
PY
echo "data/routing.md written"
