#!/usr/bin/env bash
# test_cli.sh: the octad command as a user meets it: counts, help, and clear
# one-line errors with exit status 2 on bad usage or bad input (never a crash).
set -u
octad=$1
. "$(dirname "$0")/../fixtures/check.sh"

check "perft 5" 0 '^nodes +29309$' -- "$octad" perft --depth 5 --quiet
check "perft DEPTH" 0 '^nodes +183931$' -- "$octad" perft 6 --quiet
check "perft bad DEPTH" 2 'depth' -- "$octad" perft 6x
check "perft 7 one thread no hash" 0 '^nodes +1153190$' -- "$octad" perft --depth 7 --threads 1 --hash 0
check "perft --fen synonym" 0 '^nodes +8$' -- "$octad" perft --fen "p1kn/1N2/K3/2PP b nf - 0 2" --depth 1
check "divide" 0 '^b1a1: ' -- "$octad" perft --depth 3 --divide
check "stats" 0 '^far +12$' -- "$octad" perft --depth 3 --stats
check "stats use no table" 0 '^hash +off \(--stats uses no table\)$' -- "$octad" perft --depth 3 --stats
check "hash 0 is off" 0 '^hash +off$' -- "$octad" perft --depth 3 --hash 0
check "hash default 64 MB" 0 '^hash +64 MB$' -- "$octad" perft --depth 3
check "bench --quick runs long enough to time" 0 '^chess960 #0, 1 thread, no hash +6 +121983565 +[0-9]+\.[0-9]{3} ' -- "$octad" bench --quick --repeat 1 --variant chess960
check "chess perft" 0 '^nodes +197281$' -- "$octad" perft --variant chess --depth 4
check "chess960 start 518" 0 '^nodes +8902$' -- "$octad" perft --variant chess960 --start 518 --depth 3
check "moves" 0 '^b1a1 +O$' -- "$octad" moves "ppkn/4/4/NKPP w NCFncf - 0 1"
check "moves count" 0 '^10 legal moves$' -- "$octad" moves
check "show" 0 'OFEN: ppkn/4/4/NKPP w NCFncf - 0 1' -- "$octad" show
check "moves played (far castle after c2 b3)" 0 'OFEN: p1kn/1p2/2P1/NPK1 b nf - 0 2' -- "$octad" show --moves "c1c2 b4b3 b1d1"
check "e.p. and castle moves in" 0 '^nodes +' -- "$octad" perft --depth 2 --moves "d1d3 c4c3"
check "chess UCI moves in" 0 'FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2' -- "$octad" show --variant chess --moves "e2e4 e7e5"
check "illegal move in" 2 'move 2' -- "$octad" show --moves "c1c2 c1c3"
check "validate ok" 0 '^OK$' -- "$octad" validate "ppkn/4/4/NKPP w NCFncf - 0 1"
check "help" 0 'usage: octad' -- "$octad" --help
for c in perft moves show validate bench; do
    check "$c --help" 0 "usage: octad $c" -- "$octad" "$c" --help
done

check "no command" 2 'usage' -- "$octad"
check "unknown command" 2 "unknown command" -- "$octad" frobnicate
check "unknown option" 2 "unknown option" -- "$octad" perft --bogus
check "depth not a number" 2 "--depth: expected an integer in 0..40, got 'x'" -- "$octad" perft --depth x
check "depth huge" 2 'depth' -- "$octad" perft --depth 99999999999999999999
check "missing value" 2 'needs a value' -- "$octad" perft --depth
check "bad variant" 2 'unknown variant' -- "$octad" perft --variant go
check "chess960 without position" 2 'needs a position' -- "$octad" perft --variant chess960
check "truncated OFEN" 2 'OFEN' -- "$octad" validate "ppkn/4/4"
check "missing king" 2 'king' -- "$octad" validate "ppn1/4/4/NKPP w - - 0 1"
check "garbage bytes" 2 'OFEN' -- "$octad" validate $'\xff\xfe\x01garbage'
check "huge clock" 2 'clock' -- "$octad" validate "ppkn/4/4/NKPP w NCFncf - 99999999999999999999999 1"
check "bad FEN" 2 'FEN' -- "$octad" validate --variant chess "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"
check "illegal move count" 2 'position' -- "$octad" moves "a" "b"

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
