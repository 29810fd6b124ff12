#!/usr/bin/env bash
# test_match_report.sh: tools/bench/match_report.mjs on a hand-made journal whose summary
# is worked out below: median times per band of move numbers, and for the lost games
# where octad first saw itself behind. Bad input gets exit 2 and names the problem.
# Exit 77 (skipped) when Node.js is missing.
# usage: test_match_report.sh REPORT_SCRIPT
set -u
report=$1
if ! command -v node >/dev/null; then
    echo "SKIP: node not found (tools/install-deps.sh installs it)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../fixtures/check.sh"

# Game 1: octad white, lost. Plies 0-1 are the book (null). Octad moves on even plies
# (ply p is move p / 2 + 1): scores +20, +160, -40, -200 (ply 8, move 5: first behind
# by 150 cp), ahead before (160 >= 150); never 250 cp behind.
# Game 2: octad black, lost to a mate it saw at ply 3 (move 2: #-2), never ahead.
# So the median first move behind is 3.5 at 150 cp, and 2 (game 2 only) at 250 cp.
# Game 3: octad white, won: not in the lost list. Game 4: no times (an old journal line).
# Octad's times in moves 1-20: 100 300 500 700 (game 1), 30 50 (game 2), 10 (game 3): median 100.
# The opponent's: 10 10 10 (game 1), 40 60 80 (game 2: plies 0, 2, 4), 20 (game 3): median 20.
cat >"$tmp/j.jsonl" <<'JSON'
{"params":{"opponent":"stockfish:2200"}}
{"game":1,"octad":"white","score":0,"ms":[null,null,100,10,300,10,500,10,700],"scores":[null,null,20,0,160,0,-40,0,-200]}
{"game":2,"octad":"black","score":0,"ms":[40,30,60,50,80],"scores":[0,10,0,"#-2",0]}
{"game":3,"octad":"white","score":1,"ms":[10,20],"scores":[300,-300]}
{"game":4,"octad":"black","score":0.5}
JSON
check "counts" 0 '4 games, 3 with times and scores' -- node "$report" "$tmp/j.jsonl"
check "octad median, moves 1-20" 0 'moves 1-20 +octad +100 +opponent +20 +\(7 / 7 moves\)' -- node "$report" "$tmp/j.jsonl"
check "first behind" 0 'octad lost 2: .* behind at median move 3.5 \(2 games\); in 1 of them .* \(games 1\)' \
    -- node "$report" "$tmp/j.jsonl"
check "a larger margin" 0 'octad lost 2: it first saw itself 250 cp behind at median move 2 \(1 games\); in 0 of them' \
    -- node "$report" "$tmp/j.jsonl" --behind 250
printf '{"params":{}}\nnot json\n' >"$tmp/bad.jsonl"
check "bad line" 2 'bad.jsonl line 2: not JSON' -- node "$report" "$tmp/bad.jsonl"
check "bad margin" 2 '--behind: expected a positive whole number' -- node "$report" "$tmp/j.jsonl" --behind -5
check "no journal" 2 'no journal given' -- node "$report"
check "missing file" 2 'nothing.jsonl' -- node "$report" "$tmp/nothing.jsonl"
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
