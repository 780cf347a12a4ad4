#!/usr/bin/env bash
# Damaged or contradictory records are refused, not silently used (issue 26
# section 2), from the outside:
# - a chromosome whose genes (one byte at offsets 7, 8, 12, 16, 20 of the
#   decoded blob) or whose recorded CRC-32 changed: replay, export and
#   db export --genes exit 1 with "database is damaged: chromosome ID: ".
set -u
N=${NOCSIM:-./nocsim}
case $N in /*) ;; *) N=$PWD/$N;; esac
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

GA="--size 4 --slices 2 --generations 10 --pop 4 --stack-vmax 30 --threads 1 --quiet"
$N ga $GA --traffic brev --seed 1 --db a.db >/dev/null 2>&1 || bad "ga a.db"

# ---- a chromosome's genes or signature changed in the database --------------
# damage_genes FILE OFFSET: flip one bit of chromosome 1's decoded genes.
damage_genes() {
  python3 - "$@" <<'PY'
import sqlite3, sys, zlib
db = sqlite3.connect(sys.argv[1]); off = int(sys.argv[2])
g = bytearray(zlib.decompress(db.execute("select genes from chromosomes where id = 1").fetchone()[0]))
g[off] ^= 1
db.execute("update chromosomes set genes = ? where id = 1", (zlib.compress(bytes(g)),))
db.commit()
PY
}
for off in 7 8 12 16 20; do
  cp a.db d.db
  damage_genes d.db $off || bad "cannot damage d.db"
  expect 1 "database is damaged: chromosome 1: " "replay of genes changed at $off" $N replay --chrom 1 --db d.db
  expect 1 "database is damaged: chromosome 1: " "export of genes changed at $off" $N export --chrom 1 --db d.db -o x.cfg
  [ ! -e x.cfg ] && ok || bad "export of a damaged chromosome wrote x.cfg"
done
cp a.db d.db
sqlite3 d.db "update chromosomes set crc = (crc + 1) % 4294967296 where id = 1"
expect 1 "database is damaged: chromosome 1: " "replay of a changed CRC" $N replay --chrom 1 --db d.db
expect 1 "database is damaged: chromosome 1: " "export of a changed CRC" $N export --chrom 1 --db d.db
expect 1 "database is damaged: chromosome 1: " "db export --genes of a changed CRC" $N db export 1 --genes --db d.db
expect 0 "" "replay of the undamaged copy" $N replay --chrom 1 --db a.db

echo "damaged: $pass passed, $fail failed"
[ $fail -eq 0 ]
