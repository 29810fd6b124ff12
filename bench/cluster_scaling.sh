#!/bin/sh
# cluster_scaling.sh: nodes/s of the coordinator with 2 local workers vs single-threaded
# `octad perft`, same hash per thread; and the coordinator's own CPU share of the run.
# usage: bench/cluster_scaling.sh [BUILD_DIR] [DEPTH] [HASH_MB]   (default build-cluster, 11, 256)
# Targets: ratio >= 1.8, coordinator CPU < 2% of the wall time.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-cluster}
depth=${2:-11}
hash=${3:-256}
octad=$build/cli/octad
coord=$build/bin/coordinator
for b in "$octad" "$coord"; do
  [ -x "$b" ] || { echo "cluster_scaling.sh: no $b (build octad, coordinator, worker)" >&2; exit 1; }
done
single=$("$octad" perft --depth "$depth" --threads 1 --hash "$hash" --quiet)
n1=$(printf '%s\n' "$single" | awk '$1 == "nodes" {print $2}')
t1=$(printf '%s\n' "$single" | awk '$1 == "time" {print $2}')
json=$("$coord" --perft "$depth" --local-workers 2 --hash "$hash" --json --quiet)
n2=$(printf '%s\n' "$json" | sed -n 's/.*"nodes":\([0-9]*\).*/\1/p')
t2=$(printf '%s\n' "$json" | sed -n 's/.*"seconds":\([0-9.]*\).*/\1/p')
cpu=$(printf '%s\n' "$json" | sed -n 's/.*"cpu_seconds":\([0-9.]*\).*/\1/p')
tasks=$(printf '%s\n' "$json" | sed -n 's/.*"tasks":\([0-9]*\).*/\1/p')
[ "$n1" = "$n2" ] || { echo "cluster_scaling.sh: totals differ: octad perft $n1, coordinator $n2" >&2; exit 3; }
awk -v n="$n1" -v t1="$t1" -v t2="$t2" -v cpu="$cpu" -v d="$depth" -v h="$hash" -v tasks="$tasks" 'BEGIN {
  printf "octad depth %d, %d MB hash per thread, %s nodes (both runs agree)\n", d, h, n
  printf "single-threaded octad perft: %.3f s, %.0f nodes/s\n", t1, n / t1
  printf "coordinator + 2 workers:     %.3f s, %.0f nodes/s (%d tasks)\n", t2, n / t2, tasks
  printf "speed-up: %.2fx; coordinator CPU %.3f s = %.2f%% of the run\n", t1 / t2, cpu, 100 * cpu / t2
}'
