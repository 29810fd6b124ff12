#!/usr/bin/env python3
"""oracle_wrk.py: requests per second and latency of `octad serve` under wrk (keep-alive).

    python3 tools/bench/oracle_wrk.py [OCTAD] [--pieces N] [--rounds R] [--seconds S] [--connections C]
                                      [--threads N] [--positions K] [--keep-positions FILE] [--cache N]
                                      [--tables DIR] [--memory MB[,MB...]] [--random-only]

Makes the tables up to N pieces (default 5) in a temporary directory, starts `octad serve`
(--threads N, default the cores) on a free port of 127.0.0.1, draws K (default 2000) random legal
positions the tables cover (random placements of two kings and up to N-2 other men, kept when the
server answers 200 and a category other than unknown), then runs wrk (2 threads, C connections,
default 64) R times (default 3) for S seconds (default 10) over three loads: /health (the HTTP
floor), one fixed position, and the random positions in turn. Prints each run's requests/s and
latency percentiles, the medians, and the server's resident memory (VmRSS, VmHWM) at the end.
wrk and the server share the machine's cores: the figures are for both on one machine.

--tables DIR serves tables already made (up to --pieces pieces; kept). --memory runs the loads once
per budget (octad serve --memory MB; 0: tables read whole), each on a fresh server, in the order
given, after one warm-up pass over the random positions, and prints the block cache's hits and
misses (/health) with the memory. --random-only runs only the random positions' load.
"""
import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

LUA = r'''
local paths = {}
for line in io.lines(os.getenv("OCTAD_WRK_PATHS")) do paths[#paths + 1] = line end
local i = math.random(#paths)
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
'''


def random_ofen(rng, men):
    squares = rng.sample(range(16), 2 + men)
    board = [None] * 16
    board[squares[0]], board[squares[1]] = "K", "k"
    for sq in squares[2:]:
        board[sq] = rng.choice("PNBRQpnbrq")
    ranks = []
    for rank in range(3, -1, -1):
        row, empty = "", 0
        for f in range(4):
            c = board[rank * 4 + f]
            if c is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + c
                empty = 0
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks) + " %s - - 0 1" % rng.choice("wb")


