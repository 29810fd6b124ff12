#!/usr/bin/env bash
# test_solve_cli.sh: `octad solve` and `octad probe` as a user meets them:
# a solve killed with SIGKILL resumes to the same tables as an uninterrupted
# one, JSON fields, clear errors for bad usage and bad tables.
set -u
octad=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../fixtures/check.sh"

# An uninterrupted solve to 4 pieces, the reference.
check "solve 4" 0 'solved [0-9]+ positions' -- "$octad" solve --max-pieces 4 --tables "$tmp/ref" --quiet
# The same, killed (SIGKILL) at several moments, then resumed.
for delay in 0.05 0.2 0.4; do
    "$octad" solve --max-pieces 4 --tables "$tmp/kill" --quiet >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
done
check "resume" 0 'solved' -- "$octad" solve --max-pieces 4 --tables "$tmp/kill" --quiet
if cmp -s "$tmp/ref/SUMMARY" "$tmp/kill/SUMMARY"; then
    passes=$((passes + 1))
else
    echo "FAIL resumed solve's SUMMARY differs from the uninterrupted one"
    diff "$tmp/ref/SUMMARY" "$tmp/kill/SUMMARY" | head -5
    fails=$((fails + 1))
fi
if ls "$tmp/kill" | grep -q '\.tmp'; then
    echo "note: leftover temporary files after kills (ignored by readers):"
    ls "$tmp/kill" | grep '\.tmp' | head -3
fi
# Units and levels solved by several threads give the same tables as one.
check "solve parallel levels" 0 'solved' -- env OCTAD_SOLVE_PARALLEL_MIN=1 "$octad" solve --max-pieces 4 --threads 3 --tables "$tmp/par" --quiet
check "solve one thread" 0 'solved' -- "$octad" solve --max-pieces 4 --threads 1 --tables "$tmp/one" --quiet
if cmp -s "$tmp/one/SUMMARY" "$tmp/par/SUMMARY" && cmp -s "$tmp/ref/SUMMARY" "$tmp/par/SUMMARY"; then
    passes=$((passes + 1))
else
    echo "FAIL parallel units give other tables than one thread"
    diff "$tmp/one/SUMMARY" "$tmp/par/SUMMARY" | head -5
    fails=$((fails + 1))
fi
# Probing.
check "probe json" 0 '"wdl":"win".*"dtz":1,"dtm":1.*"best":\["c2c3"\]' -- "$octad" probe "3k/4/1KQ1/4 w - - 0 1" --tables "$tmp/ref" --json
check "probe draw" 0 'insufficient' -- "$octad" probe "3k/4/1K2/4 b - - 0 12" --tables "$tmp/ref"
check "probe pv" 0 '^pv: .*#$' -- "$octad" probe "3k/4/4/R2K w - - 0 1" --tables "$tmp/ref" --pv
check "probe clock" 0 '"wdl":"draw"' -- "$octad" probe "3k/4/4/R2K w - - 50 80" --tables "$tmp/ref" --json
check "probe missing table" 1 'KNPPvKNPP.otb' -- "$octad" probe --tables "$tmp/ref"
check "probe bad ofen" 2 'rank 1 has 3 squares' -- "$octad" probe "3k/4/4/R2 w - - 0 1" --tables "$tmp/ref"
check "solve bad pieces" 2 'max-pieces' -- "$octad" solve --max-pieces 9 --tables "$tmp/x"
check "solve unknown option" 2 'unknown option' -- "$octad" solve --frobnicate
check "solve help" 0 'usage: octad solve' -- "$octad" solve --help
check "solve bad memory" 2 'memory' -- "$octad" solve --max-pieces 3 --memory 0 --tables "$tmp/x"
check "solve small memory" 0 'solved' -- "$octad" solve --max-pieces 4 --memory 1 --tables "$tmp/mem" --quiet
check "repack current" 0 '"repacked":0.*"ok":true' -- "$octad" solve --repack --tables "$tmp/ref" --json
check "repack with position" 2 'takes no position' -- "$octad" solve --repack "3k/4/4/R2K w - - 0 1" --tables "$tmp/ref"
check "repack missing dir" 1 'cannot open the table directory' -- "$octad" solve --repack --tables "$tmp/none"
# Positions the tables stand for: two bare kings apart, 156 placements, either side to move.
check "count" 0 '"pieces":2,"tables":1,"records":120,"legal":78,"positions":312' -- "$octad" solve --count --max-pieces 3 --tables "$tmp/ref" --json --quiet
check "count with position" 2 'takes no position' -- "$octad" solve --count "3k/4/4/R2K w - - 0 1" --tables "$tmp/ref"
check "count beyond the tables" 1 'KvK.*\.otb.*solve them first' -- "$octad" solve --count --max-pieces 8 --tables "$tmp/ref" --quiet
check "count and repack" 2 'separate jobs' -- "$octad" solve --count --repack --tables "$tmp/ref"
check "probe help" 0 'usage: octad probe' -- "$octad" probe --help
check "probe deployed missing" 1 'start 0: .*KNPPvKNPP.otb' -- "$octad" probe --deployed --tables "$tmp/ref"
check "probe deployed position" 2 'takes no position' -- "$octad" probe --deployed "3k/4/4/R2K w - - 0 1"
# The engine reads the tables: their best move and the mate distance (dtm 3 = mate in 2).
check "search with tables" 0 '"bestmove":"d1c2".*"mate":2' -- "$octad" search "3k/4/4/R2K w - - 0 1" --tables "$tmp/ref" --depth 4 --json
# A corrupted table is refused with its name.
cp -r "$tmp/ref" "$tmp/bad"
printf '\x01' | dd of="$tmp/bad/KRvK.otb" bs=1 seek=400 conv=notrunc 2>/dev/null
check "corrupted table" 1 'KRvK.otb: .*corrupted' -- "$octad" probe "3k/4/4/R2K w - - 0 1" --tables "$tmp/bad"
# A position solved on demand.
check "solve a position" 0 'win for the side to move' -- "$octad" solve "3k/4/4/R2K w - - 0 1" --tables "$tmp/own" --quiet

echo "test_solve_cli: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
