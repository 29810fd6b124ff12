#!/usr/bin/env bash
# test_cli_options.sh: the option errors of octad svg, play, selfplay, pgn and uci (their options
# are rows of the shared parser, core/base/opt.h): one line naming the option and the problem,
# exit status 2, nothing done; and the forms every row takes (--name=VALUE, -h, aliases).
# usage: test_cli_options.sh OCTAD DATA_DIR
set -u
octad=$1 data=$2
. "$(dirname "$0")/../fixtures/check.sh"
pgn=$data/pgn/octad-readme.pgn # every game of it replays
see() { echo "\\(see octad $1 --help\\)$"; } # the end of every usage line

# A number out of range or not a number, named with its option and its range.
check "svg size" 2 "^octad svg: --size: expected an integer in 16\.\.4096, got 'x' $(see svg)" -- "$octad" svg --size x
check "svg size small" 2 "^octad svg: --size: expected an integer in 16\.\.4096, got '8'" -- "$octad" svg --size=8
check "play seed" 2 "^octad play: --seed: expected an integer in 0\.\.2147483647, got '-1' $(see play)" -- "$octad" play --seed -1
check "selfplay games" 2 "^octad selfplay: --games: expected an integer in 1\.\.1000000, got '0'" -- "$octad" selfplay --games 0
check "selfplay seed" 2 "^octad selfplay: --seed: expected an integer in 0\.\.2147483647, got '1e3'" -- "$octad" selfplay --seed 1e3
check "svg start" 2 "^octad svg: --start: expected an integer in 0\.\.959, got '960'" -- "$octad" svg --variant chess960 --start 960
# A value missing, empty where it cannot be, or given to a flag.
check "svg size missing" 2 "^octad svg: --size needs a value $(see svg)" -- "$octad" svg --size
check "play white missing" 2 "^octad play: --white needs a value" -- "$octad" play --white
check "play pgn empty" 2 "^octad play: --pgn: expected a non-empty value" -- "$octad" play --pgn ""
check "selfplay out empty" 2 "^octad selfplay: --out: expected a non-empty value" -- "$octad" selfplay --out=
check "svg flag value" 2 "^octad svg: --flip takes no value, got '--flip=yes'" -- "$octad" svg --flip=yes
check "pgn flag value" 2 "^octad pgn: --json takes no value, got '--json=1'" -- "$octad" pgn --json=1 "$pgn"
# Values of the wrong kind.
check "svg colour" 2 "^octad svg: --dark: 'url\(x\)\"' is not a colour" -- "$octad" svg --dark 'url(x)"'
check "svg arrows" 2 "^octad svg: --arrow: too many \(at most 16\)" -- "$octad" svg $(for i in $(seq 17); do printf -- '--arrow a1b2 '; done)
check "selfplay variant" 2 "^octad selfplay: --variant: unknown variant 'go' \(octad, chess, chess960\)" -- "$octad" selfplay --variant go
check "pgn variant" 2 "^octad pgn: --variant: unknown variant 'xiangqi'" -- "$octad" pgn --variant xiangqi "$pgn"
# Unknown options and arguments.
for c in svg play selfplay pgn uci; do
    check "$c unknown" 2 "^octad $c: unknown option '--bogus' $(see "$c")" -- "$octad" "$c" --bogus
done
check "selfplay argument" 2 "^octad selfplay: unexpected argument 'x'" -- "$octad" selfplay x
check "uci argument" 2 "^octad uci: unexpected argument 'go'" -- "$octad" uci go
check "svg two positions" 2 "^octad svg: one position only" -- "$octad" svg "k3/4/4/3K w - - 0 1" x
check "pgn no file" 2 "^octad pgn: no PGN file given $(see pgn)" -- "$octad" pgn --json
# Nothing is done on a usage error: no game is read, no board drawn.
check "pgn value missing" 2 "^octad pgn: --variant needs a value" -- "$octad" pgn "$pgn" --variant
check "pgn nothing read" 0 "^0$" -- sh -c "\"$octad\" pgn \"$pgn\" --variant 2>/dev/null | wc -c"
check "svg nothing drawn" 0 "^0$" -- sh -c "\"$octad\" svg --size 9 2>/dev/null | wc -c"

# The forms of a valid command line: --name=VALUE, the --fen alias, -h, options after files.
check "svg inline value" 0 "width='200' height='200'" -- "$octad" svg --size=200
check "svg fen alias" 0 "^<svg" -- "$octad" svg --variant chess --fen "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
check "pgn options after the file" 0 '^\{"game":1,' -- "$octad" pgn "$pgn" --json
for c in svg play selfplay pgn uci; do
    check "$c -h" 0 "^usage: octad $c" -- "$octad" "$c" -h
    check "$c help lists --help" 0 "^  --help, -h +this text$" -- "$octad" "$c" --help
done

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]
