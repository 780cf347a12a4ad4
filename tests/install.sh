#!/usr/bin/env bash
# make install / make uninstall (issue 25): into a scratch DESTDIR with
# PREFIX=/usr, the installed binary runs, `man -l` renders the page, every
# flag of every command's --help is in that command's section of the page,
# the installed bash completion completes commands and flags, and uninstall
# leaves nothing behind.
set -u
. "$(dirname "$0")/testlib.bash"
N=${NOCSIM:-./nocsim}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
dest=$tmp/root
# Install what NOCSIM is (build/nocsim, build-asan/nocsim, ...).
build=build
case $N in */nocsim) d=$(basename "$(dirname "$N")"); [ -d "$d" ] && build=$d;; esac
if ! ${MAKE:-make} -s install BUILD="$build" DESTDIR="$dest" PREFIX=/usr > "$tmp/install.log" 2>&1; then
  bad "make install failed: $(cat "$tmp/install.log")"
  echo "install: $pass passed, $fail failed"; exit 1
fi
bin=$dest/usr/bin/nocsim page=$dest/usr/share/man/man1/nocsim.1
comp=$dest/usr/share/bash-completion/completions/nocsim doc=$dest/usr/share/doc/nocsim
for f in "$page" "$comp" "$doc/README.md" "$doc/SCHEMA.md" "$doc/cc.md"; do
  [ -f "$f" ] && ok || bad "not installed: $f"
done
[ -x "$bin" ] && ok || bad "no executable $bin"
# The page's SEE ALSO names the documents as installed (issue 35: it said
# cc/README.md, installed as cc.md), and every one of them is there.
see=$(sed -n '/^\.SH SEE ALSO/,$p' "$page" | grep -o '[A-Za-z]*\.md' | LC_ALL=C sort -u)
check "SEE ALSO names" "$(printf '%s\n' $see | tr '\n' ' ')" "README.md SCHEMA.md cc.md config.md json.md model.md openloop.md "
for f in $see; do [ -f "$doc/$f" ] && ok || bad "SEE ALSO names $f, not installed in $doc"; done
check "installed documents" "$(cd "$doc" && LC_ALL=C ls | tr '\n' ' ')" "README.md SCHEMA.md cc.md config.md json.md model.md openloop.md "

# The installed binary runs: one packet 0 -> 6 on a 4x4 torus, 3 hops, 8 flits:
# duration H + L + 1 = 12.
check "installed --version" "$("$bin" --version)" "$($N --version)"
printf '0 6\n' > "$tmp/one.tr"
out=$("$bin" sim --size 4 --traffic "file:$tmp/one.tr" --format csv | tail -1 | cut -d, -f8)
check "installed binary runs" "$out" 12

# man -l renders the page (plain text, wide, so no flag is broken across lines).
MANWIDTH=250 man -l "$page" 2>"$tmp/man.err" > "$tmp/man.txt"
check "man -l: status" "$?" 0
check "man -l: no warnings" "$(cat "$tmp/man.err")" ""
grep -q '^NOCSIM(1)' "$tmp/man.txt" && ok || bad "man page has no NOCSIM(1) header"

# Every flag of every command's --help in that command's section.
section() { # the rendered section of "nocsim CMD" (up to the next command's)
  awk -v h="   nocsim $1" '$0 == h { f = 1; next } f && /^   nocsim / { exit } f' "$tmp/man.txt"
}
commands=(sim stack ga replay export extrapolate post-stack sweep load cc plot
          "db runs" "db show" "db synonyms" "db best" "db export" "db sweep" "db merge")
flags_total=0
for c in "${commands[@]}"; do
  # shellcheck disable=SC2086
  flags=$($N $c --help | sed -n -E 's/^  (-[a-zA-Z], |    )(--[a-z][a-z0-9-]*).*/\2/p')
  sec=$(section "$c")
  [ -n "$sec" ] && ok || bad "man page has no section 'nocsim $c'"
  for fl in $flags; do
    flags_total=$((flags_total + 1))
    printf '%s\n' "$sec" | grep -q -- "$fl\\b" && ok || bad "man page, nocsim $c: $fl missing"
  done
done
[ "$flags_total" -ge 200 ] && ok || bad "only $flags_total flags checked"

# The installed completion: commands, then a command's flags.
comp_of() { # WORD... : the completions of the last word
  bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _nocsim; echo "${COMPREPLY[*]}"' _ "$comp" "$@"
}
check "completion: commands" "$(comp_of "$bin" st)" "stack"
check "completion: flags" "$(comp_of "$bin" sim --tra)" "--traffic"
check "completion: db subcommand flags" "$(comp_of "$bin" db synonyms --or)" "--order-by"
# Values by command (issue 35): load's patterns, plot's load figure, topologies
# by name rather than file names.
check "completion: load's traffic" "$(comp_of "$bin" load --traffic tra)" "transpose"
check "completion: sim's traffic" "$(comp_of "$bin" sim --traffic tr)" "trns"
check "completion: plot figures" "$(comp_of "$bin" plot lo)" "load"
check "completion: load --topology" "$(comp_of "$bin" load --topology "")" "torus mesh"
check "completion: cc --topology" "$(comp_of "$bin" cc --topology hy)" "hypercube:"
check "completion: db runs --kind" "$(comp_of "$bin" db runs --kind l)" "load"

${MAKE:-make} -s uninstall BUILD="$build" DESTDIR="$dest" PREFIX=/usr > "$tmp/uninstall.log" 2>&1 || bad "make uninstall failed"
check "uninstall leaves no files" "$(find "$dest" -type f | wc -l)" 0
check "uninstall removes the folders it made in DESTDIR" "$(find "$dest" -mindepth 1 | wc -l)" 0

# A PREFIX or DESTDIR with whitespace (or a quote, $, \, `) is refused before
# anything is touched (issue 35): uninstall deleted PREFIX's second word
# outside DESTDIR, install left a tree named after it in the source folder.
mkdir -p "$tmp/some/dir/bin" && echo keep > "$tmp/some/dir/bin/nocsim"
${MAKE:-make} -s uninstall BUILD="$build" DESTDIR="$tmp/stage" "PREFIX=/x $tmp/some/dir" > "$tmp/u.log" 2>&1
check "uninstall, PREFIX with a space: exit" $? 2
check "uninstall, PREFIX with a space: the file outside DESTDIR kept" "$(cat "$tmp/some/dir/bin/nocsim")" keep
grep -q "nothing was installed or removed" "$tmp/u.log" && ok || bad "uninstall, PREFIX with a space: $(cat "$tmp/u.log")"
for v in "PREFIX=/usr/my prefix" "PREFIX=/usr/a'b" 'PREFIX=/usr/a$b' "DESTDIR=$tmp/st age"; do
  ${MAKE:-make} -s install BUILD="$build" DESTDIR="$tmp/stage" PREFIX=/usr "$v" > "$tmp/i.log" 2>&1
  check "install $v: exit" $? 2
done
[ ! -e prefix ] && [ ! -e "$tmp/stage" ] && [ ! -e "$tmp/st" ] && ok || bad "a refused install made folders"

echo "install: $pass passed, $fail failed"
[ $fail -eq 0 ]
