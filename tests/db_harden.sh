#!/usr/bin/env bash
# The database as untrusted input and shared resource, from the outside:
# damaged checkpoints and chromosomes refused with "database is damaged"
# (exit 1, no crash) by ga --resume and db merge, a checkpoint of an earlier
# format as bad input (exit 2) by both; --resume never creates a
# file; read-only commands leave no -wal/-shm, refused files included; a
# database in a read-only directory can be queried by a non-root user;
# concurrent creation of one new database by four processes always works.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
in_scratch
chmod 755 "$tmp"

GA="--size 4 --slices 2 --generations 20 --pop 4 --stack-vmax 30 --threads 1 --quiet"
$N ga $GA --traffic brev --seed 1 --db a.db >/dev/null 2>ga.err || bad "ga a.db: $(cat ga.err)"

# damage FILE OFFSET VALUE: write the 64-bit VALUE at OFFSET of run 1's
# decompressed checkpoint (the store's zlib around the GA's "len + zlib") and
# re-sign it (its last 4 bytes: the CRC-32 of the rest); sign=0 in the
# environment leaves the old signature, which must then be what refuses it.
damage() {
  python3 - "$@" <<'PY'
import os, sqlite3, struct, sys, zlib
path, off, val = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
db = sqlite3.connect(path)
data, = db.execute("select data from checkpoints where run = 1").fetchone()
blob = zlib.decompress(data)
raw = bytearray(zlib.decompress(blob[8:]))
raw[off:off + 8] = struct.pack("<q", val)
if os.environ.get("sign", "1") == "1":
    raw[-4:] = struct.pack("<I", zlib.crc32(bytes(raw[:-4])))
blob = struct.pack("<Q", len(raw)) + zlib.compress(bytes(raw))
db.execute("update checkpoints set data = ?, data_len = ? where run = 1", (zlib.compress(blob), len(blob)))
db.execute("update runs set status = 'unfinished' where id = 1")
db.commit()
PY
}
# expect_damaged WHAT FRAGMENT CMD...: exit 1, "database is damaged" and FRAGMENT on stderr.
expect_damaged() {
  local what=$1 frag=$2; shift 2
  "$@" >out.txt 2>err.txt; local rc=$?
  local err; err=$(cat err.txt)
  [ $rc -eq 1 ] || { bad "$what: exit $rc, want 1 ($err)"; return; }
  case $err in *"database is damaged"*"$frag"*) ok;; *) bad "$what: '$err' lacks the damage or '$frag'";; esac
}

# ---- damaged checkpoints (offsets: 4x4 torus, see tests/test_checkpoint.c) --
dest=644   # OFF_DEST of tests/test_checkpoint.c: where dest[0] starts (NCK7; unchanged since NCK6)
for c in "$dest+24 99 dest[3]" "4 7 algo" "12 5000000 pop" "4+14*8 99 sort_key"; do
  set -- $c
  cp a.db d.db
  damage d.db $(($1)) "$2" || bad "cannot damage d.db"
  expect_damaged "resume with bad $3" "$3" $N ga --resume 1 --db d.db --quiet
  rm -f m.db
  expect_damaged "merge of bad $3" "$3" $N db merge d.db --db m.db --create
  [ ! -e m.db ] || [ "$(sqlite3 m.db 'select count(*) from runs')" = 0 ] && ok || bad "merge of bad $3 brought runs in"
done
rm -f d.db* m.db*
# A checkpoint of an earlier format (NCK3, unsigned) is no damage but the
# wrong version: bad input for db merge as for ga --resume (exit 2, the same
# words), nothing merged.
cp a.db d.db
python3 - d.db <<'PY'
import sqlite3, struct, sys, zlib
db = sqlite3.connect(sys.argv[1])
data, = db.execute("select data from checkpoints where run = 1").fetchone()
blob = zlib.decompress(data)
raw = bytearray(zlib.decompress(blob[8:]))
raw[3] = ord("3")
blob = struct.pack("<Q", len(raw)) + zlib.compress(bytes(raw))
db.execute("update checkpoints set data = ?, data_len = ? where run = 1", (zlib.compress(blob), len(blob)))
db.execute("update runs set status = 'unfinished' where id = 1")
db.commit()
PY
expect 2 "checkpoint written by an earlier nocsim (format NCK3" "resume of an NCK3 checkpoint" $N ga --resume 1 --db d.db --quiet
rm -f m.db
expect 2 "checkpoint written by an earlier nocsim (format NCK3" "merge of an NCK3 checkpoint" $N db merge d.db --db m.db --create
[ ! -e m.db ] || [ "$(sqlite3 m.db 'select count(*) from runs')" = 0 ] && ok || bad "merge of an NCK3 checkpoint brought runs in"
rm -f d.db* m.db*
# An in-range edit (a random-generator word) not re-signed: the signature refuses it.
cp a.db d.db
sign=0 damage d.db $((dest + 16 * 8 + 8)) 12345 || bad "cannot damage d.db"
expect_damaged "resume with an unsigned in-range edit" "checkpoint: its contents give CRC-32" $N ga --resume 1 --db d.db --quiet
rm -f d.db*

