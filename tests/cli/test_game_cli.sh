#!/usr/bin/env bash
# test_game_cli.sh: the game commands as a user meets them: octad pgn, play
# (driven through a pipe), selfplay (random players, and Stockfish as a UCI
# player when it is installed), help texts and one-line errors.
# usage: test_game_cli.sh OCTAD DATA_DIR
set -u
octad=$1 data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../fixtures/check.sh"

for c in pgn play selfplay svg; do
    check "$c --help" 0 "usage: octad $c" -- "$octad" "$c" --help
done

check "svg octad" 0 "^<svg xmlns='http://www.w3.org/2000/svg' width='360' height='360'" -- "$octad" svg
check "svg size" 0 "width='200' height='200'" -- "$octad" svg --size 200 --variant chess
check "svg check" 0 "class='check'" -- "$octad" svg --variant chess --moves "f3 e5 g4 Qh4"
check "svg pieces" 0 '^8$' -- sh -c "\"$octad\" svg | grep -c \"class='piece'\""
check "svg bad arrow" 2 "--arrow 'a1e5'" -- "$octad" svg --arrow a1e5
check "svg arrow to itself" 2 "--arrow 'b2b2': two different squares" -- "$octad" svg --arrow b2b2
check "svg bad mark" 2 "--mark 'z9'" -- "$octad" svg --mark z9
check "svg bad move" 2 'move 1' -- "$octad" svg --moves "Kc5"
check "svg bad colour" 2 "--light: 'red' onload='x' is not a colour" -- "$octad" svg --light "red' onload='x"
check "svg colour" 0 "fill='rgb\(10, 20, 30\)'" -- "$octad" svg --dark "rgb(10, 20, 30)"
check "svg lastmove alone" 2 '--lastmove: no move to show' -- "$octad" svg --lastmove

# The octad README's two games.
readme=$data/pgn/octad-readme.pgn
check "readme draw" 0 '"final":"3k/4/1K2/4 b - - 0 12","result":"1/2-1/2","termination":"insufficient material","variations":0,"errors":\[\]' -- "$octad" pgn --json "$readme"
check "readme mate" 0 '"plies":11,.*"result":"1-0","termination":"checkmate"' -- "$octad" pgn --json "$readme"
check "readme text" 0 '^game 1 .*23 plies, 1/2-1/2, insufficient material' -- "$octad" pgn "$readme"

check "show drawn final" 0 '^Game over: 1/2-1/2, insufficient material$' -- "$octad" show "3k/4/1K2/4 b - - 0 12"
check "show mate" 0 '^Game over: 1-0, checkmate$' -- "$octad" show "1k1Q/1p2/1K2/n3 b - - 0 6"
check "show move rule" 0 '^Game over: 1/2-1/2, 25-move rule$' -- "$octad" show "3k/4/4/KR2 w - - 50 30"
check "show chess 75" 0 '^Game over: 1/2-1/2, 75-move rule$' -- "$octad" show --variant chess "k7/8/8/8/8/8/8/KR6 w - - 150 80"

# Broken games are reported with game, line and column; the rest are read.
features=$data/pgn/features.pgn
check "broken games" 2 'game 2, line 18, column 13: move .Ke3.: illegal' -- "$octad" pgn "$features"
check "broken summary" 2 '2 of 6 games had errors' -- "$octad" pgn --quiet "$features"
check "after broken" 2 '^game 6 .*2 plies, 1/2-1/2' -- "$octad" pgn "$features"
check "json errors" 2 '"game":3,.*"errors":\["game 3, line 21, column 1: tag' -- "$octad" pgn --json "$features"

# A comment left open is reported where it opened; the reader goes on at the next [Event tag.
open=$data/pgn/open-comment.pgn
check "open comment" 2 "game 2, line 9, column 16: comment: '\{' not closed by '\}' before the next game's \[Event tag" -- "$octad" pgn "$open"
check "after open comment" 2 '"game":3,.*"plies":4,.*"result":"0-1","termination":"checkmate","variations":0,"errors":\[\]' -- "$octad" pgn --json "$open"
check "open comment at the end" 2 "column 7: comment: '\{' not closed by '\}' before the end of the input" -- sh -c "printf '1. e4 {open\\n' | \"$octad\" pgn -"

