#!/usr/bin/env bash
# `nocsim load`'s traffic kinds and reports (issue 37 §3-4) through the CLI:
# a single flow and two flows on a 2x2 mesh worked out by hand (every
# packet alone: latency 2 hops + 1 flit + 1 = 4; a packet every 4 and 8
# cycles: accepted 0.25 and 0.125, Jain 0.9), the histogram in text, CSV
# and JSON, latency by packet length, a trace's per-packet latency at zero
# load (hops + flits + 1), and bad input refused with exit 2 naming the file,
# the line and the range.
set -u
N=${NOCSIM:-./nocsim}
source "$(dirname "$0")/testlib.bash"
in_scratch
jget() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

printf '0 3 1\n' > one.txt
printf '# two flows on disjoint routes\n0 3 1\n1 2 0.5\n' > two.txt
small="--no-db --quiet --size 2 --packet 1 --process periodic --batch 100 --rate 0.25"

# One flow: 250 packets in the window's 1,000 cycles, every one 4 cycles.
j=$($N load $small --traffic matrix:one.txt --histogram 1 --throughput --format json)
check "json histogram" "$(printf '%s' "$j" | jget 'j["points"][0]["histogram"]')" "[{'lo': 4, 'hi': 5, 'count': 250}]"
check "json node accepted" "$(printf '%s' "$j" | jget 'j["points"][0]["throughput"]["node_accepted"]')" "[0.25, 0.0, 0.0, 0.0]"
check "json flow" "$(printf '%s' "$j" | jget 'j["points"][0]["throughput"]["flow_list"]')" \
  "[{'src': 0, 'dst': 3, 'offered': 0.25, 'accepted': 0.25}]"
check "json no by_length unasked" "$(printf '%s' "$j" | jget '"by_length" in j["points"][0]')" "False"
t=$($N load $small --traffic matrix:one.txt --histogram log2)
case $t in *"[     4,      8)       250  ####"*) ok;; *) bad "text log2 histogram: $t";; esac
c=$($N load $small --traffic matrix:one.txt --histogram 3 --format csv)
check "csv histogram table" "$(printf '%s\n' "$c" | sed -n '/^rate,latency_lo/,/^$/p' | tr '\n' ' ')" \
  "rate,latency_lo,latency_hi,count 0.25,3,6,250 "

# Two flows: 0.25 and 0.125 flits/cycle, Jain (0.375)^2 / (2 x 0.078125) = 0.9.
c=$($N load $small --traffic matrix:two.txt --throughput --format csv)
check "csv spread" "$(printf '%s\n' "$c" | grep '^0.25,flows,')" "0.25,flows,2,0.125000,0.250000,0.187500,0.900000"
check "csv flows" "$(printf '%s\n' "$c" | sed -n '/^rate,src,dst/,$p' | tr '\n' ' ')" \
  "rate,src,dst,offered,accepted 0.25,0,3,0.250000,0.250000 0.25,1,2,0.125000,0.125000 "
t=$($N load $small --traffic matrix:two.txt --throughput)
case $t in *"per source node: min 0.1250, max 0.2500, mean 0.1875, Jain's index 0.9000 (2 sending nodes)"*) ok;;
  *) bad "text spread: $t";; esac
# Offered per sending node: (0.25 + 0.125) / 2.
check "matrix offered per sender" "$($N load $small --traffic matrix:two.txt --format json | jget 'j["points"][0]["offered"]')" "0.1875"

# Latency by length: 1-flit packets 4 cycles, 4-flit ones 7 (a packet every 10 cycles, alone).
j=$($N load --no-db --quiet --size 2 --packet 1:0.5,4:0.5 --process periodic --batch 100 --rate 0.25 \
    --traffic matrix:one.txt --by-length --format json)
check "by length" "$(printf '%s' "$j" | jget '[(x["length"], x["latency"]) for x in j["points"][0]["by_length"]]')" \
  "[(1, 4.0), (4, 7.0)]"

# A trace at zero load on a 4x4 mesh: 0 -> 15 (6 hops, 5 flits) 12 cycles,
# 3 -> 12 (6 hops, 1 flit) 8, 6 -> 9 (2 hops, 8 flits) 11.
printf '# cycle src dst flits\n0 0 15 5\n100 3 12 1\n200 6 9 8\n' > t.trace
j=$($N load --size 4 --trace t.trace --format json)
check "trace latencies" "$(printf '%s' "$j" | jget '[p["latency"] for p in j["per_packet"]]')" "[12, 8, 11]"
check "trace schema" "$(printf '%s' "$j" | jget 'j["schema"]')" "nocsim-load-trace/1"
check "trace csv" "$($N load --size 4 --trace t.trace --format csv | sed -n 2p)" "1,0,0,15,5,0,11,12"

# Bad input: exit 2, one line naming the file, the line and the range.
printf '0 1 0.75\n0 2 0.5\n' > over.txt
printf '0 1 0.5\n0 1 0.25\n' > twice.txt
printf '0 0 15 5\n5 3 3 1\n' > self.trace
printf '10 0 1 4\n5 1 2 1\n' > order.trace
expect_usage "matrix row over 1"   "over.txt, line 2: source 0's rates sum to 1.25" $N load --no-db --traffic matrix:over.txt
expect_usage "matrix pair twice"   "twice.txt, line 2: the pair 0 1 was given before" $N load --no-db --traffic matrix:twice.txt
expect_usage "matrix missing"      "traffic matrix nope.txt"  $N load --no-db --traffic matrix:nope.txt
expect_usage "trace self"          "self.trace, line 2: node 3 sends to itself" $N load --size 4 --trace self.trace
expect_usage "trace order"         "order.trace, line 2: cycle 5 is before" $N load --size 4 --trace order.trace
expect_usage "trace node range"    "destination node id"      $N load --size 2 --trace t.trace
expect_usage "trace with rates"    "--trace replays"          $N load --trace t.trace --rate 0.1
expect_usage "trace with a mix"    "--packet"                 $N load --size 4 --trace t.trace --packet 4
expect_usage "onoff syntax"        "onoff:BURST:IDLE"         $N load --process onoff:2
expect_usage "onoff below 1"       "onoff:BURST:IDLE"         $N load --process onoff:0.5:3
expect_usage "onoff rate"          "at most 0.1 flits/cycle"  $N load --no-db --packet 1 --process onoff:1:9 --rates 0.05:0.2:0.05
expect_usage "histogram width"     "--histogram '0'"          $N load --histogram 0
expect_usage "histogram word"      "or log2"                  $N load --histogram log
expect_usage "throughput grid"     "at most 1024 nodes"       $N load --no-db --size 33 --throughput

echo "load_report: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
