#!/usr/bin/env bash
# Dependencies point one way, downwards.  Each part may include only the parts
# listed for it here; the front end (cli/) may include everything.  util/ is
# the floor every part stands on (strict parsing, line reading, random numbers):
# it uses nothing of ours.
set -u
declare -A allowed=(
  [util]="util"
  [router]="router util"
  [traffic]="traffic util"
  [sim]="sim router traffic util"
  [store]="store util"
  [ga]="ga sim router traffic store util"
  [cc]="cc store util"
)
bad=0
for part in "${!allowed[@]}"; do
  [ -d "$part" ] || continue
  while IFS=: read -r file inc; do
    dep=${inc%%/*}
    case " ${allowed[$part]} " in *" $dep "*) ;; *)
      echo "layers: $file includes \"$inc\" but $part may only use: ${allowed[$part]}"; bad=1;; esac
  done < <(grep -HoE '^#include "[a-z]+/[^"]+"' "$part"/*.[ch] 2>/dev/null | sed -E 's/#include "([^"]+)"/\1/')
done
[ $bad -eq 0 ] && echo "layers: ok"
exit $bad
