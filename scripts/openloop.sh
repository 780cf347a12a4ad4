#!/usr/bin/env bash
# Regenerate data/openloop.md and data/openloop_curves.csv (the 8x8 mesh's
# figure, docs/openloop_mesh8.png, is scripts/pictures.sh's): the seven patterns on the 8x8 mesh and torus,
# each curve from 0.01 in steps of 0.01 to its first saturated rate, the
# saturation point by bisection to 0.005, beside BookSim2's figures for the
# closest configuration it accepts (shared/reference/booksim2_openloop.md).
#   NOCSIM=path   the binary (default ./nocsim);  SEED=s (default 1)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${NOCSIM:-./nocsim}
SEED=${SEED:-1}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for topo in mesh torus; do
  for t in uniform transpose bitcomp bitrev shuffle tornado neighbor; do
    "$N" load --topology $topo --size 8 --traffic $t --rates 0.01:1:0.01 --saturation --seed "$SEED" \
      --no-db --quiet --format json > "$tmp/$topo-$t.json"
    "$N" load --topology $topo --size 8 --traffic $t --rates 0.01:1:0.01 --saturation --seed "$SEED" \
      --per-flow --no-db --quiet --format json > "$tmp/$topo-$t-flow.json"
  done
done
python3 - "$tmp" "$SEED" <<'PY'
import json, sys, os
tmp, seed = sys.argv[1], sys.argv[2]
HEAD = open('scripts/openloop_head.md').read().replace('@SEED@', seed)
TAIL = open('scripts/openloop_tail.md').read()
# BookSim2, shared/reference/booksim2_openloop.md (commit 28f4329): zero-load
# latency, avg hops, saturation offered / accepted, bound.
bs = {
 ('mesh','uniform'): (35.1, 6.13, 0.36, 0.348, 0.500), ('mesh','transpose'): (34.8, 6.05, 0.16, 0.155, 0.143),
 ('mesh','bitcomp'): (45.9, 8.82, 0.22, 0.217, 0.250), ('mesh','bitrev'): (35.1, 6.07, 0.16, 0.155, 0.143),
 ('mesh','shuffle'): (31.0, 5.11, 0.24, 0.236, 0.250), ('mesh','tornado'): (44.3, 8.45, 0.26, 0.255, 0.333),
 ('mesh','neighbor'): (27.5, 4.34, 0.82, 0.795, 1.000),
 ('torus','uniform'): (30.5, 5.03, 0.48, 0.470, 1.000), ('torus','transpose'): (30.3, 4.96, 0.28, 0.268, 0.286),
 ('torus','bitcomp'): (30.3, 5.00, 0.48, 0.464, 0.500), ('torus','bitrev'): (30.7, 5.03, 0.24, 0.230, 0.286),
 ('torus','shuffle'): (30.9, 5.11, 0.26, 0.256, 0.286), ('torus','tornado'): (38.8, 7.00, 0.16, 0.157, 0.333),
 ('torus','neighbor'): (22.1, 3.00, 0.82, 0.794, 1.000),
}
rows, csv = [], ['topology,traffic,rate,offered,accepted,latency,ci95,network_latency,p50,p99,max,hops,saturated']
for topo in ('mesh', 'torus'):
    for t in ('uniform', 'transpose', 'bitcomp', 'bitrev', 'shuffle', 'tornado', 'neighbor'):
        d = json.load(open(os.path.join(tmp, f'{topo}-{t}.json')))
        p, s = d['points'], d['saturation']
        fl = json.load(open(os.path.join(tmp, f'{topo}-{t}-flow.json')))['saturation']['rate']
        for q in p:
            csv.append(','.join(str(x) for x in (topo, t, q['rate'], q['offered'], q['accepted'], q['latency'],
                       q['ci95'], q['network_latency'], q['p50'], q['p99'], q['max'], q['hops'], q['saturated'])))
        acc = s['accepted'] * d['nodes'] / d['senders']
        b = bs[(topo, t)]
        rows.append(f"| {topo}8x8 | {t} | {d['zero_load']:.2f} | {p[0]['latency']:.2f} | {d['avg_hops']:.2f} | "
                    f"{d['bound']:.3f} ({d['busiest']}) | {s['rate']:.3f} / {acc:.3f} | {s['rate'] / d['bound']:.2f} | "
                    f"{fl:.3f} ({fl / d['bound']:.2f}) | "
                    f"{b[0]} | {b[2]} / {b[3]} | {b[4]:.3f} | {b[2] / b[4]:.2f} | {s['rate'] / b[2]:.2f} |")
open('data/openloop_curves.csv', 'w').write('\n'.join(csv) + '\n')
with open('data/openloop.md', 'w') as f:
    f.write(HEAD)
    f.write('| network | traffic | T0 analytic | latency at 0.01 | hops | bound (busiest channel) | saturation offered / '
            'accepted per sender | sat. / bound | per-flow saturation (/ bound) | BookSim2 T0 | BookSim2 sat. offered / '
            'accepted | BookSim2 bound | BookSim2 sat. / bound | nocsim / BookSim2 sat. |\n')
    f.write('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n')
    f.write('\n'.join(rows) + '\n')
    f.write(TAIL)
PY
# The 8x8 mesh curves are drawn by scripts/pictures.sh (nocsim plot load), not here.
echo "wrote data/openloop.md, data/openloop_curves.csv"
