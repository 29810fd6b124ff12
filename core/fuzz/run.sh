#!/bin/sh
# run.sh: builds the position-parser fuzz target with clang and fuzzes it for <seconds>.
# usage: core/fuzz/run.sh <seconds> [build-dir]   (build-dir default: <repo>/build-fuzz)
# Seeds: core/fuzz/seeds.txt, one input a line (first character: variant 0 octad, 1 chess, 2 chess960).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exec sh "$here/../../tools/fuzz_text.sh" fuzz_parse "$here/seeds.txt" 256 "${1:?usage: run.sh <seconds> [build-dir]}" ${2:+"$2"}
