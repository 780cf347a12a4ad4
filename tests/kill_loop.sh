#!/usr/bin/env bash
# SIGKILL at random moments, each followed by --resume, must not change the
# result: 22 kills of `nocsim ga` (the first ones in its first two seconds,
# during database creation and the simple-stacking baseline), then a resume
# to the end; the file passes PRAGMA integrity_check and the run equals an
# uninterrupted one: same best, same generation rows (all but the elapsed
# time) and the same recorded chromosomes with the same genes.  The rows
# go to the database with the checkpoint, at most once a second, in one
# transaction (docs/model.md [R-GA-STORE-1]): after every kill the
# generation rows end exactly at the checkpoint's generation (none before
# the start's first row, with the run's first checkpoint at 0), so a kill
# loses at most the second since the last one, which the resume replays.
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
in_scratch
start=$(date +%s.%N)

GA="--size 8 --slices 2 --generations 3000 --pop 8 --stack-vmax 200 --traffic brev --seed 5 --threads 2 --quiet"
$N ga $GA --db ref.db >/dev/null 2>err.txt || { bad "reference run: $(cat err.txt)"; echo "kill_loop: $pass passed, $fail failed"; exit 1; }

RANDOM=42   # the kill times differ from run to run of the test only by scheduling
kills=0 starts=0 tries=0 batched=0
while [ $kills -lt 22 ] && [ $tries -lt 60 ]; do
  tries=$((tries + 1))
  if [ "$(sqlite3 k.db 'select count(*) from runs' 2>/dev/null)" = 1 ]; then
    $N ga --resume 1 --db k.db --quiet >/dev/null 2>err.txt &
  else
    starts=$((starts + 1))   # killed before the run existed: start again
    $N ga $GA --db k.db >/dev/null 2>err.txt &
  fi
  pid=$!
  # Mostly inside the first 0.4 s (a resumed process checkpoints its first
  # generation, then once a second, so these make little progress), one
  # past the 1 s checkpoint interval (about a second of progress).
  if [ $kills -lt 4 ]; then ms=$((10 + RANDOM % 60)); elif [ $kills = 12 ]; then ms=$((1050 + RANDOM % 250)); else ms=$((20 + RANDOM % 380)); fi
  sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
  if kill -KILL $pid 2>/dev/null; then kills=$((kills + 1)); fi
  wait $pid 2>/dev/null
  [ -s err.txt ] && { bad "ga after $kills kills: $(cat err.txt)"; break; }
  if [ "$(sqlite3 k.db 'select count(*) from runs' 2>/dev/null)" = 1 ]; then
    rows=$(sqlite3 k.db 'select coalesce(max(generation), 0) from generations where run = 1')
    ckpt=$(sqlite3 k.db 'select generation from checkpoints where run = 1')
    if [ "$rows" != "$ckpt" ]; then bad "after kill $kills: rows up to generation $rows, checkpoint at $ckpt"; else batched=$((batched + 1)); fi
  fi
  [ "$(sqlite3 k.db 'select status from runs where id = 1' 2>/dev/null)" = finished ] && break
done
atkill=$(sqlite3 k.db 'select generation from checkpoints where run = 1')
[ $kills -ge 20 ] && ok || bad "only $kills kills before the run finished (make the run longer)"
for i in 1 2 3; do
  [ "$(sqlite3 k.db 'select status from runs where id = 1')" = finished ] && break
  $N ga --resume 1 --db k.db --quiet >/dev/null 2>err.txt || bad "final resume: $(cat err.txt)"
done
check "integrity_check" "$(sqlite3 k.db 'pragma integrity_check')" ok
check "status" "$(sqlite3 k.db 'select status from runs where id = 1')" finished
q_best="select best_score, best_duration, best_crc, base_stacking, base_nonsplit from runs where id = 1"
q_gens="select generation, best, average, evaluations from generations where run = 1 order by generation"
q_chrom="select generation, crc, score, duration, t_d, t_e, ir, or_, ib, ob, lb, is_synonym, hex(genes) from chromosomes where run = 1 order by crc"
check "best" "$(sqlite3 k.db "$q_best")" "$(sqlite3 ref.db "$q_best")"
check "generation rows" "$(sqlite3 k.db "$q_gens" | md5sum)" "$(sqlite3 ref.db "$q_gens" | md5sum)"
check "recorded chromosomes" "$(sqlite3 k.db "$q_chrom" | md5sum)" "$(sqlite3 ref.db "$q_chrom" | md5sum)"
check "generations recorded" "$(sqlite3 k.db 'select count(*) from generations where run = 1')" \
      "$(sqlite3 ref.db 'select count(*) from generations where run = 1')"
ls k.db.new-* >/dev/null 2>&1 && echo "kill_loop: note: a kill during creation left a private file: $(ls k.db.new-*)"
[ $batched -ge 15 ] && ok || bad "only $batched kills left a run to look at"
echo "kill_loop: $kills kills ($starts before the run existed; checkpoint at generation $atkill of 3000 after them; after $batched of them the rows ended at the checkpoint), $(echo "$(date +%s.%N) - $start" | bc | cut -c1-5) s"
echo "kill_loop: $pass passed, $fail failed"
[ $fail -eq 0 ]
