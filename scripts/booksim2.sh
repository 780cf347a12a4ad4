#!/usr/bin/env bash
# Build BookSim2 in a scratch folder outside this repository, for the
# side-by-side figures of `make bench` (BOOKSIM=...) and data/openloop.md.
# Nothing of BookSim2 enters the repository; only its measured numbers do.
#   scripts/booksim2.sh [SRC]   SRC: a checkout of github.com/booksim/booksim2
#                               (default: clone it, commit 28f4329)
#   BOOKSIM_DIR=dir             where to build (default ${TMPDIR:-/tmp}/nocsim-booksim2)
# Prints the path of the binary.  Needs g++, bison and flex
# (apt-get install -y g++ bison flex).
# Exit 2 on bad input (SRC not a booksim2 checkout, or SRC inside the build
# folder, which the build starts by deleting), 1 when the build fails.
set -euo pipefail
dir=${BOOKSIM_DIR:-${TMPDIR:-/tmp}/nocsim-booksim2}
rev=28f43299
if [ $# -ge 1 ]; then
  [ -f "$1/src/Makefile" ] || { echo "booksim2.sh: $1: not a booksim2 checkout (no src/Makefile)" >&2; exit 2; }
  case "$(realpath -m "$1")/" in
  "$(realpath -m "$dir")/"*)
    echo "booksim2.sh: $1 is inside the build folder $dir, which the build deletes: set BOOKSIM_DIR elsewhere" >&2
    exit 2 ;;
  esac
fi
if [ ! -x "$dir/src/booksim" ]; then
  # A build stopped half-way left no binary: start again from nothing.
  rm -rf "$dir"
  if [ $# -ge 1 ]; then
    mkdir -p "$dir" && cp -r "$1/." "$dir/"
  else
    git clone -q https://github.com/booksim/booksim2 "$dir" && git -C "$dir" checkout -q "$rev"
  fi
  make -C "$dir/src" -j"$(nproc)" > "$dir/build.log" 2>&1 ||
    { echo "booksim2.sh: the build failed, see $dir/build.log" >&2; exit 1; }
fi
echo "$dir/src/booksim"
