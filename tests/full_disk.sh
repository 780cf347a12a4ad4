#!/usr/bin/env bash
# A genuinely full file system (a 256 KiB tmpfs): `ga` stops with one line
# naming the cause and exit 1, the database stays valid and resumable up to
# its last commit, and creating a database on a full device leaves no file,
# private or not.  Skipped (with a message) where tmpfs cannot be mounted.
set -u
N=${NOCSIM:-./nocsim}
case $N in /*) ;; *) N=$PWD/$N;; esac
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
tmp=$(mktemp -d)
mnt=$tmp/full
mkdir "$mnt"
if ! mount -t tmpfs -o size=256k tmpfs "$mnt" 2>/dev/null; then
  rmdir "$mnt"; rm -rf "$tmp"
  echo "full_disk: skipped (cannot mount a tmpfs here: needs root)"
  exit 0
fi
trap 'cd /; umount "$mnt"; rm -rf "$tmp"' EXIT
cd "$mnt" || exit 1

GA="--size 8 --slices 2 --generations 3000 --pop 8 --stack-vmax 200 --traffic brev --seed 5 --threads 2 --quiet"
$N ga $GA --db full.db >"$tmp/out.txt" 2>"$tmp/err.txt"; rc=$?
check "ga on a full device: exit" $rc 1
case $(cat "$tmp/err.txt") in *"disk is full"*) ok;; *) bad "ga on a full device: '$(cat "$tmp/err.txt")'";; esac
check "its stderr is one line" "$(wc -l <"$tmp/err.txt")" 1
check "integrity_check" "$(sqlite3 full.db 'pragma integrity_check')" ok
gens=$(sqlite3 full.db 'select count(*) from generations where run = 1')
[ "$gens" -ge 1 ] && ok || bad "no generation committed before the device filled"
check "checkpoint present" "$(sqlite3 full.db 'select count(*) from checkpoints where run = 1')" 1
$N ga --resume 1 --db full.db --quiet >/dev/null 2>"$tmp/err.txt"; rc=$?
check "resume on the full device: exit" $rc 1
check "integrity_check after the failed resume" "$(sqlite3 full.db 'pragma integrity_check')" ok

# Fill what is left, then try to create a new database.
dd if=/dev/zero of=filler bs=4k 2>/dev/null
$N ga $GA --db new.db >/dev/null 2>"$tmp/err.txt"; rc=$?
check "creating a database on a full device: exit" $rc 1
check "no file left by the failed creation" "$(ls | grep -c '^new\.db')" 0
rm -f filler

echo "full_disk: $pass passed, $fail failed"
[ $fail -eq 0 ]
