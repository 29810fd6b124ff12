#!/bin/sh
# dispatch.sh: empty-task dispatch rate of the cluster over loopback (target >= 20,000 tasks/s).
# usage: tools/bench/dispatch.sh [BUILD_DIR] [TASKS]   (default build, 100000)
# Runs `coordinator --bench-dispatch N` (N tasks of depth 0, each answered with 1) with the
# embedded local worker (one process, 2 compute threads) over loopback TCP (--bind
# tcp://127.0.0.1:*; without --bind it would use a local ipc socket), at several
# --worker-prefetch values: 0 (one task in flight per thread: a round-trip latency test),
# 2, 16 (the default: results go back in batches, PROTOCOL.md section 6) and 64.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
n=${2:-100000}
bin=$build/bin/coordinator
[ -x "$bin" ] || { echo "dispatch.sh: no $bin (build the coordinator and worker targets)" >&2; exit 1; }
for prefetch in 0 2 16 64; do
  out=$("$bin" --bench-dispatch "$n" --local-workers 2 --worker-prefetch "$prefetch" --bind "tcp://127.0.0.1:*" \
    --json --quiet)
  rate=$(printf '%s\n' "$out" | sed -n 's/.*"tasks_per_second":\([0-9]*\).*/\1/p')
  cpu=$(printf '%s\n' "$out" | sed -n 's/.*"cpu_seconds":\([0-9.]*\).*/\1/p')
  secs=$(printf '%s\n' "$out" | sed -n 's/.*"dispatch_seconds":\([0-9.]*\).*/\1/p')
  echo "dispatch: $n tasks, 2 local threads, prefetch $prefetch: $rate tasks/s ($secs s; coordinator CPU $cpu s)"
done
