#!/bin/sh
# run.sh: builds the query fuzz target of `octad serve` with clang and fuzzes it for <seconds>.
# usage: serve/fuzz/run.sh <seconds> [build-dir]   (build-dir default: <repo>/build-fuzz)
# Seeds: serve/fuzz/seeds.txt, one input a line (first character: the route, 0-5, see fuzz_query.c).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../../tools/fuzz_text.sh" fuzz_query "$here/seeds.txt" 512 "${1:?usage: run.sh <seconds> [build-dir]}" ${2:+"$2"}