# --write, read, --write: the same text.
"$octad" pgn --write "$features" >"$tmp/w1.pgn" 2>/dev/null
"$octad" pgn --write "$tmp/w1.pgn" >"$tmp/w2.pgn"
check "write round trip" 0 '^$' -- cmp "$tmp/w1.pgn" "$tmp/w2.pgn"
check "written games" 0 '^4$' -- grep -c '^\[Event ' "$tmp/w1.pgn"
# Variations are kept by --write: nested ones, comments inside, 1... numbering.
variations=$data/pgn/variations.pgn
"$octad" pgn --write "$variations" >"$tmp/v1.pgn"
"$octad" pgn --write "$tmp/v1.pgn" >"$tmp/v2.pgn"
check "variations round trip" 0 '^$' -- cmp "$tmp/v1.pgn" "$tmp/v2.pgn"
check "variations written" 0 '^1\.\.\. Kd7 \(1\.\.\. Ke7 2\. e4 \(2\. Kd2\) 2\.\.\. Kd6\) \(1\.\.\. Kf7\) 2\. e4' -- cat "$tmp/v1.pgn"
check "variations skipped" 0 '^{Start} 1\. e4 \$1 \{best by test\} 1\.\.\. e5 2\. Nf3' -- "$octad" pgn --write --skip-variations "$variations"
check "variations json" 0 '"game":1,.*"variations":9,"errors":\[\]' -- "$octad" pgn --json --variations "$variations"
check "variations both" 2 'exclude each other' -- "$octad" pgn --variations --skip-variations "$variations"
check "stdin" 0 'checkmate' -- sh -c "\"$octad\" pgn - < \"$readme\""

check "pgn no file" 2 'no PGN file' -- "$octad" pgn
check "pgn missing file" 1 'cannot open' -- "$octad" pgn "$tmp/none.pgn"
check "pgn directory" 1 'read error \(Is a directory\)' -- "$octad" pgn "$tmp"
check "pgn bad option" 2 'unknown option' -- "$octad" pgn --bogus x
check "pgn bad variant" 2 "--variant: unknown variant 'shogi'" -- "$octad" pgn --variant shogi x

# octad play through a pipe: moves, a bad move, undo, fen, resign.
play() { printf '%b' "$1" | "$octad" play "${@:2}"; }
check "play script" 0 '1\. c2 a3 0-1' -- play 'c2\nb3\nundo\nzz9\na3\nfen\nresign\n'
check "play undo" 0 'Black to move> ' -- play 'c2\nb3\nundo\nquit\n'
check "play bad move" 0 "move 'zz9': malformed" -- play 'zz9\nquit\n'
check "play illegal" 0 "move 'Kc3': illegal" -- play 'Kc3\nquit\n'
check "play fen" 0 'ppkn/4/2P1/NK1P b NFncf - 0 1' -- play 'c2\nfen\nquit\n'
check "play uoi in" 0 'last move: O-O-O' -- play 'c1c2\nb4b3\nb1d1\nquit\n'
check "play lists SAN" 0 'legal moves \(10\): .*O-O' -- play 'quit\n'
check "play mate" 0 'result: 1-0 \(checkmate\)' -- play 'c2\nb3\nKb2\nO-O-O\ncxb3\ncxb3\nd2\nNc2\nd3\nNxa1\nd4=Q#\n'
check "play draw agreed" 0 'result: 1/2-1/2 \(agreement\)' -- play 'c2\ndraw\n'
check "play vs random" 0 'Black plays ' -- play 'c2\nquit\n' --black random
check "play undo vs random" 0 '^\*$' -- play 'c2\nundo\nquit\n' --black random
check "play from pgn" 0 'result: 1/2-1/2 \(insufficient material\)' -- play '' --pgn "$readme"
check "play moves san" 0 '^1\. c2 b3 2\. Kb2 \*' -- play 'Kb2\nquit\n' --moves "c2 b3"
check "play moves uoi" 0 '^1\. c2 \*' -- play 'quit\n' --moves "c1c2"
check "play moves undo" 0 '^\*$' -- play 'undo\nquit\n' --moves "c2"
check "play moves bad" 2 "--moves: move 2: move 'c2': illegal" -- play '' --moves "c2 c2"
check "play moves after pgn" 0 '5\. O-O a5 \*' -- play 'quit\n' --variant chess --pgn "$features" --moves "a5"
play 'c2\nresign\n' >"$tmp/resigned.txt"
sed -n '/^\[Event/,$p' "$tmp/resigned.txt" >"$tmp/resigned.pgn"
check "play writes termination" 0 '^\[Termination "resignation"\]' -- cat "$tmp/resigned.pgn"
check "resigned reads back" 0 '"result":"1-0","termination":"resignation"' -- "$octad" pgn --json "$tmp/resigned.pgn"
check "play on after resignation" 0 '1\. c2 b3 \*' -- play 'b3\nquit\n' --pgn "$tmp/resigned.pgn"
check "play chess" 0 '1\. e4 e5 2\. Qh5 Nc6 3\. Bc4 Nf6 4\. Qxf7# 1-0' -- play 'e4\ne5\nQh5\nNc6\nBc4\nNf6\nQxf7\n' --variant chess
check "play chess claim" 0 'threefold repetition \(claimed\)' -- play 'Nf3\nNf6\nNg1\nNg8\nNf3\nNf6\nNg1\nNg8\ndraw\n' --variant chess
check "play eof" 0 '1\. c2 \*' -- play 'c2\n'
check "play bad player" 2 'unknown' -- "$octad" play --white robot

