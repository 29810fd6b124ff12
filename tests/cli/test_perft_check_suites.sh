#!/usr/bin/env bash
# test_perft_check_suites.sh (slow): `octad perft --check-engine` passes every position of the
# project's suites against Stockfish (chess, Chess960) and against `octad uci` (octad), deeper
# than the quick test: about a minute on two shared cores.
# usage: test_perft_check_suites.sh OCTAD DATA_DIR
set -u
octad=$1 data=$2
. "$(dirname "$0")/../fixtures/check.sh"
sf=/usr/games/stockfish
lines() { grep -c '^[^#]' "$data/$1"; }
suite() { # suite FILE VARIANT DEPTH ENGINE
    check "$1 to depth $3" 0 "^passed $(lines "$1"), failed 0, engine errors 0, not run 0\$" -- \
        nice "$octad" perft --check-engine "$4" --variant "$2" --suite "$data/$1" --max-depth "$3"
}
if [ -x "$sf" ]; then
    suite chess-cpw.epd chess 5 "$sf"
    suite chess-standard.epd chess 5 "$sf"
    suite chess960-fischer.epd chess960 4 "$sf"
else
    echo "note: no $sf: the chess suites are skipped (tools/install-deps.sh installs it)"
fi
suite octad-standard.epd octad 6 "$octad uci"
suite octad-deploy.epd octad 6 "$octad uci"
echo "test_perft_check_suites: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
