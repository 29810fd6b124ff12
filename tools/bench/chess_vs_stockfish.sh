#!/bin/sh
# chess_vs_stockfish.sh: single-thread perft speed of `octad` (no hash) against
# Debian's Stockfish `go perft` on the start position (depth 7) and kiwipete (depth 6).
# Usage: tools/bench/chess_vs_stockfish.sh [path/to/octad] [stockfish]
# Prints, per position: nodes, seconds, nodes/s for both, and our speed ratio.
# Stockfish's time is the wall time of its process (start-up ~0.2 s included).
set -eu
OCTAD=${1:-build/bin/octad}
STOCKFISH=${2:-/usr/games/stockfish}
[ -x "$OCTAD" ] || { echo "octad binary not found: $OCTAD" >&2; exit 2; }
[ -x "$STOCKFISH" ] || { echo "stockfish not found: $STOCKFISH" >&2; exit 2; }

now() { date +%s.%N; }

run_stockfish() { # fen depth -> "nodes seconds"
    t0=$(now)
    nodes=$(printf 'uci\nsetoption name Threads value 1\nsetoption name Hash value 1\nposition fen %s\ngo perft %s\nquit\n' "$1" "$2" \
        | "$STOCKFISH" | awk '/^Nodes searched/ {print $3}')
    t1=$(now)
    echo "$nodes $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", b - a}')"
}

run_octad() { # fen depth -> "nodes seconds"
    "$OCTAD" perft --variant chess --fen "$1" --depth "$2" --threads 1 --hash 0 \
        | awk '$1 == "nodes" {n = $2} $1 == "time" {t = $2} END {print n, t}'
}

bench() { # name fen depth
    sf=$(run_stockfish "$2" "$3")
    us=$(run_octad "$2" "$3")
    set -- "$1" "$3" $sf $us
    [ -n "${3:-}" ] && [ -n "${5:-}" ] || { echo "$1: a run failed (stockfish: '${3:-}', octad: '${5:-}')" >&2; exit 1; }
    [ "$3" = "$5" ] || echo "WARNING $1: node counts differ (stockfish $3, octad $5)" >&2
    awk -v name="$1" -v d="$2" -v sn="$3" -v st="$4" -v on="$5" -v ot="$6" 'BEGIN {
        printf "%-10s depth %d\n", name, d
        printf "  stockfish  nodes %-14s %8.3f s %12.0f nodes/s\n", sn, st, sn / st
        printf "  octad      nodes %-14s %8.3f s %12.0f nodes/s\n", on, ot, on / ot
        printf "  ratio      %.2fx\n", (on / ot) / (sn / st)
    }'
}

bench start "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 7
bench kiwipete "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" 6
