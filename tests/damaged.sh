#!/usr/bin/env bash
# Damaged or contradictory records are refused, not silently used (issue 26
# section 2), from the outside:
# - a chromosome whose genes (one byte at offsets 7, 8, 12, 16, 20 of the
#   decoded blob) or whose recorded CRC-32 changed: replay, export and
#   db export --genes exit 1 with "database is damaged: chromosome ID: ";
# - a chromosome file with no chromosome in it (empty, only comments or
#   blank lines, /dev/null, cut before its first line) is bad input (2);
# - a lone CR is a line break in config and traffic files;
# - --best RUN is the chromosome the run reports as its best;
# - replay of a recorded chromosome refuses model flags (exit 2), applies
#   --slices and --interval;
# - db best tells randperm patterns of different seeds apart.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
in_scratch

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

# ---- a file with no chromosome in it ----------------------------------------
: > empty.cfg
printf '# only a comment\n\n   \n' > comments.cfg
printf '\n\n\n' > newlines.cfg
$N export --chrom 1 --db a.db -o whole.cfg 2>/dev/null || bad "export whole.cfg"
head -c 20 whole.cfg > cut.cfg   # cut inside the header: no setting line yet
head -n 3 whole.cfg | grep -v nocsim > cut3.cfg   # the comments after the header, without it
for f in empty.cfg comments.cfg newlines.cfg /dev/null cut.cfg cut3.cfg; do
  expect 2 "no chromosome in it" "replay --file $f" $N replay --file $f --traffic brev --size 4 --slices 2
  expect 2 "no chromosome in it" "sim --config $f" $N sim --size 4 --config $f
done
head -n 5 whole.cfg > cut5.cfg   # the header and a few genes
expect 2 "incomplete chromosome file" "replay --file cut after its header" $N replay --file cut5.cfg --traffic brev --size 4 --slices 2
expect 0 "" "replay --file of the whole file" $N replay --file whole.cfg --traffic brev --size 4 --slices 2

# ---- a lone CR is a line break ------------------------------------------------
printf '# c\rinterval 40\r' > cr.cfg
check "CR-only config sets the interval" "$($N sim --size 4 --config cr.cfg --format csv | tail -n 1 | cut -d, -f1-3)" \
      "$($N sim --size 4 --interval 40 --format csv | tail -n 1 | cut -d, -f1-3)"
printf 'interval 40\rbogus 1\r' > cr2.cfg
expect 2 "line 2: unknown directive" "CR-only config: the second line is read" $N sim --size 4 --config cr2.cfg
printf '# pairs\r0 5\r5 0\r' > cr.txt
printf '# pairs\n0 5\n5 0\n' > lf.txt
check "CR-only traffic file reads as the LF one" "$($N sim --size 4 --traffic file:cr.txt --format csv 2>&1 | tail -n 1 | cut -d, -f2-)" \
      "$($N sim --size 4 --traffic file:lf.txt --format csv 2>&1 | tail -n 1 | cut -d, -f2-)"
printf '0 5\r99 0\r' > crbad.txt
expect 2 "line 2" "CR-only traffic file: the second line is checked" $N sim --size 4 --traffic file:crbad.txt

# ---- --best RUN is the run's own best ------------------------------------------
# 8x8 brev, seed 1, 50 generations: nine chromosomes score 76, the run's
# best is the seventh (signature 68bfe11d), not the first (8bc327a4).
$N ga --traffic brev --size 8 --seed 1 --generations 50 --slices 2 --threads 1 --quiet --db b.db >/dev/null 2>&1 || bad "ga b.db"
own=$(sqlite3 b.db "select printf('%08x', best_crc) from runs where id = 1")
first=$(sqlite3 b.db "select printf('%08x', crc) from chromosomes where run = 1 and score = (select best_score from runs where id = 1) order by id limit 1")
[ "$own" != "$first" ] && ok || bad "setup: the run's best is also the first of its score ($own): the case tests nothing"
case $($N export --best 1 --db b.db 2>&1 | sed -n 2p) in *"signature $own"*) ok;; *) bad "export --best 1 is not the run's best $own";; esac
case $($N replay --best 1 --db b.db 2>&1 | head -n 1) in *"signature $own"*) ok;; *) bad "replay --best 1 is not the run's best $own";; esac

# ---- replay of a record: model flags refused, slices and interval applied ------
for flag in "--size 16" "--traffic shfl" "--flits 4" "--vcs 4" "--seed 3" "--tie plus" "--interlock"; do
  expect 2 "${flag%% *}: a recorded chromosome replays in its run's network" "replay --best with $flag" \
    $N replay --best 1 --db b.db $flag
  expect 2 "${flag%% *}: a recorded chromosome replays in its run's network" "replay --chrom with $flag" \
    $N replay --chrom 1 --db b.db $flag
done
out=$($N replay --best 1 --db b.db --slices 3 --interval 40 --format json 2>&1)
case $out in *'"slices": 3,'*'"interval": 40,'*) ok;; *) bad "replay --slices 3 --interval 40: $out";; esac
expect 0 "" "replay --file still takes model flags" $N replay --file whole.cfg --traffic shfl --size 4 --slices 2

# ---- db best: randperm of two seeds is two patterns ----------------------------
for sd in 1 2; do $N ga $GA --traffic randperm --seed $sd --db rp.db >/dev/null 2>&1 || bad "ga randperm $sd"; done
for sd in 1 2; do $N ga $GA --traffic brev --seed $sd --db rp.db >/dev/null 2>&1 || bad "ga brev $sd"; done
best=$($N db best --db rp.db --format csv | cut -d, -f4 | tail -n +2 | sort | tr '\n' ';')
check "db best patterns" "$best" "brev;randperm (seed 1);randperm (seed 2);"

echo "damaged: $pass passed, $fail failed"
[ $fail -eq 0 ]
