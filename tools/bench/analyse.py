#!/usr/bin/env python3
"""analyse.py: `coordinator --analyse D --multipv all` with 1 and 2 local worker threads against
`octad search --split --depth D` in one process, interleaved in the same run (--repeat times
each): median wall seconds, the speed-ups, and a check that every run printed the same lines.

usage: tools/bench/analyse.py [--bin build/bin] [--repeat 5]
On a machine other jobs load, two workers cannot both run all the time: quote the load.
"""
import argparse
import json
import os
import statistics
import subprocess
import time

POSITIONS = [
    ("octad", "ppkn/4/4/NKPP w NCFncf - 0 1", 20),
    ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 8),
]
HASH = "16"


def timed(argv):
    t0 = time.monotonic()
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    r = json.loads(out)
    return time.monotonic() - t0, (r["bestmove"], r["nodes"], r["lines"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    octad, coord = os.path.join(a.bin, "octad"), os.path.join(a.bin, "coordinator")
    print("| position | depth | octad search --split | 1 worker | 2 workers | 1 w / split | split / 2 w |")
    print("|---|---|---|---|---|---|---|")
    for variant, fen, depth in POSITIONS:
        runs = {"split": [], "1": [], "2": []}
        results = set()
        for _ in range(a.repeat):
            for kind in ("split", "1", "2"):
                if kind == "split":
                    argv = [octad, "search", "--split", "--depth", str(depth), "--hash", HASH, "--json",
                            "--variant", variant, fen]
                else:
                    argv = [coord, "--analyse", str(depth), "--multipv", "all", "--hash", HASH, "--json",
                            "--quiet", "--local-workers", kind, "--variant", variant, "--fen", fen]
                wall, res = timed(argv)
                runs[kind].append(wall)
                results.add(json.dumps(res))
        if len(results) != 1:
            raise SystemExit("FAIL: %s depth %d: the runs printed different results" % (variant, depth))
        m = {k: statistics.median(v) for k, v in runs.items()}
        print("| %s start | %d | %.2f s | %.2f s | %.2f s | %.2f | %.2fx |" % (
            variant, depth, m["split"], m["1"], m["2"], m["1"] / m["split"], m["split"] / m["2"]))


if __name__ == "__main__":
    main()
