#!/usr/bin/env bash
# test_configure_missing.sh: the build lists its folders (CMakeLists.txt, core/, tests/), so a folder
# that goes missing fails the configure, naming it, instead of silently dropping its code or tests.
# usage: test_configure_missing.sh SOURCE_DIR
set -uo pipefail
src=$1
tmp=$(mktemp -d /tmp/octad-configure.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
rc=0
(cd "$src" && git ls-files -z 2>/dev/null || find . -type f -not -path './build*' -print0) >"$tmp/files"
if [ ! -s "$tmp/files" ]; then echo "SKIP: cannot list the source files"; exit 77; fi
mkdir "$tmp/src" && (cd "$src" && xargs -0 cp --parents -t "$tmp/src" <"$tmp/files")
cmake -S "$tmp/src" -B "$tmp/whole" -DOCTAD_NATIVE=OFF >"$tmp/whole.log" 2>&1 \
    && echo "ok: the whole tree configures" || { echo "FAIL: the whole tree does not configure"; tail "$tmp/whole.log"; exit 1; }
for dir in core/verify tests/core/solve; do
    rm -rf "$tmp/cut" && cp -a "$tmp/src" "$tmp/cut" && rm -rf "$tmp/cut/$dir"
    if cmake -S "$tmp/cut" -B "$tmp/cut-build" >"$tmp/cut.log" 2>&1; then
        echo "FAIL: configure succeeded without $dir"; rc=1
    elif grep -q "${dir##*/}" "$tmp/cut.log"; then
        echo "ok: without $dir the configure fails and names it"
    else
        echo "FAIL: configure failed without $dir but did not name it:"; tail -n 5 "$tmp/cut.log"; rc=1
    fi
    rm -rf "$tmp/cut-build"
done
exit "$rc"
