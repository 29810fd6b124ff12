#!/usr/bin/env python3
"""coord_kinds.py: every job kind of the coordinator, two builds side by side in one run.

usage: tools/bench/coord_kinds.py BEFORE_BIN_DIR AFTER_BIN_DIR [--repeat N]

Each BIN_DIR holds `coordinator` and `worker` (the coordinator starts the worker next to it).
The workloads run interleaved (before, after, before, ...) N times (default 7) and the medians are
printed side by side: wall time of `coordinator --perft 9` and `--perft 11` (octad start, local
worker with both cores), the dispatch rate and the coordinator's CPU of `--bench-dispatch 100000`
over loopback TCP, `--analyse 10` of the octad start, and `--solve --max-pieces 4` into a fresh
directory (wall time and the coordinator's CPU).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(cmd):
    t0 = time.monotonic()
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    return time.monotonic() - t0, out


def perft(bin_dir, depth):
    wall, out = run([os.path.join(bin_dir, "coordinator"), "--perft", str(depth), "--json", "--quiet"])
    j = json.loads(out)
    assert j["match"], "perft %d: no match" % depth
    return {"wall_s": wall, "cpu_s": j["cpu_seconds"]}


def dispatch(bin_dir):
    _, out = run([os.path.join(bin_dir, "coordinator"), "--bench-dispatch", "100000", "--local-workers", "2",
                  "--bind", "tcp://127.0.0.1:*", "--json", "--quiet"])
    j = json.loads(out)
    return {"tasks_per_s": j["tasks_per_second"], "cpu_s": j["cpu_seconds"]}


def analyse(bin_dir):
    wall, _ = run([os.path.join(bin_dir, "coordinator"), "--analyse", "10", "--quiet"])
    return {"wall_s": wall}


def solve(bin_dir):
    with tempfile.TemporaryDirectory() as d:
        wall, out = run([os.path.join(bin_dir, "coordinator"), "--solve", "--max-pieces", "4", "--tables", d,
                         "--json", "--quiet"])
    j = json.loads(out)
    return {"wall_s": wall, "cpu_s": j["coordinator_cpu_seconds"]}


WORKLOADS = [("perft 9", lambda b: perft(b, 9)), ("perft 11", lambda b: perft(b, 11)),
             ("dispatch 100000", dispatch), ("analyse 10", analyse), ("solve max-pieces 4", solve)]


def main():
    args = sys.argv[1:]
    repeat = 7
    if "--repeat" in args:
        k = args.index("--repeat")
        repeat = int(args[k + 1])
        del args[k:k + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    dirs = {"before": args[0], "after": args[1]}
    samples = {(w, side): [] for w, _ in WORKLOADS for side in dirs}
    for _ in range(repeat):
        for name, fn in WORKLOADS:
            for side, d in dirs.items():
                samples[(name, side)].append(fn(d))
    print("| workload | measure | before (median of %d) | after (median of %d) | after / before |" % (repeat, repeat))
    print("|---|---|---|---|---|")
    for name, _ in WORKLOADS:
        for key in samples[(name, "before")][0]:
            b = statistics.median(s[key] for s in samples[(name, "before")])
            a = statistics.median(s[key] for s in samples[(name, "after")])
            print("| %s | %s | %.4g | %.4g | %.3f |" % (name, key, b, a, a / b if b else float("nan")))


if __name__ == "__main__":
    main()
