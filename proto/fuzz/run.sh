#!/bin/sh
# run.sh: builds the OCTP decoder fuzz target with clang and fuzzes it for <seconds> from a seed corpus of valid messages.
# usage: proto/fuzz/run.sh <seconds> [build-dir]   (build-dir default: <repo>/build-fuzz)
# OCTAD_SOURCE_DIR overrides the CMake source folder (default: the repository root).
set -eu
secs=${1:?usage: run.sh <seconds> [build-dir]}
here=$(cd "$(dirname "$0")" && pwd)
src=${OCTAD_SOURCE_DIR:-$(cd "$here/../.." && pwd)}
build=${2:-$src/build-fuzz}
mkdir -p "$build"
build=$(cd "$build" && pwd)

cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DOCTAD_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" -j2 --target fuzz_msg_decode fuzz_msg_corpus

# Seeds: every sample message, encoded. libFuzzer adds what it finds to the same folder.
corpus=$build/fuzz-corpus/msg_decode
mkdir -p "$corpus"
"$build/proto/fuzz_msg_corpus" "$corpus"

# A crash leaves crash-<sha1> in the build folder and makes this script fail.
cd "$build"
exec ./proto/fuzz_msg_decode -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
     -print_final_stats=1 "$corpus"
