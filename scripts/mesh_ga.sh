#!/usr/bin/env bash
# Regenerate data/mesh_ga.md: the Cup-Stacking GA on meshes (the any-VC rule,
# the mesh default) beside the same runs on the torus: simple stacking, the
# GA's best (default search, the paper's budget of 50,000 simulations) and the
# floor (busiest link's flits plus head and tail), six patterns, two slices.
#   NOCSIM=path (default ./nocsim); SEEDS="1 2 3" (8x8); SEEDS16="1" (16x16:
#   a run takes a minute or so)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${NOCSIM:-./nocsim}
SEEDS=${SEEDS:-1 2 3}
SEEDS16=${SEEDS16:-1}
seeds_of() { [ "$1" = 16 ] && echo "$SEEDS16" || echo "$SEEDS"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for n in 8 16; do
  for topo in mesh torus; do
    for p in bcmp brev brot shfl torn trns; do
      for s in $(seeds_of $n); do
        "$N" ga --topology $topo --size "$n" --traffic $p --slices 2 --seed "$s" --no-db --quiet --format json \
          > "$tmp/$n-$topo-$p-$s.json"
      done
    done
  done
done
python3 - "$tmp" "$SEEDS" "$SEEDS16" <<'PY' > data/mesh_ga.md
import json, os, statistics, sys
tmp, seeds8, seeds16 = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
print("# The Cup-Stacking GA on meshes\n")
print("Made by `scripts/mesh_ga.sh` (8x8: seeds %s; 16x16: seed %s):" % (" ".join(seeds8), " ".join(seeds16)))
print("`nocsim ga --topology T --size N --traffic P --slices 2 --seed S`,")
print("the default search with the paper's budget of 50,000 simulations. The mesh uses the any-VC rule (its")
print("default: a header takes any free VC of its output port; docs/openloop.md), the torus the paper's")
print("dateline rule. *Stacking* is simple stacking's best (every port on one scheme, every node at")
print("once, the interval swept); *floor* the busiest link's flits plus the head's and tail's latency")
print("(`ga/floor.c`). GA: the median of the seeds' best durations (each seed's in brackets).\n")
for n, seeds in (("8", seeds8), ("16", seeds16)):
    print("## %sx%s, two slices\n" % (n, n))
    print("| pattern | mesh stacking | mesh GA | GA / stacking | mesh floor | torus stacking | torus GA | torus floor |")
    print("|---|---|---|---|---|---|---|---|")
    for p in ("bcmp", "brev", "brot", "shfl", "torn", "trns"):
        row = [p]
        for topo in ("mesh", "torus"):
            runs = [json.load(open(os.path.join(tmp, "%s-%s-%s-%s.json" % (n, topo, p, s)))) for s in seeds]
            best = [r["best_duration"] for r in runs]
            med = statistics.median(best)
            st = runs[0]["stacking"]
            cell = "%g (%s)" % (med, " ".join(str(b) for b in best))
            if topo == "mesh":
                row += [str(st), cell, "%.3f" % (med / st), str(runs[0]["floor"])]
            else:
                row += [str(st), cell, str(runs[0]["floor"])]
        print("| " + " | ".join(row) + " |")
    print()
PY
echo "wrote data/mesh_ga.md"
