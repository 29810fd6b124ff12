#!/bin/sh
# verify_tables.sh: speed of `octad verify-tables` (records checked per second,
# per wall second and per CPU second) on every table up to N pieces, on 1 and
# 2 threads, with the generator's speed on the same tables measured in the same
# run as the reference (`octad solve --max-pieces N`, positions solved/s).
# Usage: tools/bench/verify_tables.sh [path/to/octad] [N]   (default build/cli/octad, 5)
# The machine is shared: the per-CPU-second rate is what one core does; wall
# rates depend on the load (printed).
set -eu
OCTAD=${1:-build/cli/octad}
PIECES=${2:-5}
[ -x "$OCTAD" ] || { echo "octad binary not found: $OCTAD" >&2; exit 2; }
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

cpu_of() { # command... -> prints "wall user+sys" of running it (output to $DIR/out)
    /usr/bin/time -f "%e %U %S" -o "$DIR/time" "$@" > "$DIR/out" 2> "$DIR/err" || true
    awk '{printf "%.2f %.2f", $1, $2 + $3}' "$DIR/time"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"

set -- $(cpu_of "$OCTAD" solve --max-pieces "$PIECES" --tables "$DIR" --quiet --threads 1)
solved=$(awk '/^solved/ {print $2}' "$DIR/out")
printf 'generate  up to %s pieces, 1 thread:  %s positions, %s s wall, %s s CPU: %.2f M positions/CPU-s\n' \
    "$PIECES" "$solved" "$1" "$2" "$(awk -v n="$solved" -v c="$2" 'BEGIN {print n / c / 1e6}')"

for threads in 1 2; do
    set -- $(cpu_of "$OCTAD" verify-tables --tables "$DIR" --threads "$threads" --quiet --json)
    records=$(sed 's/.*"records":\([0-9]*\),"failures".*/\1/' "$DIR/out" | tail -1)
    failures=$(sed 's/.*"failures":\([0-9]*\),"seconds".*/\1/' "$DIR/out" | tail -1)
    printf 'verify    up to %s pieces, %s thread(s): %s records, %s failures, %s s wall, %s s CPU: %.2f M records/s wall, %.2f M records/CPU-s\n' \
        "$PIECES" "$threads" "$records" "$failures" "$1" "$2" \
        "$(awk -v n="$records" -v c="$1" 'BEGIN {print n / c / 1e6}')" \
        "$(awk -v n="$records" -v c="$2" 'BEGIN {print n / c / 1e6}')"
done

set -- $(cpu_of "$OCTAD" verify-tables --forward --tables "$DIR" --max-pieces 3 --json)
positions=$(sed 's/.*\],"positions":\([0-9]*\),.*/\1/' "$DIR/out")
printf 'forward   every 3-piece table, all clocks: %s positions, %s s wall, %s s CPU: %.2f M positions/CPU-s\n' \
    "$positions" "$1" "$2" "$(awk -v n="$positions" -v c="$2" 'BEGIN {print n / c / 1e6}')"
