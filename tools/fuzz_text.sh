#!/bin/sh
# fuzz_text.sh: builds a libFuzzer target whose inputs are a selector byte and a text, seeds its
# corpus from a file of one input a line (the first character a digit 0-9: the selector byte's
# value; the rest: the text), and fuzzes it. What core/fuzz/run.sh and serve/fuzz/run.sh share.
# usage: tools/fuzz_text.sh TARGET SEEDS MAX_LEN SECONDS [BUILD_DIR]   (default <repo>/build-fuzz)
set -eu
target=$1 seeds=$2 maxlen=$3 secs=$4
src=$(cd "$(dirname "$0")/.." && pwd)
build=${5:-$src/build-fuzz}
mkdir -p "$build"
build=$(cd "$build" && pwd)

cmake -S "$src" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DOCTAD_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" -j2 --target "$target"

corpus=$build/fuzz-corpus/$target
mkdir -p "$corpus"
n=0
while IFS= read -r line; do
    n=$((n + 1))
    # shellcheck disable=SC2059  # the format is the selector byte, in octal
    printf "\\$(printf '%03o' "${line%"${line#?}"}")" > "$corpus/seed-$n"
    printf '%s' "${line#?}" >> "$corpus/seed-$n"
done < "$seeds"

# A crash leaves crash-<sha1> in the build folder and makes this script fail.
cd "$build"
exec "$(find . -name "$target" -type f -perm -u+x | head -n 1)" -max_total_time="$secs" -timeout=10 \
     -rss_limit_mb=2048 -max_len="$maxlen" -print_final_stats=1 "$corpus"
