#!/bin/sh
# worker_ab.sh: two builds of the cluster side by side, in one run, on the local machine.
# usage: tools/bench/worker_ab.sh wall DIR_A DIR_B [RUNS] [DEPTH]   (default 7 runs, octad perft 13)
#        tools/bench/worker_ab.sh ir   DIR_A DIR_B [DEPTH] [TASKS]  (default octad perft 11, 20000 tasks)
# Each DIR holds a coordinator and a worker.
# wall: `coordinator --perft DEPTH --local-workers 2` (one worker process of two threads, the
#   default 64 MiB table), wall time and CPU time (user + system, the coordinator and its
#   worker together) of the whole command; and `--bench-dispatch 100000`
#   (tasks of depth 0: the cost of a task's way through the worker, not of counting); runs
#   alternate A and B (who goes first alternates too); medians and every run are printed.
# ir: the instructions one worker executes for the same job (valgrind --tool=callgrind:
#   repeatable on a loaded machine, where wall times are not; build the DIRs with
#   -DOCTAD_NATIVE=OFF, valgrind 3.19 cannot run -march=native here). A coordinator of the
#   same build binds loopback TCP; one worker of one thread (--prefetch 16, as the
#   coordinator's local workers) runs under callgrind and leaves at BYE.
set -eu
mode=${1:?wall or ir}
a=${2:?DIR_A}
b=${3:?DIR_B}
tmp=$(mktemp -d /tmp/worker-ab.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
all() { sort -n "$1" | paste -sd' '; }

wall() {
  runs=${1:-7}
  depth=${2:-13}
  i=0
  while [ "$i" -lt "$runs" ]; do
    order="a b"
    [ $((i % 2)) -eq 1 ] && order="b a" # alternate who goes first: a load that drifts hits both alike
    for side in $order; do
      eval dir=\$$side
      /usr/bin/time -f "%e %U %S" -o "$tmp/time" \
        "$dir/coordinator" --perft "$depth" --local-workers 2 --quiet --json >/dev/null
      awk '{ print $1 }' "$tmp/time" >>"$tmp/perft.$side"
      awk '{ print $2 + $3 }' "$tmp/time" >>"$tmp/cpu.$side"
      "$dir/coordinator" --bench-dispatch 100000 --local-workers 2 --quiet --json \
        | sed -n 's/.*"tasks_per_second":\([0-9]*\).*/\1/p' >>"$tmp/dispatch.$side"
    done
    i=$((i + 1))
  done
  for side in a b; do
    echo "perft $depth, 2 local threads, wall s: $side median $(median "$tmp/perft.$side") ($(all "$tmp/perft.$side"))"
  done
  for side in a b; do
    echo "perft $depth, CPU s of coordinator and worker: $side median $(median "$tmp/cpu.$side") ($(all "$tmp/cpu.$side"))"
  done
  for side in a b; do
    echo "dispatch 100000 empty tasks, tasks/s: $side median $(median "$tmp/dispatch.$side") ($(all "$tmp/dispatch.$side"))"
  done
}

# ir_run DIR JOB-OPTIONS...: prints the worker's instruction count for that job.
ir_run() {
  dir=$1
  shift
  rm -f "$tmp/ep"
  "$dir/coordinator" "$@" --local-workers 0 --bind "tcp://127.0.0.1:*" --endpoint-file "$tmp/ep" \
    --heartbeat-ms 5000 --liveness 5 --quiet --json >"$tmp/out" &
  coord=$!
  while [ ! -s "$tmp/ep" ]; do sleep 0.1; done
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$dir/worker" --connect "$(cat "$tmp/ep")" \
    --threads 1 --prefetch 16 --once --quiet 2>"$tmp/vg" || true
  wait "$coord"
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/vg"
}

ir() {
  depth=${1:-11}
  tasks=${2:-20000}
  for job in "--perft $depth" "--bench-dispatch $tasks"; do
    # shellcheck disable=SC2086
    ia=$(ir_run "$a" $job)
    # shellcheck disable=SC2086
    ib=$(ir_run "$b" $job)
    echo "$job: a $ia  b $ib  b/a $(echo "scale=6; $ib / $ia" | bc)"
  done
}

shift 3
case $mode in
  wall) wall "$@" ;;
  ir) ir "$@" ;;
  *) echo "worker_ab.sh: mode is wall or ir, not '$mode'" >&2; exit 2 ;;
esac
