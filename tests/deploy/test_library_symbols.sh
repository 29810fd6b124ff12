#!/usr/bin/env bash
# test_library_symbols.sh: liboctad.so exports exactly the functions its public headers
# declare (OCTAD_API), nothing internal, and every declared function is exported.
# usage: test_library_symbols.sh LIBOCTAD_SO HEADER...
# The declarations come from the compiler (gcc -aux-info on a file including every
# public header), the exports from `nm -D --defined-only`.
set -uo pipefail
lib=${1:?LIBOCTAD_SO}
shift
tmp=$(mktemp -d /tmp/octad-symbols.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for h in "$@"; do printf '#include "%s"\n' "$h"; done >"$tmp/all.c"
# Installed, the headers share one folder (and base/, octad/, chess/ below it); in the source
# tree each folder's header finds the others through the include path: its folder and core/.
mapfile -t incs < <(for h in "$@"; do d=$(dirname "$h"); printf -- '-I%s\n-I%s\n' "$d" "$(dirname "$d")"; done | sort -u)
gcc -std=c11 -fsyntax-only "${incs[@]}" -aux-info "$tmp/decls" "$tmp/all.c" || { echo "FAIL: headers do not compile"; exit 1; }
# Lines look like: /* /src/core/game/game.h:46:NC */ extern void game_init (void);
pattern=$(printf '%s\n' "$@" | sed 's/[][\.*^$/]/\\&/g' | paste -sd'|')
grep -E "^/\* ($pattern):[0-9]+:" "$tmp/decls" | grep -v ' static ' \
    | sed -E 's/ \(.*//; s/.*[ *]([A-Za-z_][A-Za-z0-9_]*)$/\1/' | sort -u >"$tmp/declared"
nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ { print $3 }' \
    | grep -vE '^(_init|_fini|__bss_start|_edata|_end)$' | sort -u >"$tmp/exported"
leaked=$(comm -13 "$tmp/declared" "$tmp/exported")
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
rc=0
if [ -n "$leaked" ]; then
    echo "FAIL: exported but in no public header (mark it static, or declare it with OCTAD_API):"
    echo "$leaked" | sed 's/^/  /'
    rc=1
fi
if [ -n "$missing" ]; then
    echo "FAIL: declared in a public header but not exported (add OCTAD_API, see core/base/api.h, and make"
    echo "      sure the folder that defines it adds its library with octad_library_part()):"
    echo "$missing" | sed 's/^/  /'
    rc=1
fi
[ "$(wc -l <"$tmp/declared")" -gt 20 ] || { echo "FAIL: only $(wc -l <"$tmp/declared") declarations found"; rc=1; }
[ "$rc" -eq 0 ] && echo "PASS: $(wc -l <"$tmp/exported") exported functions, each declared in a public header"
exit "$rc"
