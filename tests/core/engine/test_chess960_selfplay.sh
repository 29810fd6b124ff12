#!/usr/bin/env bash
# test_chess960_selfplay.sh: 100 Chess960 games of the engine against itself from
# random starts (octad selfplay), one side in process (engine:3) and the other over
# UCI with UCI_Chess960 (uci:octad uci, go depth 3), 50 games each way round. chessops
# (an independent rules library from npm) replays every game: each move legal, the
# end as the Termination tag says. Castling must occur on both wings for both colours.
# A tampered copy (one move changed) must be rejected, so the oracle can fail.
# Exit 77 (skipped) when chessops or Node.js is missing.
# usage: test_chess960_selfplay.sh OCTAD ORACLE_SCRIPT
set -u
octad=$1 oracle=$2
modules=${OCTAD_NODE_MODULES:-/usr/local/lib/octad-node/node_modules}
if [ ! -d "$modules/chessops" ] || ! command -v node >/dev/null; then
    echo "SKIP: chessops not in $modules (tools/install-deps.sh installs it)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../../fixtures/check.sh"

uci="uci:$octad uci"
check "selfplay engine vs uci" 0 '^\{"games":50,"variant":"chess960"' -- "$octad" selfplay --variant chess960 \
    --games 50 --seed 11 --white engine:3 --black "$uci" --go "depth 3" --json --quiet --out "$tmp/a.pgn"
check "selfplay uci vs engine" 0 '^\{"games":50,"variant":"chess960"' -- "$octad" selfplay --variant chess960 \
    --games 50 --seed 12 --white "$uci" --black engine:3 --go "depth 3" --json --quiet --out "$tmp/b.pgn"
cat "$tmp/a.pgn" "$tmp/b.pgn" >"$tmp/all.pgn"
summary=$(node "$oracle" "$tmp/all.pgn" "$modules")
status=$?
echo "$summary" | head -21
check "chessops replays 100 games" 0 '"games":100,.*"problems":0' -- echo "$summary"
[ "$status" -eq 0 ] || { echo "FAIL: chessops exit status $status"; fails=$((fails + 1)); }
for c in white black; do
    for w in a h; do
        check "castles $c $w-side" 0 "\"$c\":\\{[^}]*\"$w\":[1-9]" -- echo "$summary"
    done
done
# The oracle can fail: the first game's first move replaced by a move that is not legal there.
awk 'BEGIN { done = 0 } /^1\. / && !done { sub(/^1\. [^ ]+/, "1. Ke5"); done = 1 } { print }' \
    "$tmp/all.pgn" >"$tmp/bad.pgn"
check "chessops rejects a tampered game" 1 "game 1: ply 1 'Ke5' is not legal" -- node "$oracle" "$tmp/bad.pgn" "$modules"

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
