#!/usr/bin/env python3
"""perft_speed.py: single-thread, no-hash chess perft of `octad perft` side by side with
Gigantua, Stockfish (`go perft`) and qperft, interleaved, medians of several rounds.

usage: tools/bench/perft_speed.py [--octad build/bin/octad] [--gigantua PATH]
       [--stockfish /usr/games/stockfish] [--qperft PATH] [--rounds 3] [--quick]
       [--only NAME,...] [--baseline PATH]

Builds nothing. A program whose path is empty or not executable is left out (said on stderr);
octad is required. Each round runs every position once with every program, one after the
other, so that load on a shared machine falls on all of them alike. Every program's total
must equal octad's: a mismatch or a failed run is an error (exit 1).

Seconds are CPU seconds (user+sys of the child, from getrusage): every program here is
single-threaded, and CPU time is far less disturbed by other work than wall time; the wall
median is printed beside it. Stockfish's figure includes its start-up (~0.1 s).
Gigantua is run as `gigantua FEN DEPTH EXPECTED` (exit 0 when its count equals EXPECTED,
9 when not; it prints nothing in that form); qperft as `qperft DEPTH FEN`.
--baseline PATH adds a second octad binary (say, main's, for a before/after measurement of a
change) as the program "baseline", and a column octad/baseline.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time

# name, FEN, depth, published total at that depth (the chess programming wiki's "Perft
# Results" positions 1 to 6; position 5's depth 6 is beyond its table and is checked against
# the other programs only)
POSITIONS = [
    ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 7, 3195901860),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6, 8031647685),
    ("pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178633661),
    ("pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6, 706045033),
    ("pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 6, None),
    ("pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 6, 6923051137),
]


class RunError(Exception):
    pass


def timed(argv, stdin=None):
    """Runs argv; returns (completed process, wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    proc = subprocess.run(argv, input=stdin, capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return proc, wall, cpu


def run_octad(path, fen, depth, _expected):
    proc, wall, cpu = timed([path, "perft", "--variant", "chess", "--fen", fen, "--depth", str(depth),
                             "--threads", "1", "--hash", "0", "--quiet"])
    m = re.search(r"^nodes\s+(\d+)$", proc.stdout, re.M)
    if proc.returncode != 0 or not m:
        raise RunError("octad failed (exit %d): %s" % (proc.returncode, proc.stderr.strip()))
    return int(m.group(1)), wall, cpu


def run_gigantua(path, fen, depth, expected):
    proc, wall, cpu = timed([path, fen, str(depth), str(expected)])
    if proc.returncode == 9:
        raise RunError("gigantua: its count differs from octad's %d" % expected)
    if proc.returncode != 0:
        raise RunError("gigantua failed (exit %d): %s" % (proc.returncode, proc.stderr.strip()))
    return expected, wall, cpu


def run_stockfish(path, fen, depth, _expected):
    cmds = "uci\nsetoption name Threads value 1\nsetoption name Hash value 1\nisready\n" \
           "position fen %s\ngo perft %d\nquit\n" % (fen, depth)
    proc, wall, cpu = timed([path], stdin=cmds)
    m = re.search(r"^Nodes searched: (\d+)$", proc.stdout, re.M)
    if proc.returncode != 0 or not m:
        raise RunError("stockfish failed (exit %d), no 'Nodes searched' line" % proc.returncode)
    return int(m.group(1)), wall, cpu


def run_qperft(path, fen, depth, _expected):
    proc, wall, cpu = timed([path, str(depth), fen])
    counts = re.findall(r"perft\(\s*%d\)\s*=\s*(\d+)" % depth, proc.stdout)
    if proc.returncode != 0 or not counts:
        raise RunError("qperft failed (exit %d), no 'perft(%d)=' line" % (proc.returncode, depth))
    return int(counts[-1]), wall, cpu


PROGRAMS = [("octad", run_octad), ("baseline", run_octad), ("gigantua", run_gigantua), ("stockfish", run_stockfish),
            ("qperft", run_qperft)]


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--octad", default="build/bin/octad")
    ap.add_argument("--gigantua", default="/work/ext/gigantua/Gigantua/giga_gcc")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--qperft", default="")
    ap.add_argument("--baseline", default="", help="another octad binary, for before/after")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="two plies less everywhere (a smoke test)")
    ap.add_argument("--only", default="", help="comma-separated position names")
    a = ap.parse_args()
    if a.rounds < 1:
        ap.error("--rounds: must be at least 1, got %d" % a.rounds)
    return a


def main():
    a = parse_args()
    paths = {"octad": a.octad, "gigantua": a.gigantua, "stockfish": a.stockfish, "qperft": a.qperft,
             "baseline": a.baseline}
    progs = []
    for name, fn in PROGRAMS:
        p = paths[name]
        if p and os.access(p, os.X_OK):
            progs.append((name, fn, p))
        elif name == "octad" or (name == "baseline" and p):
            sys.exit("perft_speed: --%s: not an executable: %r" % (name, p))
        else:
            print("perft_speed: %s left out (no executable at %r)" % (name, p), file=sys.stderr)
    wanted = [s for s in a.only.split(",") if s]
    known = [n for n, _, _, _ in POSITIONS]
    for w in wanted:
        if w not in known:
            sys.exit("perft_speed: --only: unknown position %r (known: %s)" % (w, ", ".join(known)))
    positions = [(n, f, d - 2 if a.quick else d, None if a.quick else t)
                 for n, f, d, t in POSITIONS if not wanted or n in wanted]

    times = {}  # (position, program) -> list of (cpu, wall)
    nodes = {}
    try:
        for r in range(a.rounds):
            for pos, fen, depth, published in positions:
                for name, fn, path in progs:
                    n, wall, cpu = fn(path, fen, depth, nodes.get(pos))
                    if name == "octad":
                        if published is not None and n != published:
                            raise RunError("octad %s depth %d: %d nodes, published %d" % (pos, depth, n, published))
                        nodes.setdefault(pos, n)
                    if n != nodes[pos]:
                        raise RunError("%s %s depth %d: %d nodes, octad %d" % (name, pos, depth, n, nodes[pos]))
                    times.setdefault((pos, name), []).append((cpu, wall))
                    print("round %d %-9s %-9s %8.3f s cpu %8.3f s wall" % (r + 1, pos, name, cpu, wall),
                          file=sys.stderr, flush=True)
    except RunError as e:
        sys.exit("perft_speed: %s" % e)

    names = [n for n, _, _ in progs]
    head = "| position | depth | nodes | " + " | ".join("%s s (wall) | %s Mnps" % (n, n) for n in names)
    ratios = [n for n in ("baseline", "gigantua") if n in names]
    for n in ratios:
        head += " | octad/" + n
    print(head + " |")
    print("|" + "---|" * (head.count("|")))
    for pos, _, depth, _ in positions:
        row = "| %s | %d | %s" % (pos, depth, format(nodes[pos], ","))
        secs = {}
        for n in names:
            cpu = statistics.median(c for c, _ in times[(pos, n)])
            wall = statistics.median(w for _, w in times[(pos, n)])
            secs[n] = cpu
            row += " | %.3f (%.3f) | %.1f" % (cpu, wall, nodes[pos] / cpu / 1e6)
        for n in ratios:
            row += " | **%.3fx**" % (secs[n] / secs["octad"])
        print(row + " |")
    print("\n%d rounds, interleaved; seconds are medians of CPU time (wall in brackets); "
          "a ratio octad/X > 1 means octad is faster." % a.rounds)


if __name__ == "__main__":
    main()
