#!/bin/sh
# dispatch.sh: empty-task dispatch rate of the cluster over loopback (target >= 20,000 tasks/s).
# usage: bench/dispatch.sh [BUILD_DIR] [TASKS]   (default build-cluster, 100000)
# Runs `coordinator --bench-dispatch N` (N tasks of depth 0, each answered with 1) with two local
# workers of one thread, first with no prefetch (one task in flight per worker: a round-trip
# latency test), then with --worker-prefetch 4 (workers keep 4 tasks queued beyond their thread).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build-cluster}
n=${2:-100000}
bin=$build/bin/coordinator
[ -x "$bin" ] || { echo "dispatch.sh: no $bin (build the coordinator and worker targets)" >&2; exit 1; }
for prefetch in 0 2 4; do
  out=$("$bin" --bench-dispatch "$n" --local-workers 2 --worker-prefetch "$prefetch" --json --quiet)
  rate=$(printf '%s\n' "$out" | sed -n 's/.*"tasks_per_second":\([0-9]*\).*/\1/p')
  cpu=$(printf '%s\n' "$out" | sed -n 's/.*"cpu_seconds":\([0-9.]*\).*/\1/p')
  secs=$(printf '%s\n' "$out" | sed -n 's/.*"dispatch_seconds":\([0-9.]*\).*/\1/p')
  echo "dispatch: $n tasks, 2 workers, prefetch $prefetch: $rate tasks/s ($secs s; coordinator CPU $cpu s)"
done
