#!/bin/sh
# run.sh: builds the query fuzz target of `octad serve` with clang and fuzzes it for <seconds>.
# usage: serve/fuzz/run.sh <seconds> [build-dir]   (build-dir default: <repo>/build-fuzz)
# Seeds: serve/fuzz/seeds.txt, one input a line (first character: the route, 0-5, see fuzz_query.c).
set -eu
secs=${1:?usage: run.sh <seconds> [build-dir]}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build=${2:-$src/build-fuzz}
mkdir -p "$build"
build=$(cd "$build" && pwd)

cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DOCTAD_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" -j2 --target fuzz_query

corpus=$build/fuzz-corpus/query
mkdir -p "$corpus"
n=0
while IFS= read -r line; do
    n=$((n + 1))
    printf '%s' "$line" | tr '012345' '\000\001\002\003\004\005' | head -c 1 > "$corpus/seed-$n"
    printf '%s' "${line#?}" >> "$corpus/seed-$n"
done < "$here/seeds.txt"

# A crash leaves crash-<sha1> in the build folder and makes this script fail.
cd "$build"
exec ./serve/fuzz_query -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=512 \
     -print_final_stats=1 "$corpus"
