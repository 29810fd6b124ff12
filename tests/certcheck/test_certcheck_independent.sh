#!/usr/bin/env bash
# test_certcheck_independent.sh: the certificate checker (certcheck/) shares nothing with the
# rest of the project, so that a bug in the solver cannot hide in the checker: its sources
# include only system headers and its own, and its program links no library of ours.
# usage: test_certcheck_independent.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=$1 build=$2
rc=0
cd "$src/certcheck" || exit 1
own=$(ls -- *.h)
while IFS= read -r line; do
    file=${line%%:*} inc=${line#*#include }
    case "$inc" in
        \<*\>) ;;                                             # a system header
        \"*\") name=${inc//\"/}
               if [[ "$name" == */* ]] || ! grep -qxF "$name" <<<"$own"; then
                   echo "FAIL: $file includes $inc, which is not certcheck's own"; rc=1
               fi ;;
        *) echo "FAIL: $file: unreadable include $inc"; rc=1 ;;
    esac
done < <(grep -H '^[[:space:]]*#[[:space:]]*include' -- *.c *.h | sed 's/:[[:space:]]*#[[:space:]]*include[[:space:]]*/:#include /')
# The sources the target compiles all live in certcheck/ (no ../ paths into the project).
if grep -E '\.\./|\$\{PROJECT_SOURCE_DIR\}|CMAKE_SOURCE_DIR' CMakeLists.txt; then
    echo "FAIL: certcheck/CMakeLists.txt reaches outside its folder"; rc=1
fi
link=$(find "$build" -path '*certcheck.dir/link.txt' | head -1)
if [ -z "$link" ]; then
    echo "FAIL: no link command of certcheck under $build"; rc=1
else
    # Every object is certcheck's own, every library a system one (no .a or .so of the build tree).
    for word in $(cat "$link"); do
        case "$word" in
            *.o) [[ "$word" == CMakeFiles/certcheck.dir/* ]] || { echo "FAIL: links object $word"; rc=1; } ;;
            *.a|*.so|*.so.*) [[ "$word" == /usr/* || "$word" == /lib/* ]] || { echo "FAIL: links $word"; rc=1; } ;;
            -l*) [[ "$word" == -lzstd || "$word" == -lc || "$word" == -lm ]] || { echo "FAIL: links $word"; rc=1; } ;;
        esac
    done
fi
[ "$rc" -eq 0 ] && echo "ok: certcheck includes only its own headers and system ones, and links only system libraries"
exit "$rc"