def wrk(url_base, paths_file, path, seconds, connections):
    env = dict(os.environ, OCTAD_WRK_PATHS=paths_file)
    cmd = ["wrk", "-t2", "-c%d" % connections, "-d%ds" % seconds, "--latency"]
    if path is None:
        cmd += ["-s", os.path.join(os.path.dirname(paths_file), "paths.lua"), url_base]
    else:
        cmd += [url_base + path]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    lat = {}
    for p in ("50", "90", "99"):
        m = re.search(r"\s%s%%\s+([\d.]+)(us|ms|s)\b" % p, out)
        lat[p] = float(m.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, lat, int(errors.group(1)) if errors else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("octad", nargs="?", default="build/bin/octad")
    ap.add_argument("--pieces", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--keep-positions", metavar="FILE", help="write the random positions' OFEN there")
    ap.add_argument("--cache", type=int, default=0,
                    help="octad serve --cache N (default 0: every request computed, so the figures are the work)")
    ap.add_argument("--tables", metavar="DIR", help="serve these tables (made up to --pieces) instead of making them")
    ap.add_argument("--memory", default=None, help="budgets in MB, comma-separated (octad serve --memory; 0: none)")
    ap.add_argument("--random-only", action="store_true", help="only the random positions' load")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="octad-wrk-")
    srv = None
    try:
        tables = a.tables or os.path.join(tmp, "tables")
        if not a.tables:
            subprocess.run([a.octad, "solve", "--max-pieces", str(a.pieces), "--tables", tables, "--quiet"],
                           check=True, stdout=subprocess.DEVNULL)
        budgets = a.memory.split(",") if a.memory else [None]
        paths = None
        for budget in budgets:
            srv = start(a, tables, budget)
            paths = run_loads(a, tmp, srv, budget, paths)
            srv.send_signal(signal.SIGTERM)
            srv.wait()
            srv = None
    finally:
        if srv:
            srv.send_signal(signal.SIGTERM)
            srv.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def start(a, tables, budget):
    """An octad serve process on a free port (its port in .port)."""
    cmd = [a.octad, "serve", "--tables", tables, "--listen", "127.0.0.1:0", "--threads", str(a.threads),
           "--cache", str(a.cache)]
    if budget is not None:
        cmd += ["--memory", budget]
    srv = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    line = srv.stdout.readline()
    srv.port = int(line.rsplit(":", 1)[1])
    return srv


def draw_paths(a, base):
    """K random positions the tables cover, as request paths, and their OFEN."""
    rng = random.Random(31)
    paths, ofens = [], []
    while len(paths) < a.positions:
        ofen = random_ofen(rng, rng.randint(0, a.pieces - 2))
        path = "/api/v1/octad?" + urllib.parse.urlencode({"ofen": ofen})
        try:
            with urllib.request.urlopen(base + path) as r:
                if b'"category":"unknown"' not in r.read():
                    paths.append(path)
                    ofens.append(ofen)
        except urllib.error.HTTPError:
            pass  # not a legal position
    return paths, ofens


def rss(pid):
    with open("/proc/%d/status" % pid) as f:
        return {k: v.strip() for k, v in (l.split(":", 1) for l in f) if k in ("VmRSS", "VmHWM")}


def run_loads(a, tmp, srv, budget, paths):
    """The loads on one server; returns the paths drawn (drawn once, on the first server)."""
    base = "http://127.0.0.1:%d" % srv.port
    at_start = rss(srv.pid)["VmRSS"]
    if paths is None:
        paths, ofens = draw_paths(a, base)
        with open(os.path.join(tmp, "paths.txt"), "w") as f:
            f.write("\n".join(paths) + "\n")
        if a.keep_positions:
            with open(a.keep_positions, "w") as f:
                f.write("\n".join(ofens) + "\n")
        with open(os.path.join(tmp, "paths.lua"), "w") as f:
            f.write(LUA)
    print("octad serve --threads %d --cache %d%s over the tables to %d pieces; wrk -t2 -c%d -d%ds --latency, %d rounds; "
          "%d cores; %s" % (a.threads, a.cache, "" if budget is None else " --memory %s" % budget, a.pieces,
                            a.connections, a.seconds, a.rounds, os.cpu_count(),
                            time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())))
    if budget is not None:  # one pass over the random positions first: the tables and blocks they need read once
        conn = http.client.HTTPConnection("127.0.0.1", srv.port)
        for path in paths:
            conn.request("GET", path)
            conn.getresponse().read()
        conn.close()
    fixed = "/api/v1/octad?" + urllib.parse.urlencode({"ofen": "3k/4/4/R2K w - - 0 1"})
    loads = (("/health", "/health"), ("one position", fixed), ("%d random positions" % len(paths), None))
    for name, path in loads[2:] if a.random_only else loads:
        runs = []
        for r in range(a.rounds):
            rps, lat, bad = wrk(base, os.path.join(tmp, "paths.txt"), path, a.seconds, a.connections)
            runs.append((rps, lat))
            print("  %-22s round %d: %9.0f req/s  p50 %.3f ms  p90 %.3f ms  p99 %.3f ms%s" % (
                name, r + 1, rps, lat["50"], lat["90"], lat["99"], "  (%d non-2xx!)" % bad if bad else ""))
        print("  %-22s median : %9.0f req/s  p50 %.3f ms  p90 %.3f ms  p99 %.3f ms" % (
            name, statistics.median(x[0] for x in runs), statistics.median(x[1]["50"] for x in runs),
            statistics.median(x[1]["90"] for x in runs), statistics.median(x[1]["99"] for x in runs)))
    mem = rss(srv.pid)
    with urllib.request.urlopen(base + "/health") as r:
        health = json.loads(r.read())
    print("  server memory: VmRSS %s at start, %s at the end, VmHWM %s; block cache %s" % (
        at_start, mem["VmRSS"], mem["VmHWM"], health.get("memory")))
    return paths


if __name__ == "__main__":
    sys.exit(main())
