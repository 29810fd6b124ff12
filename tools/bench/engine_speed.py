#!/usr/bin/env python3
"""engine_speed.py: the engine's search speed: octad from the start to depth 20, chess from
the start and kiwipete to depth 10, each run --repeat times (median), with Debian's Stockfish
searching the same chess positions to the same depth in the same run as the reference.

usage: tools/bench/engine_speed.py [--octad build/cli/octad] [--stockfish /usr/games/stockfish] [--repeat 3]
Prints nodes, wall seconds, CPU seconds (user+sys of the child: robust on a loaded machine)
and nodes per CPU second. Node counts are deterministic for octad search (same on every run).
"""
import argparse
import json
import resource
import statistics
import subprocess
import time

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CHESS_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def timed(argv, stdin=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    out = subprocess.run(argv, input=stdin, capture_output=True, text=True, check=True).stdout
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return out, wall, cpu


def ours(octad, variant, fen, depth):
    out, wall, cpu = timed([octad, "search", "--variant", variant, "--depth", str(depth), "--hash", "64", "--json"]
                           + ([fen] if fen else []))
    r = json.loads(out)
    return r["nodes"], wall, cpu, r["bestmove"]


def stockfish(sf, fen, depth):
    cmds = "uci\nsetoption name Threads value 1\nsetoption name Hash value 64\nisready\n" \
           "position fen %s\ngo depth %d\n" % (fen, depth)
    p = subprocess.Popen([sf], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p.stdin.write(cmds)
    p.stdin.flush()
    nodes, best = 0, None
    for line in p.stdout:
        if line.startswith("info depth") and " nodes " in line:
            t = line.split()
            nodes = int(t[t.index("nodes") + 1])
        if line.startswith("bestmove"):
            best = line.split()[1]
            break
    wall = time.monotonic() - t0
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return nodes, wall, cpu, best


def report(name, runs):
    nodes = runs[0][0]
    wall = statistics.median(r[1] for r in runs)
    cpu = statistics.median(r[2] for r in runs)
    print("%-34s nodes %10d  wall %7.2f s  cpu %7.2f s  %8.0f nodes/cpu-s  best %s"
          % (name, nodes, wall, cpu, nodes / cpu if cpu > 0 else 0, runs[0][3]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--octad", default="build/cli/octad")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    n = a.repeat
    report("octad search octad start d20", [ours(a.octad, "octad", None, 20) for _ in range(n)])
    report("octad search chess start d10", [ours(a.octad, "chess", CHESS_START, 10) for _ in range(n)])
    report("stockfish chess start d10", [stockfish(a.stockfish, CHESS_START, 10) for _ in range(n)])
    report("octad search kiwipete d10", [ours(a.octad, "chess", KIWIPETE, 10) for _ in range(n)])
    report("stockfish kiwipete d10", [stockfish(a.stockfish, KIWIPETE, 10) for _ in range(n)])


if __name__ == "__main__":
    main()
