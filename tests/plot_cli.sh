#!/usr/bin/env bash
# CLI contract of the pictures: `nocsim plot stack|generations|runs` and the
# --activity flags of `nocsim sim` and `nocsim replay`.  Bad input gets one
# line on stderr and exit status 2, and no picture (not even an empty one)
# is left behind.  (tests/test_plot.c decodes the PNGs with libpng.)
set -u
N=${NOCSIM:-./nocsim}
. "$(cd "$(dirname "$0")" && pwd)/testlib.bash"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# Nothing but the inputs may be left in $tmp/out after a failure.
mkdir "$tmp/out"
# A usage error (testlib's expect_usage) that leaves nothing in $tmp/out.
expect_refused() {
  expect_usage "$@"
  if [ -n "$(ls -A "$tmp/out")" ]; then bad "$1: left $(ls -A "$tmp/out")"; rm -f "$tmp/out"/* "$tmp/out"/.??*; fi
}
# Width and height from the PNG header (bytes 16-23, big-endian).
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ printf "%dx%d", $3*256+$4, $7*256+$8 }'; }
is_png() { [ "$(od -An -c -j1 -N3 "$1" | tr -d ' ')" = PNG ]; }

db=$tmp/runs.db
$N ga --traffic brev --size 4 --slices 2 --generations 12 --db "$db" --seed 1 >/dev/null 2>&1 || bad "ga run 1"
$N ga --traffic brev --size 4 --slices 2 --generations 0 --db "$db" --seed 2 >/dev/null 2>&1 || bad "ga run 2"
$N extrapolate --run 1 --slices 3 --db "$db" >/dev/null 2>&1 || bad "extrapolate (run 3)"
$N stack --traffic brev --size 4 --arb C00,C05 --interval 8:20 --format csv > "$tmp/s.csv" || bad "stack"
printf 'id,kind\n1,ga\n' > "$tmp/other.csv"
O=$tmp/out/p.png

# ---- nocsim plot: bad input -------------------------------------------------
expect_refused "no figure"          "which figure"               $N plot
expect_refused "unknown figure"     "stack generations runs"     $N plot pie -o "$O"
expect_refused "no -o"              "give -o"                    $N plot stack "$tmp/s.csv"
expect_refused "missing csv"        "cannot open"                $N plot stack "$tmp/nope.csv" -o "$O"
expect_refused "not a sweep"        "other.csv:1: not a stacking sweep" $N plot stack "$tmp/other.csv" -o "$O"
printf 'traffic,size,slices,scheme,interval,duration\nbrev,4,2,C00,8,36\n' > "$tmp/one.csv"
expect_refused "one-point series"   "series 'C00' has 1 point"   $N plot stack "$tmp/one.csv" -o "$O"
printf 'traffic,size,slices,scheme,interval,duration\nbrev,4,2,C00,8\n' > "$tmp/short.csv"
expect_refused "short row"          "short.csv:2: expected 6 fields" $N plot stack "$tmp/short.csv" -o "$O"
expect_refused "unwritable output"  "/nonexistent/dir/p.png"     $N plot stack "$tmp/s.csv" -o /nonexistent/dir/p.png
expect_refused "output a directory" "is a directory"             $N plot stack "$tmp/s.csv" -o "$tmp/out"
expect_refused "bad size"           "--size"                     $N plot stack "$tmp/s.csv" -o "$O" --size 80x9000
# One number parser (issue 35): no space, no sign.
for v in " 800x500" "800x+500" "+800x500" "800x 500" "800x500 "; do
  expect_refused "size '$v'" "--size" $N plot stack "$tmp/s.csv" -o "$O" --size "$v"
done
expect_refused "no such run"        "run 99 does not exist"      $N plot generations 99 --db "$db" -o "$O"
expect_refused "run, no generations" "run 3 has no generations"  $N plot generations 1 3 --db "$db" -o "$O"
expect_refused "one generation"     "has 1 point"                $N plot generations 2 --db "$db" -o "$O"
expect_refused "bad run id"         "RUN"                        $N plot generations x1 --db "$db" -o "$O"
expect_refused "missing db"         "--db"                       $N plot generations 1 --db "$tmp/none.db" -o "$O"
expect_refused "plot load: its own label" "nocsim plot load: --db" $N plot load 1 --db "$tmp/none.db" -o "$O"
expect_refused "no runs"            "no ga runs"                 $N plot runs --db "$db" --traffic shfl -o "$O"
# Runs 1 and 2 differ only in seed and generations: two settings, one point each.
expect_refused "one point in all"   "only 1 point"               $N plot runs --db "$db" --kind extrapolate -o "$O"

# ---- nocsim plot: gnuplot missing -------------------------------------------
err=$(PATH=/nonexistent $N plot stack "$tmp/s.csv" -o "$O" 2>&1); rc=$?
[ $rc -eq 1 ] && ok || bad "no gnuplot: exit $rc, want 1"
case $err in *gnuplot-nox*) ok;; *) bad "no gnuplot: message lacks the package: $err";; esac
[ -z "$(ls -A "$tmp/out")" ] && ok || bad "no gnuplot: left $(ls -A "$tmp/out")"

# ---- --script-only: data and script, no picture, no gnuplot needed -----------
mkdir "$tmp/gp"
PATH=/nonexistent $N plot generations 1 --db "$db" -o "$O" --script-only "$tmp/gp" 2>/dev/null && ok || bad "script-only exit"
[ -s "$tmp/gp/plot.gp" ] && [ -s "$tmp/gp/figure.dat" ] && ok || bad "script-only files missing"
[ ! -e "$O" ] && ok || bad "script-only drew a picture"
# figure.dat: best and average per generation of run 1 (13 generations).
rows=$(grep -cv '^#\|^$' "$tmp/gp/figure.dat")
[ "$rows" = 26 ] && ok || bad "script-only data rows $rows, want 26"

# --script-only writes no input (issue 35): a database named DIR/plot.gp, a
# CSV named DIR/figure.dat, an -o that is the database or the script itself
# are refused (exit 2) and left byte for byte.
mkdir "$tmp/in"
cp "$db" "$tmp/in/plot.gp"
sum=$(sha1sum < "$tmp/in/plot.gp")
expect_usage "script-only over its database" "is the input file" \
  $N plot generations 1 --db "$tmp/in/plot.gp" --script-only "$tmp/in"
cp "$tmp/s.csv" "$tmp/in/figure.dat"
expect_usage "script-only over its CSV" "is the input file" $N plot stack "$tmp/in/figure.dat" --script-only "$tmp/in"
expect_usage "script-only -o the database" "is the input file" \
  $N plot generations 1 --db "$db" --script-only "$tmp/gp" -o "$db"
expect_usage "script-only -o its own script" "is the input file" \
  $N plot generations 1 --db "$db" --script-only "$tmp/gp" -o "$tmp/gp/plot.gp"
check "script-only: the database kept" "$(sha1sum < "$tmp/in/plot.gp")" "$sum"
check "script-only: the CSV kept" "$(sha1sum < "$tmp/in/figure.dat")" "$(sha1sum < "$tmp/s.csv")"
expect_usage "script-only into a missing folder" "nope" $N plot generations 1 --db "$db" --script-only "$tmp/nope"
# Its files are written under a temporary name and renamed into place (a new
# inode, the folder left with the two files only), and never replace nor write
# into what is not a regular file: a FIFO (the old code blocked on it) or a
# link to /dev/null as plot.gp or figure.dat is refused (exit 2) and kept.
ino=$(stat -c %i "$tmp/gp/plot.gp")
PATH=/nonexistent $N plot generations 1 --db "$db" --script-only "$tmp/gp" 2>/dev/null && ok || bad "script-only again"
[ "$(stat -c %i "$tmp/gp/plot.gp")" != "$ino" ] && ok || bad "script-only rewrote plot.gp in place"
check "script-only: the folder's files" "$(ls -A "$tmp/gp" | tr '\n' ' ')" "figure.dat plot.gp "
mkdir "$tmp/odd"
for f in plot.gp figure.dat; do
  rm -f "$tmp/odd/"*
  mkfifo "$tmp/odd/$f"
  expect_usage "script-only with a FIFO $f" "$tmp/odd/$f: not a regular file" \
    timeout 10 $N plot generations 1 --db "$db" --script-only "$tmp/odd"
  [ -p "$tmp/odd/$f" ] && ok || bad "script-only replaced the FIFO $f"
  check "script-only with a FIFO $f: nothing else written" "$(ls -A "$tmp/odd")" "$f"
  rm -f "$tmp/odd/$f"
  ln -s /dev/null "$tmp/odd/$f"
  expect_usage "script-only with $f a link to /dev/null" "$tmp/odd/$f: not a regular file" \
    $N plot generations 1 --db "$db" --script-only "$tmp/odd"
  [ -L "$tmp/odd/$f" ] && [ -c /dev/null ] && ok || bad "script-only replaced the link $f"
done
expect_usage "script-only into a file" "Not a directory" $N plot generations 1 --db "$db" --script-only "$tmp/s.csv"
expect_usage "script-only, no name" "--script-only: the folder name is empty" $N plot generations 1 --db "$db" --script-only ""

# ---- plot load: the figure for a paper (issue 37), read from its script ------
# Two 4x4 mesh transpose curves that differ in VCs and buffers; the first
# with its saturation point.  The key names what differs, the title what
# they share (worked out from the two command lines).
ldb=$tmp/load.db
$N load --topology mesh --size 4 --traffic transpose --vcs 2 --rates 0.05:0.5:0.05 --saturation --db "$ldb" \
  --quiet > /dev/null || bad "load run 1"
$N load --topology mesh --size 4 --traffic transpose --vcs 4 --buffer 8 --rates 0.05:0.5:0.05 --db "$ldb" \
  --quiet > /dev/null || bad "load run 2"
mkdir "$tmp/lp"
PATH=/nonexistent $N plot load 1 2 --db "$ldb" --script-only "$tmp/lp" 2>/dev/null && ok || bad "plot load --script-only"
gp=$(cat "$tmp/lp/plot.gp")
has() { case $gp in *"$2"*) ok;; *) bad "plot script: $1: no '$2'";; esac; }
has "x label"      "set xlabel 'offered load, measured [flits/cycle per sending node]'"
has "title"        "set title 'open-loop latency: transpose, 4x4 mesh, any-VC rule, arbiter C00, 8-flit packets, Bernoulli injection'"
has "error bars"   "datafile index 0 using 1:2:3 with yerrorlines"
has "key, run 1"   "title '2 VCs, 4-flit buffers'"
has "key, run 2"   "title '4 VCs, 8-flit buffers'"
# Transpose on a 4x4 mesh, X first: the eastbound link into column 3 of row 3
# carries the flows of (0,3), (1,3), (2,3): 3 x rate, so the bound is 1/3,
# dotted in each curve's colour.
has "bound, run 1" "set arrow from 0.3333333333, graph 0 to 0.3333333333, graph 1 nohead dt 3 lw 1.5 lc rgb '#e41a1c'"
has "bound, run 2" "set arrow from 0.3333333333, graph 0 to 0.3333333333, graph 1 nohead dt 3 lw 1.5 lc rgb '#377eb8'"
has "bound key"    "title 'channel-load bound (dotted)'"
has "saturation mark" "datafile index 1 with points pt 6 ps 2.5 lw 2 lc rgb '#e41a1c' notitle"
has "saturation key" "title 'saturation point'"
# The mark sits at the stored saturation point's accepted load and latency.
want=$(sqlite3 "$ldb" "SELECT printf('%.10g %.10g', json_extract(params, '\$.saturation.accepted'), json_extract(params, '\$.saturation.latency')) FROM runs WHERE id = 1")
got=$(awk '/^# $/ { getline; print; exit }' "$tmp/lp/figure.dat")
check "saturation mark at the stored point" "$got" "$want"
# x: the measured offered load, each curve up to its first saturated point.
want=$(sqlite3 "$ldb" "SELECT printf('%.10g', offered) FROM load_points WHERE run = 2 AND rate <= (SELECT MIN(rate) FROM load_points WHERE run = 2 AND saturated > 0) ORDER BY rate" | tr '\n' ' ')
got=$(awk '/^# 4 VCs/ { f = 1; next } f && NF { printf "%s ", $1 }' "$tmp/lp/figure.dat")
check "x is the measured offered load" "$got" "$want"
# y: 0 to 2 x the highest latency of a drawn stable point, up to a multiple of 10.
top=$(sqlite3 "$ldb" "SELECT MAX(latency) FROM load_points p WHERE saturated = 0 AND rate < (SELECT MIN(rate) FROM load_points q WHERE q.run = p.run AND saturated > 0)")
ymax=$(awk -v t="$top" 'BEGIN { y = 2 * t / 10; printf "%d", (y == int(y) ? y : int(y) + 1) * 10 }')
has "y clipped"    "set yrange [0:$ymax]"
PATH=/nonexistent $N plot load 1 2 --db "$ldb" --script-only "$tmp/lp" --ymax 250 --logy 2>/dev/null && ok || bad "--ymax --logy"
gp=$(cat "$tmp/lp/plot.gp")
has "--ymax"       "set yrange [*:250]"
has "--logy"       "set logscale y"
# plot generations: the simple-stacking baseline, and --logx starts at 1.
PATH=/nonexistent $N plot generations 1 --db "$db" --script-only "$tmp/lp" --logx 2>/dev/null && ok || bad "generations --logx"
gp=$(cat "$tmp/lp/plot.gp")
base=$(sqlite3 "$db" "SELECT base_stacking FROM runs WHERE id = 1")
has "stacking line" "$base with lines lw 1.5 dt 3 lc rgb '#e41a1c' title 'simple stacking, run 1: $base cycles'"
has "--logx"       "set logscale x"
check "--logx: generation 0 at x = 1" "$(awk '!/^#/ && NF { print $1; exit }' "$tmp/lp/figure.dat")" 1
# A run whose params keep a floor gets it dotted too (GA runs store none yet).
cp "$db" "$tmp/floor.db"
sqlite3 "$tmp/floor.db" "UPDATE runs SET params = json_set(params, '\$.floor', 30) WHERE id = 1"
PATH=/nonexistent $N plot generations 1 --db "$tmp/floor.db" --script-only "$tmp/lp" 2>/dev/null && ok || bad "generations, a floor"
gp=$(cat "$tmp/lp/plot.gp")
has "floor line"   "30 with lines lw 1.5 dt 3 lc rgb '#e41a1c' title 'floor, run 1: 30 cycles'"
# Bad values: exit 2, naming the flag and its range.
for v in 0 0.5 -5 nan inf 1e13 abc ""; do
  expect_refused "--ymax '$v'" "--ymax: " $N plot load 1 --db "$ldb" -o "$O" --ymax "$v"
  case $($N plot load 1 --db "$ldb" -o "$O" --ymax "$v" 2>&1) in *"(allowed: [1, 1e+12])"*) ok;;
    *) bad "--ymax '$v': the message lacks the range";; esac
done
# The ranges at their ends: --ymax 1e12 and --size 100x8000 taken, one past
# refused; a run id of 0 or past the range named.
PATH=/nonexistent $N plot load 1 --db "$ldb" --script-only "$tmp/lp" --ymax 1e12 --size 100x8000 2>/dev/null \
  && ok || bad "--ymax 1e12 --size 100x8000"
gp=$(cat "$tmp/lp/plot.gp")
has "--ymax 1e12"  "set yrange [0:1e+12]"
has "--size 100x8000" "size 100,8000"
expect_refused "--ymax 1.000001e12" "(allowed: [1, 1e+12])" $N plot load 1 --db "$ldb" -o "$O" --ymax 1.000001e12
expect_refused "--size 99x8000"     "--size"                $N plot load 1 --db "$ldb" -o "$O" --size 99x8000
expect_refused "--size 100x8001"    "--size"                $N plot load 1 --db "$ldb" -o "$O" --size 100x8001
expect_refused "run 0"              "RUN: '0' is out of range" $N plot load 0 --db "$ldb" -o "$O"
expect_refused "run 2^63"           "RUN: '9223372036854775808'" $N plot load 9223372036854775808 --db "$ldb" -o "$O"
expect_refused "--logy=1"             "--logy takes no value" $N plot load 1 --db "$ldb" -o "$O" --logy=1
expect_refused "--ymax without value" "--ymax needs a value"  $N plot load 1 --db "$ldb" -o "$O" --ymax

# --ymax at or below every point would draw nothing (gnuplot even fails on
# it): refused, naming the lowest point (run 1's best at its last generation).
low=$(sqlite3 "$db" "SELECT MIN(best) FROM generations WHERE run = 1")
expect_refused "--ymax at the lowest point" "--ymax $low is at or below every point (the lowest is $low)" \
  $N plot generations 1 --db "$db" -o "$O" --ymax "$low"
PATH=/nonexistent $N plot generations 1 --db "$db" --script-only "$tmp/lp" --ymax $((low + 1)) --logy 2>/dev/null \
  && ok || bad "--ymax one above the lowest point, --logy"
gp=$(cat "$tmp/lp/plot.gp")
has "--ymax above the lowest" "set autoscale yfixmin
set yrange [*:$((low + 1))]"
for v in 0 x -1 1048577; do
  expect_refused "plot runs --slices '$v'" "--slices: " $N plot runs --db "$db" -o "$O" --slices "$v"
done
# An open-loop run of one rate is a point with its bar: two of them draw.
$N load --topology mesh --size 4 --traffic uniform --rate 0.1 --db "$tmp/one.db" --quiet > /dev/null || bad "one-rate run 1"
$N load --topology mesh --size 4 --traffic transpose --rate 0.1 --db "$tmp/one.db" --quiet > /dev/null || bad "one-rate run 2"
PATH=/nonexistent $N plot load 1 2 --db "$tmp/one.db" --script-only "$tmp/lp" 2>/dev/null && ok || bad "one-rate curves"
check "one-rate curves: two points" "$(grep -cv '^#\|^$' "$tmp/lp/figure.dat")" 2
expect_refused "one point in all" "only 1 point to draw" $N plot load 1 --db "$tmp/one.db" -o "$O"

# ---- nocsim plot with gnuplot ------------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
  $N plot stack "$tmp/s.csv" -o "$O" --size 640x400 && ok || bad "plot stack"
  is_png "$O" && [ "$(png_size "$O")" = 640x400 ] && ok || bad "plot stack size $(png_size "$O")"
  $N stack --traffic brev --size 4 --arb C00 --interval 8:12 --format csv | $N plot stack - -o "$O" && ok || bad "plot stack from stdin"
  (cd "$tmp/gp" && gnuplot plot.gp) && is_png "$O" && [ "$(png_size "$O")" = 800x500 ] && ok || bad "the script-only script"
  rm -f "$O"
  # SIGTERM while gnuplot draws a large picture: status 143 and no file at
  # all (or, on a fast machine, a finished picture and nothing else).
  $N plot stack "$tmp/s.csv" -o "$O" --size 8000x8000 & pid=$!
  sleep 0.3; kill -TERM $pid 2>/dev/null; wait $pid; rc=$?
  left=$(ls -A "$tmp/out")
  if [ $rc -eq 143 ] && [ -z "$left" ]; then ok
  elif [ $rc -eq 0 ] && [ "$left" = p.png ]; then ok
  else bad "SIGTERM while drawing: exit $rc, left '$left'"; fi
  rm -f "$tmp/out"/* "$tmp/out"/.??*
else
  echo "plot_cli.sh: gnuplot not installed (Debian package gnuplot-nox): gnuplot drawing skipped"
fi

# ---- --activity ----------------------------------------------------------------
expect_refused "activity path"      "/nonexistent/a.png"   $N sim --traffic brev --size 4 --activity /nonexistent/a.png
expect_refused "activity links"     "allowed: 0:63"        $N sim --traffic brev --size 4 --activity "$O" --activity-links 10:64
expect_refused "activity scale"     "--activity-scale"     $N sim --traffic brev --size 4 --activity "$O" --activity-scale 0
$N sim --traffic brev --size 4 --slices 2 --interval 8 --activity "$O" --activity-scale 2 --activity-links 4:35 >/dev/null && ok || bad "sim --activity"
d=$($N sim --traffic brev --size 4 --slices 2 --interval 8 --format csv | tail -1 | cut -d, -f8)
# Framed (title, axes, legend around the map): larger than the 64 x 2d map
# on both sides; bare: exactly the map, 32 links x 2 pixels by d cycles x 2.
size=$(png_size "$O"); fw=${size%x*} fh=${size#*x}
[ "$fw" -gt 64 ] && [ "$fh" -gt $((2 * d + 14)) ] && ok || bad "sim --activity framed size $size, want more than 64x$((2 * d + 14))"
$N sim --traffic brev --size 4 --slices 2 --interval 8 --activity "$O" --activity-scale 2 --activity-links 4:35 \
  --activity-no-legend >/dev/null && ok || bad "sim --activity-no-legend"
[ "$(png_size "$O")" = "64x$((2 * d))" ] && ok || bad "sim --activity-no-legend size $(png_size "$O"), want 64x$((2 * d))"
$N replay --best 1 --db "$db" --activity "$tmp/out/r.png" --activity-no-legend >/dev/null && ok || bad "replay --activity"
d=$($N replay --best 1 --db "$db" --format json | sed 's/.*"duration": \([0-9]*\).*/\1/')
[ "$(png_size "$tmp/out/r.png")" = "64x$d" ] && ok || bad "replay --activity size $(png_size "$tmp/out/r.png"), want 64x$d"

echo "plot_cli.sh: $pass passed, $fail failed"
[ $fail -eq 0 ]
