#!/usr/bin/env python3
"""status_load.py: what `coordinator --status` costs a job: the same perft without --status, with
--status and nobody asking, and with --status under wrk load on /status, interleaved round by round.

    python3 tools/bench/status_load.py [BIN_DIR] [--rounds R] [--connections C] [--depth D]

Each run is `coordinator --perft D --split-depth 4 --hash 0 --local-workers 1 --json` (octad start,
default D 12); its time is the --json "seconds" (the run's wall time). Under load, wrk (1 thread, C
connections, default 16, keep-alive) requests GET /status from the moment the port is printed until
the job ends. Prints every run and the medians. wrk, the coordinator and its worker share the
machine's cores: the figures are for all of them on one machine.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time


def run(bindir, depth, mode, conns):
    cmd = [os.path.join(bindir, "coordinator"), "--perft", str(depth), "--split-depth", "4", "--hash", "0",
           "--local-workers", "1", "--json"]
    if mode != "off":
        cmd += ["--http", "0"]
    with tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True)
        wrk, requests = None, ""
        if mode == "load":
            port = None
            while port is None and p.poll() is None:
                err.seek(0)
                m = re.search(r"status on http://127\.0\.0\.1:(\d+)/", err.read())
                port = m.group(1) if m else None
                time.sleep(0.005)
            wrk = subprocess.Popen(["wrk", "-t1", "-c%d" % conns, "-d600s", "http://127.0.0.1:%s/status" % port],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        out, _ = p.communicate(timeout=900)
        if wrk is not None:
            wrk.send_signal(2)  # SIGINT: wrk prints its summary
            text = wrk.communicate(timeout=30)[0]
            m = re.search(r"(\d+) requests in", text)
            requests = m.group(1) if m else "?"
        if p.returncode != 0:
            sys.exit("coordinator exited %d" % p.returncode)
        return json.loads(out)["seconds"], requests


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bindir", nargs="?", default="build/bin")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--depth", type=int, default=12)
    a = ap.parse_args()
    times = {"off": [], "idle": [], "load": []}
    for r in range(a.rounds):
        for mode in ("off", "idle", "load"):
            sec, req = run(a.bindir, a.depth, mode, a.connections)
            times[mode].append(sec)
            print("round %d  %-4s  %.3f s%s" % (r + 1, mode, sec, ("  (%s requests of /status)" % req) if req else ""),
                  flush=True)
    for mode in ("off", "idle", "load"):
        print("median %-4s %.3f s  (%s)" % (mode, statistics.median(times[mode]),
                                           " ".join("%.3f" % t for t in times[mode])))


if __name__ == "__main__":
    main()
