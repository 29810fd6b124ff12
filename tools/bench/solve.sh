#!/usr/bin/env bash
# solve.sh: how fast the octad solver builds every table up to N pieces.
#   bash tools/bench/solve.sh [OCTAD_BINARY] [MAX_PIECES] [ROUNDS] [THREADS]
# Each round solves into a fresh directory; prints per round the wall time,
# the CPU time, the legal positions solved, and the rates: positions per
# second of wall time, and per second of CPU time (= per core). Then the
# medians. The positions count comes from `octad solve --json`.
set -euo pipefail
octad=${1:-build/bin/octad}
pieces=${2:-5}
rounds=${3:-3}
threads=${4:-$(nproc)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "octad solve --max-pieces $pieces --threads $threads, $rounds rounds, $(nproc) cores, $(date -u +%Y-%m-%d)"
walls=() cpus=()
for r in $(seq 1 "$rounds"); do
    dir="$tmp/r$r"
    /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$octad" solve --max-pieces "$pieces" --threads "$threads" \
        --tables "$dir" --json --quiet >"$tmp/out"
    read -r wall user sys <"$tmp/time"
    positions=$(grep -o '"positions":[0-9]*' "$tmp/out" | cut -d: -f2)
    cpu=$(echo "$user + $sys" | bc -l)
    printf 'round %d: %s positions, wall %.2f s, cpu %.2f s: %.2f M/s wall, %.2f M/s per core\n' "$r" \
        "$positions" "$wall" "$cpu" "$(echo "$positions / $wall / 1000000" | bc -l)" \
        "$(echo "$positions / $cpu / 1000000" | bc -l)"
    walls+=("$wall")
    cpus+=("$cpu")
    sums=$(sha256sum "$dir/SUMMARY" | cut -c1-16)
    echo "  SUMMARY sha256 $sums"
    rm -rf "$dir"
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
mw=$(median "${walls[@]}")
mc=$(median "${cpus[@]}")
printf 'median: wall %.2f s, cpu %.2f s: %.2f M positions/s wall, %.2f M positions/s per core\n' "$mw" "$mc" \
    "$(echo "$positions / $mw / 1000000" | bc -l)" "$(echo "$positions / $mc / 1000000" | bc -l)"
