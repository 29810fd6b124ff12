#!/usr/bin/env bash
# test_verify_independent.sh: the verifier (core/verify) shares no code with the solver (core/solve),
# so that a bug in one is caught by the other (docs/verifier.md): no verify source includes a header
# of core/solve, and no symbol the verify library needs is one the solve library defines.
# usage: test_verify_independent.sh SOURCE_DIR LIBVERIFY.a LIBSOLVE.a
set -uo pipefail
src=$1 verify=$2 solve=$3
rc=0
mapfile -t solve_headers < <(cd "$src/core/solve" && ls -- *.h)
for h in "${solve_headers[@]}"; do
    # a header of the same name in core/verify is the verifier's own (vt_*.h never collide)
    [ -e "$src/core/verify/$h" ] && continue
    hits=$(grep -n "#include \"$h\"" "$src"/core/verify/*.[ch] || true)
    if [ -n "$hits" ]; then
        echo "FAIL: core/verify includes core/solve's $h:"; echo "$hits"; rc=1
    fi
done
undefined=$(nm -u "$verify" | awk '{print $NF}' | sort -u)
defined=$(nm --defined-only "$solve" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort -u)
shared=$(comm -12 <(echo "$undefined") <(echo "$defined"))
if [ -n "$shared" ]; then
    echo "FAIL: the verify library uses symbols of the solve library:"; echo "$shared"; rc=1
fi
[ "$rc" -eq 0 ] && echo "ok: core/verify includes no header of core/solve and links none of its $(echo "$defined" | wc -l) symbols"
exit "$rc"
