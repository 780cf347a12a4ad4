#!/bin/bash
# Mutation check: every injected bug of tests/mutants/mutants.txt must be
# caught by the tests named with it.
#
#   scripts/mutants.sh [NAME...]     all mutants, or those named
#   scripts/mutants.sh --applies     only check that every mutant's sed still
#                                    changes its file (no build, the tree
#                                    untouched; tests/mutants_list.sh)
#
# The tree (tracked and new files, as they are now) is copied to a scratch
# folder and built there once; then each mutant is applied with sed -E to its
# file, the tests it names are rebuilt and run (one or two binaries, so a
# mutant costs seconds), and the file is put back.  A mutant is caught when
# one of its tests fails (a crash or a time-out counts); one that is not
# caught, whose sed changes nothing (the code moved on: mend the list) or
# that does not compile is a failure.  Exit 0 when every mutant run is caught.
#
# Environment: MUTANTS_LIST (another list, for tests of this script),
# TMPDIR (where the scratch folder goes, default /tmp),
# MUTANT_TIMEOUT (seconds per test, default 600), JOBS (make -j,
# default 1), KEEP=1 keeps the scratch folder.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
list=${MUTANTS_LIST:-$root/tests/mutants/mutants.txt}
timeout_s=${MUTANT_TIMEOUT:-600}
jobs=${JOBS:-1}

# The list: parallel arrays, one entry per mutant.
names=() files=() seds=() tests=()
while IFS= read -r line || [ -n "$line" ]; do
    case $line in
    'mutant '*) names+=("${line#mutant }"); files+=(""); seds+=(""); tests+=("") ;;
    'file '*) files[${#names[@]}-1]=${line#file } ;;
    'sed '*) seds[${#names[@]}-1]=${line#sed } ;;
    'tests '*) tests[${#names[@]}-1]=${line#tests } ;;
    '' | '#'*) ;;
    *) echo "mutants.sh: $list: cannot read: $line" >&2; exit 2 ;;
    esac
done < "$list"
for i in "${!names[@]}"; do
    if [ -z "${files[$i]}" ] || [ -z "${seds[$i]}" ] || [ -z "${tests[$i]}" ]; then
        echo "mutants.sh: mutant ${names[$i]}: needs file, sed and tests" >&2; exit 2
    fi
done

# --applies: a mutant whose sed no longer matches (the code moved on) is
# found in a second, by make check, not at the next full mutant run.
if [ "${1:-}" = --applies ]; then
    [ $# -eq 1 ] || { echo "mutants.sh: --applies takes no mutant names (it checks them all)" >&2; exit 2; }
    stale=0 out=$(mktemp) || exit 2
    trap 'rm -f "$out"' EXIT
    for i in "${!names[@]}"; do
        f=$root/${files[$i]}
        if [ ! -f "$f" ]; then
            echo "mutants.sh: mutant ${names[$i]}: ${files[$i]} is not in the tree" >&2; stale=$((stale + 1))
        elif ! sed -E "${seds[$i]}" "$f" > "$out" 2>/dev/null; then
            echo "mutants.sh: mutant ${names[$i]}: sed -E cannot run its expression" >&2; stale=$((stale + 1))
        elif cmp -s "$out" "$f"; then
            echo "mutants.sh: mutant ${names[$i]}: the sed changes nothing in ${files[$i]} (mend $list)" >&2
            stale=$((stale + 1))
        fi
    done
    echo "mutants.sh: ${#names[@]} mutants, $stale stale"
    [ $stale = 0 ]; exit
fi

want=("$@")
selected() {
    [ ${#want[@]} -eq 0 ] && return 0
    local w; for w in "${want[@]}"; do [ "$w" = "$1" ] && return 0; done
    return 1
}
for w in "${want[@]}"; do
    found=0; for n in "${names[@]}"; do [ "$n" = "$w" ] && found=1; done
    [ $found = 1 ] || { echo "mutants.sh: no mutant $w in $list" >&2; exit 2; }
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/nocsim-mutants-XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$scratch"' EXIT
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - 2>/dev/null) | tar -xf - -C "$scratch"

# The targets of a test name: a Check binary (or fuzz_engines_random, the
# engine-comparison fuzz target as a random test), the CLI for a shell test,
# the checking build too for invariants.sh, the delta probe for delta_probe.sh.
target() {
    case $1 in
    invariants.sh) echo build/nocsim check-build ;;
    delta_probe.sh) echo build/nocsim build/bench/delta_ceiling ;;
    *.sh) echo build/nocsim ;;
    *) echo "build/tests/$1" ;;
    esac
}
run_test() {
    local env=(NOCSIM="$scratch/build/nocsim" NOCSIM_CHECK_BIN="$scratch/build-check/nocsim")
    case $1 in
    *.sh) env "${env[@]}" timeout "$timeout_s" bash "tests/$1" ;;
    *) env "${env[@]}" timeout "$timeout_s" "build/tests/$1" ;;
    esac
}

