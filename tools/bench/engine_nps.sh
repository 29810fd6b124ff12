#!/bin/sh
# engine_nps.sh: the search speed of engine builds side by side, to charge a change
# for the nodes per second it costs. For each build, in turn, for ROUNDS rounds
# (default 3): four fixed-node chess searches (NODES nodes each, default 1500000:
# the start, an Italian opening, kiwipete, a rook endgame) in one timed run; prints
# the user CPU seconds of each run and, per build, the median and the ratio to the
# first build's median (above 1: slower).
# usage: sh tools/bench/engine_nps.sh [--rounds N] [--nodes N] OCTAD_BINARY...
set -eu
rounds=3 nodes=1500000
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "engine_nps.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "engine_nps.sh: give at least one octad binary (--help)" >&2; exit 2; }
for b in "$@"; do [ -x "$b" ] || { echo "engine_nps.sh: $b is not an executable" >&2; exit 2; }; done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
search() {
    "$1" search --variant chess --nodes "$nodes" --hash 16 ${2:+--fen "$2"} >/dev/null
}
one() {
    search "$1" ""
    search "$1" "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    search "$1" "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    search "$1" "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
}
for r in $(seq "$rounds"); do
    i=0
    for b in "$@"; do
        i=$((i + 1))
        # the user CPU of this shell's finished children (field 16 of /proc/PID/stat), before and after
        u0=$(awk '{print $16}' /proc/$$/stat)
        one "$b"
        u1=$(awk '{print $16}' /proc/$$/stat)
        echo "$u0 $u1" | awk -v b="$b" -v r="$r" -v hz="$(getconf CLK_TCK)" '{ printf "round %s %s %.2f s\n", r, b, ($2 - $1) / hz }' | tee -a "$out/$i"
    done
done
i=0 first=""
for b in "$@"; do
    i=$((i + 1))
    med=$(awk '{print $(NF - 1)}' "$out/$i" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
    [ -n "$first" ] || first=$med
    echo "$b median $med s, ratio $(echo "$med $first" | awk '{printf "%.3f", $1 / $2}')"
done
