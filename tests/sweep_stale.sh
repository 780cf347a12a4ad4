#!/usr/bin/env bash
# A killed sweep's scratch folders (nocsim-sweep-TAG-PID-* and rank 0's
# nocsim-sweep-recv-PID-* in TMPDIR) are removed by the next sweep of any
# spec once their process is gone (issue 35); a live process's folder and
# other names are kept.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
in_scratch
export TMPDIR=$tmp/t
mkdir "$TMPDIR"
sh -c 'exit 0' & dead=$!; wait "$dead"   # a pid whose process is gone
sleep 300 & pid=$!                       # a live one (killed at exit)
for d in "nocsim-sweep-0123abcd-$dead-AbC123" "nocsim-sweep-recv-$dead-xYz789" \
         "nocsim-sweep-89abcdef-$pid-Live00" "nocsim-sweep-notatag-$dead-Keep00" "other-$dead"; do
  mkdir "$TMPDIR/$d" && echo x > "$TMPDIR/$d/run.db"
done
printf 'max-genes 2\n' > one.grid
$N sweep --traffic brev --grid one.grid --runs 1 --size 4 --generations 5 --quiet --db s.db >/dev/null 2>err.txt
check "sweep: exit" $? 0
check "left in TMPDIR" "$(ls "$TMPDIR" | sort | tr '\n' ' ')" \
  "nocsim-sweep-89abcdef-$pid-Live00 nocsim-sweep-notatag-$dead-Keep00 other-$dead "
kill "$pid"; wait "$pid" 2>/dev/null; pid=
echo "sweep_stale: $pass passed, $fail failed"
[ $fail -eq 0 ]
