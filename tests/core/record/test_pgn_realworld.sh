#!/usr/bin/env bash
# test_pgn_realworld.sh: PGN that nobody here wrote (the lichess studies and
# puzzle files Debian's pychess ships: comments, variations, NAGs, arrows, clock
# annotations, FEN starts) reads without error except the one broken game in
# them, and chess.js (an independent library, from npm) replays every game, and
# 100 random self-play chess games, to the same final positions and endings.
# Exit 77 (skipped) when pychess's files or chess.js are not installed.
# usage: test_pgn_realworld.sh OCTAD ORACLE_SCRIPT
set -u
octad=$1 oracle=$2
learn=${OCTAD_PYCHESS_LEARN:-/usr/share/pychess/learn}
modules=${OCTAD_NODE_MODULES:-/usr/local/lib/octad-node/node_modules}
if ! ls "$learn"/*/*.pgn >/dev/null 2>&1; then
    echo "SKIP: no PGN files in $learn (apt-get install pychess)"
    exit 77
fi
if [ ! -d "$modules/chess.js" ] || ! command -v node >/dev/null; then
    echo "SKIP: chess.js not in $modules (tools/install-deps.sh installs it)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

# The one game known to be broken: a Black move in a position with White to move.
"$octad" pgn --quiet "$learn"/*/*.pgn >"$tmp/errors.txt" 2>&1
broken=$(grep -c '^  error: ' "$tmp/errors.txt")
games=$("$octad" pgn --json "$learn"/*/*.pgn 2>/dev/null | wc -l)
echo "pychess files: $games games, $broken errors"
if [ "$broken" -ne 1 ] || ! grep -q "game 1, line 15, column 6: move 'Nxg5': illegal" "$tmp/errors.txt"; then
    echo "FAIL: expected exactly the fork puzzle's illegal 1... Nxg5:"
    cat "$tmp/errors.txt"
    fails=$((fails + 1))
fi
if [ "$games" -lt 1000 ]; then
    echo "FAIL: only $games games read"
    fails=$((fails + 1))
fi
"$octad" pgn --json "$learn"/*/*.pgn 2>/dev/null | node "$oracle" "$modules" || fails=$((fails + 1))

# --write keeps the studies' variations, comments and NAGs: every game but the
# broken one is written (three bad variations cut at their illegal move), write,
# read, write gives the same text, and the games end where they did.
cat "$learn"/*/*.pgn >"$tmp/all.pgn"
"$octad" pgn --write "$tmp/all.pgn" >"$tmp/w1.pgn" 2>"$tmp/w1.err"
"$octad" pgn --write "$tmp/w1.pgn" >"$tmp/w2.pgn" 2>&1 || { echo "FAIL: the written file has errors"; fails=$((fails + 1)); }
cmp -s "$tmp/w1.pgn" "$tmp/w2.pgn" || { echo "FAIL: write, read, write differs:"; diff "$tmp/w1.pgn" "$tmp/w2.pgn" | head; fails=$((fails + 1)); }
written=$(grep -c '^\[Event ' "$tmp/w1.pgn") cut=$(grep -c 'in a variation' "$tmp/w1.err")
variations=$("$octad" pgn --json "$tmp/w1.pgn" --variations | grep -o '"variations":[0-9]*' | awk -F: '{ n += $2 } END { print n + 0 }')
echo "written: $written games, $variations variations, $cut variations cut"
[ "$written" -eq $((games - 1)) ] && [ "$cut" -eq 3 ] && [ "$variations" -gt 500 ] || { echo "FAIL: written/cut/variations"; fails=$((fails + 1)); }
"$octad" pgn --json "$tmp/all.pgn" 2>/dev/null | grep -v '"errors":\["game [0-9]*, line [0-9]*, column [0-9]*: move' | grep -o '"final":"[^"]*"' >"$tmp/f1"
"$octad" pgn --json "$tmp/w1.pgn" | grep -o '"final":"[^"]*"' >"$tmp/f2"
cmp -s "$tmp/f1" "$tmp/f2" || { echo "FAIL: the written games end elsewhere"; fails=$((fails + 1)); }

"$octad" selfplay --variant chess --games 100 --seed 5 --quiet --out "$tmp/sp.pgn" >/dev/null
"$octad" pgn --json "$tmp/sp.pgn" | node "$oracle" "$modules" || fails=$((fails + 1))
[ "$fails" -eq 0 ]
