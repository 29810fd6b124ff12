#!/bin/sh
# tune_match.sh: measures an evaluation change: two engine builds (before and after)
# play the same Stockfish level with the same openings and time control, at the same
# time (so the load of the machine weighs on both alike), through tools/bench/match.sh.
# usage: tools/bench/tune_match.sh BEFORE_OCTAD AFTER_OCTAD [match.sh options...]
#   e.g. tools/bench/tune_match.sh /tmp/octad-before build/bin/octad --opponent stockfish:1900 \
#        --games 60 --tc 4+0.04 --timemargin 10000
# Prints each run's summary line (score, Elo difference with its 95% interval, illegal
# moves, time losses); the full game lists go to before.log and after.log in $OUT (default .).
set -eu
[ $# -ge 2 ] || { echo "usage: tune_match.sh BEFORE_OCTAD AFTER_OCTAD [match.sh options...]" >&2; exit 2; }
before=$1 after=$2
shift 2
dir=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-.}
sh "$dir/match.sh" --octad "$before" "$@" --pgn "$out/before.pgn" >"$out/before.log" 2>&1 &
b=$!
sh "$dir/match.sh" --octad "$after" "$@" --pgn "$out/after.pgn" >"$out/after.log" 2>&1 &
a=$!
rc=0
wait $b || rc=1
wait $a || rc=1
echo "before ($before): $(tail -n 1 "$out/before.log")"
echo "after  ($after): $(tail -n 1 "$out/after.log")"
exit $rc
