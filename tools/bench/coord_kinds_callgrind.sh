#!/bin/sh
# coord_kinds_callgrind.sh: instructions the coordinator process itself executes for each job
# kind, two builds side by side (repeatable whatever the machine's load, unlike wall times).
# usage: tools/bench/coord_kinds_callgrind.sh BEFORE_BIN_DIR AFTER_BIN_DIR [RUNS]   (default 3)
# Each BIN_DIR holds `coordinator` and `worker` of a portable build (-DOCTAD_NATIVE=OFF: valgrind
# 3.19 cannot run this machine's AVX-512 code). Only the coordinator runs under callgrind; its
# local workers run natively. One line per build and run: the instruction counts of --perft 9,
# --perft 11, --bench-dispatch 20000 over loopback TCP, --analyse 10, --solve --max-pieces 4.
set -eu
[ $# -ge 2 ] || { sed -n 2,8p "$0" >&2; exit 2; }
runs=${3:-3}
cg() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'; }
rep=1
while [ "$rep" -le "$runs" ]; do
  for side in before after; do
    if [ "$side" = before ]; then b=$1/coordinator; else b=$2/coordinator; fi
    d=$(mktemp -d)
    echo "$side perft9 $(cg "$b" --perft 9 --quiet) perft11 $(cg "$b" --perft 11 --quiet)" \
         "dispatch20000 $(cg "$b" --bench-dispatch 20000 --local-workers 2 --bind 'tcp://127.0.0.1:*' --quiet)" \
         "analyse10 $(cg "$b" --analyse 10 --quiet) solve4 $(cg "$b" --solve --max-pieces 4 --tables "$d" --quiet)"
    rm -rf "$d"
  done
  rep=$((rep + 1))
done