# A chromosome whose last queue-order byte is 32 (passed the old check on x86).
cp a.db d.db
python3 - d.db <<'PY'
import sqlite3, sys, zlib
db = sqlite3.connect(sys.argv[1])
i, genes = db.execute("select id, genes from chromosomes order by id limit 1").fetchone()
g = bytearray(zlib.decompress(genes)); g[-1] = 32
# re-signed, so the range check (not the signature check) must catch it
db.execute("update chromosomes set genes = ?, crc = ? where id = ?", (zlib.compress(bytes(g)), zlib.crc32(bytes(g)), i))
db.commit()
PY
expect_damaged "merge of a bad chromosome" "queue order" $N db merge d.db --db m.db --create
rm -f d.db* m.db*

# A file whose SQLite pages are garbled (the second page: the runs table).
cp a.db d.db
python3 -c 'f = open("d.db", "r+b"); f.seek(4096); f.write(bytes((i * 37 + 11) % 256 for i in range(4096)))'
expect_damaged "db runs on a garbled file" "malformed" $N db runs --db d.db
expect_damaged "merge of a garbled file" "" $N db merge d.db --db m.db --create
check "merge of a garbled file: one line" "$(wc -l <err.txt)" 1
rm -f d.db* m.db*

# ---- --resume never creates the database -----------------------------------
$N ga --resume 1 --db typo.db --quiet >/dev/null 2>err.txt; rc=$?
[ $rc -ne 0 ] && ok || bad "resume from a missing file: exit 0"
[ ! -e typo.db ] && ok || bad "ga --resume created typo.db"

# ---- read-only commands leave nothing behind ------------------------------
printf 'not a database\n' > text.db
sqlite3 foreign.db "create table t (x); insert into t values (1);"
before=$(ls | sort)
for cmd in "runs" "show 1" "synonyms 1" "best" "export 1"; do
  $N db $cmd --db a.db >/dev/null 2>err.txt || bad "db $cmd: $(cat err.txt)"
done
$N db runs --db text.db >/dev/null 2>&1; check "db runs on a text file" $? 2
$N db runs --db foreign.db >/dev/null 2>&1; check "db runs on a foreign SQLite file" $? 2
$N db merge text.db --db a.db >/dev/null 2>&1; check "merge of a text file" $? 2
check "files after read-only commands" "$(ls | sort | tr '\n' ' ')" "$(echo "$before" | tr '\n' ' ')"

# ---- a database in a read-only directory, as a non-root user ---------------
mkdir ro && cp a.db ro/ && chmod 644 ro/a.db && chmod 555 ro
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && as_nobody test -x "$N" && as_nobody test -r ro/a.db; then
  out=$(as_nobody "$N" db runs --db ro/a.db --format csv 2>&1); rc=$?
  check "db runs in a read-only directory as nobody (exit)" "$rc" 0
  case $out in *"readonly"*) bad "read-only directory: $out";; *) ok;; esac
  check "nothing created in the read-only directory" "$(ls ro | tr '\n' ' ')" "a.db "
else
  echo "db_harden: skipped the non-root read-only-directory case (needs root, setpriv and a binary nobody can run)"
fi

# ---- four processes create one new database at once ------------------------
GA0="--size 4 --generations 0 --pop 2 --stack-vmax 10 --traffic brev --threads 1 --quiet"
fails=0
for t in $(seq 1 15); do
  rm -f r.db r.db-wal r.db-shm
  for p in 1 2 3 4; do $N ga $GA0 --db r.db >/dev/null 2>e$p & done
  wait
  for p in 1 2 3 4; do [ -s e$p ] && { fails=$((fails + 1)); [ $fails -le 3 ] && echo "  race: $(cat e$p)"; }; done
  [ "$(sqlite3 r.db 'select count(*) from runs')" = 4 ] || fails=$((fails + 1))
done
check "concurrent creation failures in 15 x 4" "$fails" 0
check "no private files left by creation" "$(ls | grep -c '\.new-')" 0

echo "db_harden: $pass passed, $fail failed"
[ $fail -eq 0 ]
