#!/usr/bin/env python3
"""cluster_scaling.py: the coordinator with its local workers against single-threaded
`octad perft` on the same job, and the coordinator's own CPU share of its run.

usage: tools/bench/cluster_scaling.py [--build DIR] [--depth 11] [--hash MB] [--rounds 7] [coordinator options...]

Each round runs `octad perft --depth D --threads 1 --hash H`, `octad perft
--threads 2` (the in-process ceiling) and `coordinator --perft D --hash H
--json` (its default: one local worker thread per core), back to back, so
machine noise falls on all alike. Reported:
medians over the rounds of the wall time of each whole process (start-up and
table set-up included), the ratio of nodes/s, and the coordinator's CPU time
(getrusage of the coordinator process, all its threads, workers not included)
as a share of its wall time and of the CPU time of the whole run (coordinator
and workers). Targets (issue 3): ratio >= 1.8, CPU < 2%.
Extra arguments go to the coordinator (e.g. --split-depth 2, --worker-prefetch 2).
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository


def timed(cmd):
    """Wall time of a whole process, its stdout; and, of every process it waited
    for, the CPU time (RUSAGE_CHILDREN before and after)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    timed.cpu = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
    if p.returncode != 0:
        sys.exit("cluster_scaling.py: %s failed (%d): %s" % (cmd[0], p.returncode, p.stderr.strip()))
    return wall, p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(HERE, "build"))
    ap.add_argument("--depth", type=int, default=11)
    ap.add_argument("--hash", type=int, default=64, help="MiB (default 64, both programs' default)")
    ap.add_argument("--rounds", type=int, default=7)
    args, extra = ap.parse_known_args()
    octad = os.path.join(args.build, "cli", "octad")
    coord = os.path.join(args.build, "bin", "coordinator")
    for b in (octad, coord):
        if not os.access(b, os.X_OK):
            sys.exit("cluster_scaling.py: no %s (build octad, coordinator and worker)" % b)
    single, threads, cluster, cpu, share, internal, run_share = [], [], [], [], [], [], []
    nodes = None
    tasks, local = 0, ""
    for _ in range(args.rounds):
        w1, out = timed([octad, "perft", "--depth", str(args.depth), "--threads", "1", "--hash", str(args.hash),
                         "--quiet"])
        n1 = int(next(line.split()[1] for line in out.splitlines() if line.startswith("nodes")))
        wt, _ = timed([octad, "perft", "--depth", str(args.depth), "--threads", "2", "--hash", str(args.hash),
                       "--quiet"])
        threads.append(wt)
        w2, out = timed([coord, "--perft", str(args.depth), "--hash", str(args.hash), "--json", "--quiet"] + extra)
        res = json.loads(out)
        if res["nodes"] != n1 or (nodes is not None and n1 != nodes):
            sys.exit("cluster_scaling.py: totals differ: octad perft %d, coordinator %d" % (n1, res["nodes"]))
        nodes, tasks = n1, res["tasks"]
        local = "%d local process x %d threads" % (res["local_processes"], res["local_threads"])
        single.append(w1)
        cluster.append(w2)
        internal.append(res["seconds"])
        cpu.append(res["cpu_seconds"])
        share.append(100.0 * res["cpu_seconds"] / w2)
        run_share.append(100.0 * res["cpu_seconds"] / timed.cpu)
    m1, m2 = statistics.median(single), statistics.median(cluster)
    print("octad depth %d from the start, %d MiB hash, %d nodes (every run agrees); %d rounds, medians"
          % (args.depth, args.hash, nodes, args.rounds))
    mt = statistics.median(threads)
    print("single-threaded octad perft:  %.3f s wall, %.0f nodes/s" % (m1, nodes / m1))
    print("octad perft --threads 2:      %.3f s wall, %.2fx (one process, no messages: the ceiling)"
          % (mt, m1 / mt))
    print("coordinator (%s):  %.3f s wall (%.3f s in its job loop), %.0f nodes/s, %d tasks"
          % (local, m2, statistics.median(internal), nodes / m2, tasks))
    print("speed-up: %.2fx (per round: %s)" % (m1 / m2, " ".join("%.2f" % (a / b) for a, b in zip(single, cluster))))
    print("coordinator CPU: %.4f s = %.2f%% of its wall time (per round: %s)"
          % (statistics.median(cpu), statistics.median(share), " ".join("%.2f%%" % s for s in share)))
    print("                 = %.2f%% of the CPU time of the whole run (coordinator and workers)"
          % statistics.median(run_share))


if __name__ == "__main__":
    main()
