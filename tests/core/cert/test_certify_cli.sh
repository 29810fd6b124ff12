#!/usr/bin/env bash
# test_certify_cli.sh: `octad certify` from tables made here (4 men, under a second): the claim
# follows the tables' value, the file's header is the one docs/certificate.md describes, and
# bad usage or missing tables get a clear error and the documented exit status.
# usage: test_certify_cli.sh OCTAD
set -uo pipefail
octad=$1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
rc=0
fail() { echo "FAIL: $*"; rc=1; }
"$octad" solve --max-pieces 4 --tables "$work/t" --quiet --threads 2 >/dev/null || { echo "FAIL: solve"; exit 1; }
for line in "k3/4/4/1KP1 w C - 0 1|white-wins|nodes" "1k2/1pP1/4/3K b - c2 0 1|draw|white" \
            "3k/1pP1/4/K3 b - c2 0 1|black-wins|nodes"; do
    IFS='|' read -r pos claim section <<<"$line"
    out=$("$octad" certify --tables "$work/t" --ofen "$pos" --out "$work/c") || { fail "certify $pos exited $?"; continue; }
    file=${out%%  *}
    [[ "$out" == *"  $claim  $section "[0-9]*" bytes  checksum "[0-9a-f]*" "* ]] || fail "$pos: line [$out]"
    head=$(head -c 400 "$file" | head -n 4 | tr -d '\0')
    [[ "$head" == "octad-certificate 1"$'\n'"start $pos"$'\n'"claim $claim"$'\n'"count $section "* ]] || fail "$pos: header [$head]"
    sum=$(grep -a -m1 '^checksum ' "$file" | cut -d' ' -f2)
    [[ "$out" == *"checksum $sum "* ]] || fail "$pos: printed checksum differs from the file's $sum"
    echo "ok: $out"
done
expect() { # expect STATUS TEXT ARGS...: exit status and a message on stderr
    local want=$1 text=$2; shift 2
    err=$("$octad" certify "$@" 2>&1 >/dev/null); st=$?
    [ "$st" -eq "$want" ] && [[ "$err" == *"$text"* ]] || fail "certify $*: exit $st [$err], want $want and '$text'"
    echo "ok: certify $* -> $st: $err"
}
expect 2 "--out DIR is required" --tables "$work/t" --start 39
expect 2 "--start" --start 144 --out "$work/c"
expect 2 "exclude each other" --start 1 --all --out "$work/c"
expect 2 "--ofen" --ofen "ppkn/4/4/NKPP w - - 0" --out "$work/c"
expect 1 "ppkn/4/4/NKPP" --tables "$work/t" --start 39 --out "$work/c"
exit "$rc"