# selfplay: 200 octad games from deployed starts and 50 chess games end by the rules and read back.
check "selfplay octad" 0 '^200 games \(octad' -- "$octad" selfplay --games 200 --start deployed --seed 3 --out "$tmp/o.pgn"
check "selfplay octad reads back" 0 '' -- "$octad" pgn --quiet "$tmp/o.pgn"
check "selfplay octad every game ended" 0 '^200$' -- sh -c "\"$octad\" pgn --json \"$tmp/o.pgn\" | grep -v '\"result\":\"\\*\"' | grep -c '\"errors\":\[\]'"
check "selfplay chess" 0 '^50 games \(chess' -- "$octad" selfplay --variant chess --games 50 --seed 3 --out "$tmp/c.pgn"
check "selfplay chess reads back" 0 '' -- "$octad" pgn --quiet "$tmp/c.pgn"
check "selfplay chess every game ended" 0 '^50$' -- sh -c "\"$octad\" pgn --json \"$tmp/c.pgn\" | grep -v '\"result\":\"\\*\"' | grep -c '\"errors\":\[\]'"
check "selfplay chess960" 0 '^5 games \(chess960' -- "$octad" selfplay --variant chess960 --games 5 --out "$tmp/9.pgn"
check "selfplay json" 0 '^\{"games":20,"variant":"octad".*"terminations":\{' -- "$octad" selfplay --games 20 --json --out "$tmp/j.pgn"
"$octad" selfplay --games 30 --start deployed --seed 9 --out "$tmp/a.pgn" >/dev/null
"$octad" selfplay --games 30 --start deployed --seed 9 --out "$tmp/b.pgn" >/dev/null
"$octad" selfplay --games 30 --start deployed --seed 10 --out "$tmp/d.pgn" >/dev/null
check "selfplay deterministic" 0 '^$' -- cmp "$tmp/a.pgn" "$tmp/b.pgn"
check "selfplay seed matters" 1 'differ' -- cmp "$tmp/a.pgn" "$tmp/d.pgn"
check "selfplay stdout pgn" 0 '^\[Event "octad selfplay"\]' -- "$octad" selfplay --games 1
check "selfplay start number" 0 'FEN "ppnk/4/4/KNPP w NFnf - 0 1"' -- "$octad" selfplay --games 1 --start 0
check "selfplay start 39 is the standard start" 0 '^\[Variant "Octad"\]$' -- sh -c "\"$octad\" selfplay --games 1 --start 39 2>/dev/null | grep -v -e FEN -e SetUp"
check "selfplay start 39 has no FEN" 1 '^$' -- sh -c "\"$octad\" selfplay --games 1 --start 39 2>/dev/null | grep FEN"
check "selfplay bad start" 2 "--start 'x'" -- "$octad" selfplay --start x
check "selfplay bad player" 2 "player 'robot': unknown \(random, engine\[:DEPTH\|:MSms\] or uci:COMMAND\)" -- "$octad" selfplay --white robot
check "selfplay uci missing" 2 'did not answer' -- "$octad" selfplay --white "uci:$tmp/no-such-engine"

stockfish=$(command -v stockfish || ls /usr/games/stockfish 2>/dev/null)
if [ -n "$stockfish" ]; then
    check "selfplay stockfish" 0 '^2 games \(chess' -- "$octad" selfplay --variant chess --games 2 --white "uci:$stockfish" --go "depth 1" --out "$tmp/s.pgn"
    check "stockfish games read back" 0 '' -- "$octad" pgn --quiet "$tmp/s.pgn"
    check "stockfish named" 0 "White \"$stockfish\"" -- cat "$tmp/s.pgn"
    check "stockfish chess960" 0 '^1 games \(chess960' -- "$octad" selfplay --variant chess960 --games 1 --white "uci:$stockfish" --black "uci:$stockfish" --go "depth 1" --out "$tmp/s9.pgn"
    check "stockfish 960 reads back" 0 '' -- "$octad" pgn --quiet "$tmp/s9.pgn"
    check "play vs stockfish" 0 'Black plays ' -- play 'e4\nquit\n' --variant chess --black "uci:$stockfish" --go "depth 1"
else
    echo "SKIP stockfish checks: stockfish not installed"
fi

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
