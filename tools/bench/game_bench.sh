#!/usr/bin/env bash
# game_bench.sh: speed of the game layer (PGN reading, SAN input) beside chess.js
# measured in the same run on the same files. CPU time of one process (one core),
# median of RUNS runs, so a busy shared machine slows but does not skew the numbers.
# usage: tools/bench/game_bench.sh [BUILD_DIR] [RUNS]
set -euo pipefail
build=${1:-build}
runs=${2:-5}
modules=${OCTAD_NODE_MODULES:-/usr/local/lib/octad-node/node_modules}
here=$(cd "$(dirname "$0")" && pwd)
octad=$(find "$build" -type f -name octad -perm -u+x | head -1)
bench=$(find "$build" -type f -name bench_game -perm -u+x | head -1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$octad" selfplay --variant chess --games 1000 --seed 11 --quiet --out "$tmp/chess-random.pgn" >/dev/null
"$octad" selfplay --games 5000 --start deployed --seed 11 --quiet --out "$tmp/octad-random.pgn" >/dev/null
files=("$tmp/chess-random.pgn" "$tmp/octad-random.pgn")
if ls /usr/share/pychess/learn/*/*.pgn >/dev/null 2>&1; then
    cat /usr/share/pychess/learn/*/*.pgn >"$tmp/pychess-studies.pgn"
    files+=("$tmp/pychess-studies.pgn")
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1 /proc/loadavg); $(date -u +%Y-%m-%d)"
printf '| file | games | plies | octad PGN plies/s | chess.js PGN plies/s | octad SAN moves/s | chess.js SAN moves/s | SAN text only/s |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for f in "${files[@]}"; do
    ours=$("$bench" "$f" "$runs")
    ref='{}'
    if [[ $f != *octad-random* ]] && [ -d "$modules/chess.js" ]; then
        ref=$(node "$here/chessjs_ref.mjs" "$modules" "$f" "$runs")
    fi
    python3 - "$(basename "$f")" "$ours" "$ref" <<'PY'
import json, sys
name, o, r = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
m = lambda v: (f"{v / 1e6:.2f} M" if v >= 1e6 else f"{v / 1e3:.1f} k") if v else "-"
print(f"| {name} | {o['games']} | {o['plies']} | {m(o['pgn_plies_per_s'])} | {m(r.get('pgn_plies_per_s', 0))} "
      f"| {m(o['san_moves_per_s'])} | {m(r.get('san_moves_per_s', 0))} | {m(o['san_text_only_per_s'])} |")
PY
done
