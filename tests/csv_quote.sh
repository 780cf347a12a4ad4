#!/usr/bin/env bash
# CSV quotes every text field that needs it (issue 35): a file: traffic whose
# name holds a comma and a quote keeps the columns of load, sim and stack
# (RFC 4180, read back by Python's csv module).
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
in_scratch
name='a,"b.txt'
printf '0 5\n5 0\n1 6\n' > "$name"
cols() { # the number of fields of each line, and the traffic field of the second
  python3 -c 'import csv,sys; r=list(csv.reader(sys.stdin)); print(" ".join(str(len(x)) for x in r), r[1][int(sys.argv[1])])' "$1"
}
check "sim csv" "$($N sim --size 4 --traffic "file:$name" --format csv | cols 0)" "22 22 file:$name"
check "stack csv" "$($N stack --size 4 --traffic "file:$name" --interval 8:9 --arb C00 --format csv | cols 0)" \
  "6 6 6 file:$name"
check "load csv" "$($N load --size 4 --traffic "file:$name" --rate 0.1 --batch 200 --window 3 --threads 1 --no-db \
  --quiet --format csv | cols 2)" "22 22 file:$name"
echo "csv_quote: $pass passed, $fail failed"
[ $fail -eq 0 ]
