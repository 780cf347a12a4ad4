#!/usr/bin/env bash
# Dependencies point one way, downwards.  Each part may include only the parts
# listed for it here (its real dependencies, kept tight so a new one is a
# decision, not an accident).  util/ is the floor every part stands on (strict
# parsing, line reading, random numbers) and uses nothing of ours.  cli/ may
# include everything and nothing includes cli/; bench/ is a driver like cli/
# but stays on the library.  cc's core uses nothing but util (and the store,
# for --db only).
set -u
declare -A allowed=(
  [util]="util"
  [router]="router util"
  [traffic]="traffic util"
  [store]="store util"
  [sim]="sim router traffic util"
  [viz]="viz sim router util"
  [ga]="ga sim router store util"
  [cc]="cc store util"
  [bench]="bench sim traffic router ga util"
  [ccsim]="ccsim cc"
  [sweep]="sweep store util"
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
# Nothing below the front end includes it (tests drive it through the binary).
while IFS= read -r hit; do
  echo "layers: $hit includes the front end (cli/), which nothing may use"; bad=1
done < <(grep -HnE '^#include "cli/' $(ls -d */ | grep -v '^cli/$' | sed 's|/$||' | sed 's|$|/*.[ch]|') 2>/dev/null)
[ $bad -eq 0 ] && echo "layers: ok"
exit $bad
