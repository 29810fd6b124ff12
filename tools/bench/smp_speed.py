#!/usr/bin/env python3
"""smp_speed.py: lazy SMP's time to depth: each position searched to a fixed depth with
--threads 1 and --threads 2 (interleaved, --repeat times each), medians of wall and CPU
seconds, and the speed-up (wall 1 thread / wall 2 threads) per position and overall.

usage: tools/bench/smp_speed.py [--octad build/bin/octad] [--repeat 5] [--threads 2]
CPU seconds are user+sys of the child (all its threads). On a machine that other jobs
load, two threads cannot both run all the time: quote the load beside the numbers.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import time

POSITIONS = [
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 12),
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 10),
    ("chess", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R2QKB1R w KQ - 0 9", 11),
    ("octad", "ppkn/4/4/NKPP w NCFncf - 0 1", 22),
]


def timed(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def search(octad, variant, fen, depth, threads):
    out, wall, cpu = timed([octad, "search", "--variant", variant, "--depth", str(depth), "--hash", "64",
                            "--threads", str(threads), "--json", fen])
    r = json.loads(out)
    return wall, cpu, r["nodes"], r["bestmove"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--octad", default="build/bin/octad")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    print("load average at start: %.2f %.2f %.2f" % os.getloadavg())
    print("| position | depth | threads | wall s | CPU s | nodes | best moves | speed-up (wall) |")
    print("|---|---|---|---|---|---|---|---|")
    ratios = []
    for variant, fen, depth in POSITIONS:
        runs = {1: [], a.threads: []}
        for _ in range(a.repeat):
            for t in (1, a.threads):
                runs[t].append(search(a.octad, variant, fen, depth, t))
        med = {t: (statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs),
                   int(statistics.median(r[2] for r in rs)), sorted({r[3] for r in rs})) for t, rs in runs.items()}
        ratio = med[1][0] / med[a.threads][0]
        ratios.append(ratio)
        for t in (1, a.threads):
            w, c, n, b = med[t]
            print("| %s %s | %d | %d | %.2f | %.2f | %d | %s | %s |" % (variant, fen.split()[0][:20], depth, t, w, c, n,
                  " ".join(b), "%.2f" % ratio if t != 1 else ""))
    print("geometric mean speed-up (wall, %d vs 1 threads): %.2f" % (a.threads, statistics.geometric_mean(ratios)))
    print("load average at end: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
