#!/usr/bin/env bash
# JSON through jansson (issue 25): every --format json output parses as one
# JSON value (python3's json module, an independent reader), strings of any
# bytes come out escaped (quotes, control bytes) or replaced (bytes that are
# not UTF-8 become U+FFFD), and the values are the ones the text output shows.
set -u
. "$(dirname "$0")/testlib.bash"
N=${NOCSIM:-./nocsim}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# json_get FILE EXPR: python3 evaluates EXPR with j = the parsed document
# (exit 3 when the file is not exactly one JSON value).
json_get() {
  python3 - "$1" "$2" <<'PY'
import json, sys
try:
    j = json.loads(open(sys.argv[1], 'rb').read().decode('utf-8'))
except Exception as e:
    print('not JSON:', e); sys.exit(3)
print(eval(sys.argv[2]))
PY
}

printf '0 6\n' > "$tmp/one.tr"
# A traffic file whose path holds a quote, a backslash, a control byte and a
# byte that is not UTF-8: one packet 0 -> 6 on a 4x4 torus (duration 12).
odd="$tmp/a\"b\\c"$'\001'$'\377'".tr"
printf '0 6\n' > "$odd"
$N sim --size 4 --traffic "file:$odd" --format json > "$tmp/sim.json"
check "sim: traffic path escaped" "$(json_get "$tmp/sim.json" 'j["traffic"]')" \
  "file:$tmp/a\"b\\c"$'\001'"�.tr"
check "sim: duration" "$(json_get "$tmp/sim.json" 'j["duration"]')" 12
check "sim: integers are integers" "$(json_get "$tmp/sim.json" 'type(j["flits_injected"]).__name__')" int

# --links: the packet's three links (0 -> 1 -> 2 east, then up to 6), each 8
# flits, its head entering one cycle later per hop.
$N sim --size 4 --traffic "file:$tmp/one.tr" --links --format json > "$tmp/links.json"
check "sim --links: rows" "$(json_get "$tmp/links.json" '[(l["node"], l["first"], l["flits"]) for l in j["links"]]')" \
  "[(0, 1, 8), (1, 2, 8), (2, 3, 8)]"

$N stack --size 4 --arb C00,C01 --interval 8:10 --format json > "$tmp/stack.json"
check "stack: sweep rows" "$(json_get "$tmp/stack.json" 'len(j["sweep"]["C01"])')" 3
check "stack: best per scheme" "$(json_get "$tmp/stack.json" '[b["scheme"] for b in j["best"]]')" "['C00', 'C01']"

$N ga --size 4 --generations 3 --db "$tmp/g.db" --quiet --format json > "$tmp/ga.json"
check "ga: run id" "$(json_get "$tmp/ga.json" 'j["run"]')" 1
$N db runs --db "$tmp/g.db" --format json > "$tmp/runs.json"
check "db runs: one row" "$(json_get "$tmp/runs.json" 'len(j["rows"])')" 1
check "db runs: the GA's best" "$(json_get "$tmp/runs.json" 'j["rows"][0]["best"]')" \
  "$(json_get "$tmp/ga.json" 'j["best_duration"]')"
$N db show 1 --db "$tmp/g.db" --format json > "$tmp/show.json"
check "db show: params is an object" "$(json_get "$tmp/show.json" 'type(j["run"]["params"]).__name__')" dict
check "db show: params keep the seed" "$(json_get "$tmp/show.json" 'j["run"]["params"]["seed"]')" 1

# Broadcast on a ring of 6, all ports: each informed node sends on its 2
# channels, so at most 1, 3, 9 nodes know after 0, 1, 2 steps: bound 2, met.
$N cc --topology ring:6 --cc oab --format json --out "$tmp/s.json" > "$tmp/cc.json"
check "cc: bound" "$(json_get "$tmp/cc.json" 'j["bound"]')" 2
check "cc: schedule file steps" "$(json_get "$tmp/s.json" 'j["steps"]')" 2
$N cc verify "$tmp/s.json" --format json > "$tmp/v.json"
check "cc verify: valid" "$(json_get "$tmp/v.json" 'j["valid"]')" True
check "cc verify --format csv" "$($N cc verify "$tmp/s.json" --format csv | cut -d, -f1-3 | tail -1)" "1,2,2"

# Every document names the program's version and its schema (docs/json.md).
version=$($N --version | cut -d' ' -f2)
$N load --size 4 --rates 0.1:0.2:0.1 --no-db --quiet --format json > "$tmp/load.json"
check "load: two points" "$(json_get "$tmp/load.json" 'len(j["points"])')" 2
check "load: the zero-load latency (4x4 mesh uniform: 8/3 hops + 8 + 1)" "$(json_get "$tmp/load.json" 'round(j["zero_load"], 4)')" 11.6667
for f in sim:sim stack:stack ga:ga runs:db-runs show:db-show cc:cc v:cc-verify load:load; do
  check "$f: header" "$(json_get "$tmp/${f%%:*}.json" '(j["nocsim"], j["schema"])')" "('$version', 'nocsim-${f#*:}/1')"
done
$N cc bounds --topology ring:6 --cc oab --format json > "$tmp/b.json"
check "cc bounds: header" "$(json_get "$tmp/b.json" 'j["schema"]')" "nocsim-cc-bounds/1"
check "cc bounds: the bound" "$(json_get "$tmp/b.json" 'j["bound"]')" 2
$N db export 1 --db "$tmp/g.db" --table generations --format json > "$tmp/gen.json"
check "db export --table: header" "$(json_get "$tmp/gen.json" 'j["schema"]')" "nocsim-db-export-generations/1"
check "db export --table: one row per generation (3 and the start)" "$(json_get "$tmp/gen.json" 'len(j["rows"])')" 4
# docs/json.md documents every schema named above.
doc=$(dirname "$0")/../docs/json.md
for s in sim stack ga replay extrapolate post-stack sweep load load-trace cc cc-bounds cc-verify cc-cycles db-runs db-best \
         db-synonyms db-show db-export db-export-run db-export-generations db-export-chromosomes db-sweep db-merge; do
  grep -q "^## .*\`nocsim-$s/1\`" "$doc" && ok || bad "docs/json.md: no section for nocsim-$s/1"
done

echo "json_out: $pass passed, $fail failed"
[ $fail -eq 0 ]
