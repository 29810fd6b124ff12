#!/usr/bin/env bash
# test_engine_cli.sh: `octad search` and `octad uci` as a user meets them: results,
# --json, --multipv all, --help, and one-line errors with exit status 2.
set -u
octad=$1
. "$(dirname "$0")/../fixtures/check.sh"

check "search octad mate in 2" 0 'score mate 2 .* pv ' -- "$octad" search --depth 6 "k3/4/4/K1QR w - - 0 1"
check "search bestmove line" 0 '^bestmove [a-d][1-4][a-d][1-4]' -- "$octad" search --depth 6
check "search chess mate in 1" 0 '^bestmove d1d8$' -- "$octad" search --variant chess --depth 3 "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
check "search json" 0 '^\{"variant":"chess",.*"bestmove":"d1d8",.*"score":\{"mate":1\}' -- "$octad" search --variant chess --depth 3 --json "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
check "search json no moves" 0 '"bestmove":null' -- "$octad" search --json "k3/1Q2/1K2/4 b - - 0 1"
check "search no moves" 0 '^bestmove \(none\)$' -- "$octad" search "k3/1Q2/1K2/4 b - - 0 1"
check "search multipv all" 0 '"multipv":10,' -- "$octad" search --depth 4 --multipv all --json
# --split: one line per legal move (10 at the octad start), each searched alone, the same on every run.
check "search split all moves" 0 '"bestmove":"[a-d][1-4][a-d][1-4]".*"multipv":10,' -- "$octad" search --split --depth 5 --json
check "search split mate" 0 '"bestmove":"d1d8",.*"lines":\[\{"multipv":1,"score":\{"mate":1\}' -- "$octad" search --variant chess --split --depth 3 --json "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
check "search split needs depth" 2 'needs --depth' -- "$octad" search --split --movetime 100
if [ "$("$octad" search --split --depth 5 --json | sed 's/"time_ms":[0-9]*//')" = "$("$octad" search --split --depth 5 --json | sed 's/"time_ms":[0-9]*//')" ]; then
    passes=$((passes + 1))
else
    echo "FAIL search --split gives different results on two runs"
    fails=$((fails + 1))
fi
check "search moves" 0 '"position":"p1kn/1p2/2P1/NPK1 b nf - 0 2"' -- "$octad" search --depth 2 --json --moves "c1c2 b4b3 b1d1"
check "search nodes" 0 '^bestmove ' -- "$octad" search --variant chess --nodes 2000
check "search chess960 start" 0 '^bestmove ' -- "$octad" search --variant chess960 --start 0 --depth 3
check "search help" 0 'usage: octad search' -- "$octad" search --help
check "search bad depth" 2 'depth' -- "$octad" search --depth 0
check "search bad multipv" 2 'multipv' -- "$octad" search --multipv x
check "search bad option" 2 'unknown option' -- "$octad" search --frobnicate
check "search bad position" 2 'OFEN' -- "$octad" search "ppkn/4/4/NKP w NCFncf - 0 1"
check "search illegal move" 2 'move 2' -- "$octad" search --moves "c1c2 c1c3"
check "uci help" 0 'usage: octad uci' -- "$octad" uci --help
check "uci bad argument" 2 "unknown option '--depth'" -- "$octad" uci --depth 3
check "uci end of input" 0 'uciok' -- bash -c "printf 'uci\n' | '$octad' uci"
# octad play --variant chess --black engine: you are White against the engine, through a pipe:
# long algebraic and SAN in, fen, undo (your move and the engine's reply), an illegal move, quit.
vs() { printf '%b' "$1" | "$octad" play --variant chess --black engine:3 "${@:2}"; }
check "play vs engine replies" 0 '^Black plays .*' -- vs 'e2e4\nquit\n'
check "play vs engine two replies" 0 '^1\. e4 [^ ]+ 2\. Nf3 [^ ]+ \*$' -- vs 'e2e4\nNf3\nquit\n'
check "play vs engine fen" 0 '^White to move> [rnbqk1-8]+/[^ ]+/4P3/[^ ]+ w KQkq - [0-9]+ 2$' -- vs 'e2e4\nfen\nquit\n'
check "play vs engine undo" 0 '^White to move> rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1$' -- vs 'e2e4\nundo\nfen\nquit\n'
check "play vs engine undo pgn" 0 '^1\. d4 [^ ]+ \*$' -- vs 'e2e4\nundo\nd2d4\nquit\n'
check "play vs engine illegal" 0 "move 'e7e5': illegal" -- vs 'e7e5\nquit\n'
check "play vs engine you mate" 0 'result: 1-0 \(checkmate\)' -- vs 'Rd8\n' "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
check "play vs engine it mates" 0 'Black plays Rd1#' -- vs 'a3\n' "3r2k1/5ppp/8/8/8/8/P4PPP/6K1 w - - 0 1"
check "play vs engine it mates result" 0 'result: 0-1 \(checkmate\)' -- vs 'a3\n' "3r2k1/5ppp/8/8/8/8/P4PPP/6K1 w - - 0 1"
vs 'e2e4\nNf3\nd2d4\nundo\nBc4\nquit\n' | sed -n '/^\[Event/,$p' >"${TMPDIR:-/tmp}/octad-vs-$$.pgn"
check "play vs engine pgn replays" 0 '' -- "$octad" pgn --quiet "${TMPDIR:-/tmp}/octad-vs-$$.pgn"
rm -f "${TMPDIR:-/tmp}/octad-vs-$$.pgn"
# The engine as a player in selfplay: it never loses to the random mover.
check "selfplay engine vs random" 0 '"0-1":0' -- "$octad" selfplay --games 20 --white engine:3 --black random --variant octad --start deployed --json --out /dev/null
# Our UCI engine as a uci: player in octad (the player sends UCI_Variant octad).
check "selfplay octad over uci" 0 '"1-0":4' -- "$octad" selfplay --variant octad --games 4 --white "uci:$octad uci" --black random --go "depth 3" --start deployed --json --out /dev/null
check "selfplay bad engine spec" 2 'engine:DEPTH' -- "$octad" selfplay --games 1 --white engine:x

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
