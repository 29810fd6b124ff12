#!/usr/bin/env bash
# test_certcheck_start.sh: the standard start's certificate, made from the full tables and
# proved by certcheck (label slow). The tables (8 men, ~40 GB, ~4 h to make: docs/solution.md)
# are taken from $OCTAD_TABLES; without them the test is skipped (exit 77), saying why.
# usage: test_certcheck_start.sh OCTAD CERTCHECK
set -uo pipefail
octad=$1 check=$2 tables=${OCTAD_TABLES:-}
if [ -z "$tables" ] || [ ! -f "$tables/KNPPvKNPP.otb" ]; then
    echo "skip: no full tables (set OCTAD_TABLES to a directory made by octad solve --max-pieces 8)"
    exit 77
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
line=$(/usr/bin/time -f '%e s %M KB' "$octad" certify --tables "$tables" --start 39 --out "$work") || exit 1
echo "$line"
got=$(/usr/bin/time -f '%e s %M KB' "$check" check "$work/start-039.cert") || { echo "FAIL: $got"; exit 1; }
echo "$got"
[[ "$got" == "proved: draw for ppkn/4/4/NKPP w NCFncf - 0 1"* ]] || { echo "FAIL: want the draw proved"; exit 1; }