cd "$scratch" || exit 2
# What failing tests leave behind (tests/testutil.h) stays in the scratch folder.
mkdir -p "$scratch/tmp" && export TMPDIR=$scratch/tmp
all_targets=()
for i in "${!names[@]}"; do
    selected "${names[$i]}" || continue
    for t in ${tests[$i]}; do all_targets+=($(target "$t")); done
done
echo "building the unchanged tree in $scratch ..."
if ! nice make -j"$jobs" -s "${all_targets[@]}" >build.log 2>&1; then
    echo "mutants.sh: the unchanged tree does not build (see $scratch/build.log)" >&2; KEEP=1; exit 2
fi
# The tests must pass before they can catch anything.
declare -A base_ok
for i in "${!names[@]}"; do
    selected "${names[$i]}" || continue
    for t in ${tests[$i]}; do
        [ -n "${base_ok[$t]:-}" ] && continue
        if run_test "$t" >/dev/null 2>&1; then base_ok[$t]=1
        else echo "mutants.sh: $t fails on the unchanged tree" >&2; exit 2; fi
    done
done

failed=0 count=0
for i in "${!names[@]}"; do
    name=${names[$i]} file=${files[$i]}
    selected "$name" || continue
    count=$((count + 1))
    if [ ! -f "$file" ]; then
        printf '%-40s FAIL: %s is not in the tree\n' "$name" "$file"; failed=$((failed + 1)); continue
    fi
    cp "$file" "$file.orig"
    sed -E -i "${seds[$i]}" "$file"
    if cmp -s "$file" "$file.orig"; then
        printf '%-40s FAIL: the sed changes nothing in %s\n' "$name" "$file"
        cp "$file.orig" "$file"; rm -f "$file.orig"; failed=$((failed + 1)); continue
    fi
    targets=(); for t in ${tests[$i]}; do targets+=($(target "$t")); done
    if ! nice make -j"$jobs" -s "${targets[@]}" >"mutant-$name.log" 2>&1; then
        printf '%-40s FAIL: does not build (see mutant-%s.log)\n' "$name" "$name"
        failed=$((failed + 1))
    else
        caught=()
        for t in ${tests[$i]}; do run_test "$t" >>"mutant-$name.log" 2>&1 || caught+=("$t"); done
        if [ ${#caught[@]} -gt 0 ]; then
            printf '%-40s caught by %s\n' "$name" "${caught[*]}"
        else
            printf '%-40s FAIL: not caught by %s\n' "$name" "${tests[$i]}"; failed=$((failed + 1))
        fi
    fi
    # Put the file back with a new time, so that make rebuilds it next.
    cp "$file.orig" "$file"; rm -f "$file.orig"; touch "$file"
done
echo "$((count - failed)) of $count mutants caught"
[ $failed = 0 ]
