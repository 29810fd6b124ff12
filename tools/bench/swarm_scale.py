#!/usr/bin/env python3
"""swarm_scale.py: one coordinator against N worker sessions of the swarm (tools/swarm), for several N.

usage: tools/bench/swarm_scale.py [--build DIR] [--sessions 100,300,1000] [--perft 11] [--split-depth 6]
                                  [--threads 2] [--rounds 3] [--vanish-fraction F --vanish-after MS]

Each round starts `coordinator --perft D --split-depth S --local-workers 0 --json` under /usr/bin/time
(its peak resident memory) and then `swarm --sessions N`; the sizes take turns within a round, so machine
noise falls on all alike. Reported, medians over the rounds: the coordinator's own CPU seconds (its
getrusage, from its --json), tasks per coordinator CPU-second, its peak resident memory (and that over
the number of sessions, an upper bound of the memory per worker: the job's own tables are included),
the time until the coordinator logged every session's join, the swarm's wall time (join included), tasks
per wall second, and the swarm's CPU seconds. With --vanish-after, that share of the sessions goes silent
at once and requeue_s is the time from the swarm's "vanish now" until the coordinator has declared every
one of them dead (their tasks are back in the queue by then; -1: not seen). Every run must end with the
reference total.
"""
import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository


def one(args, n, tmp):
    log, ep_file = os.path.join(tmp, "coord.log"), os.path.join(tmp, "coord.ep")
    if os.path.exists(ep_file):
        os.unlink(ep_file)
    extra = ["--heartbeat-ms", str(args.heartbeat_ms)] if args.heartbeat_ms else []
    with open(log, "w") as err:
        c = subprocess.Popen(["/usr/bin/time", "-f", "maxrss_kb %M",
                              os.path.join(args.build, "bin", "coordinator"), "--perft", str(args.perft),
                              "--split-depth", str(args.split_depth), "--local-workers", "0", "--json",
                              "--bind", "tcp://127.0.0.1:*", "--endpoint-file", ep_file] + extra,
                             stdout=subprocess.PIPE, stderr=err, text=True)
    while not os.path.exists(ep_file):
        if c.poll() is not None:
            sys.exit("swarm_scale.py: the coordinator exited early: " + open(log).read())
        time.sleep(0.01)
    ep = open(ep_file).read().strip()
    cmd = [os.path.join(args.build, "tools", "swarm", "swarm"), "--connect", ep, "--sessions", str(n),
           "--threads", str(args.threads), "--json"]
    if args.vanish_after:
        cmd += ["--vanish-after", str(args.vanish_after), "--vanish-fraction", str(args.vanish_fraction)]
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    slog = os.path.join(tmp, "swarm.log")
    with open(slog, "w") as serr_file:
        s = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=serr_file, text=True)
    joined = vanished = requeue = None
    gone = round(args.vanish_fraction * n) if args.vanish_after else 0
    while s.poll() is None:
        now = time.monotonic()
        if joined is None and len(re.findall(r" joined \(", open(log).read())) >= n:
            joined = now - t0
        if gone and vanished is None and "vanish now" in open(slog).read():
            vanished = now
        if vanished is not None and requeue is None and open(log).read().count("silent past its liveness") >= gone:
            requeue = now - vanished
        time.sleep(0.01)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out, _ = s.communicate()
    serr = open(slog).read()
    cout, _ = c.communicate(timeout=120)
    text = open(log).read()
    if s.returncode != 0 or c.returncode != 0:
        sys.exit("swarm_scale.py: swarm %d / coordinator %d: %s\n%s" % (s.returncode, c.returncode, serr, text[-2000:]))
    res = json.loads(cout)
    if not res.get("match"):
        sys.exit("swarm_scale.py: total %s is not the reference %s" % (res["nodes"], res.get("expected")))
    rss = int(re.findall(r"maxrss_kb (\d+)", text)[-1])
    return {"cpu": res["cpu_seconds"], "tasks": res["tasks"], "workers": res["workers"], "requeued": res["requeued"],
            "rss_mb": rss / 1024, "rss_per_session_kb": rss / n, "join_s": joined if joined is not None else wall,
            "wall_s": wall, "swarm_cpu": (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime),
            "tasks_per_cpu_s": res["tasks"] / res["cpu_seconds"], "tasks_per_s": res["tasks"] / wall,
            "left": len(re.findall(r"silent past its liveness", text)),
            "requeue_s": requeue if requeue is not None else -1}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(HERE, "build"))
    ap.add_argument("--sessions", default="100,300,1000")
    ap.add_argument("--perft", type=int, default=11)
    ap.add_argument("--split-depth", type=int, default=6)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--heartbeat-ms", type=int, default=0)
    ap.add_argument("--vanish-after", type=int, default=0)
    ap.add_argument("--vanish-fraction", type=float, default=0.3)
    args = ap.parse_args()
    sizes = [int(x) for x in args.sessions.split(",")]
    runs = {n: [] for n in sizes}
    with tempfile.TemporaryDirectory(prefix="swarm-scale-") as tmp:
        for r in range(args.rounds):
            for n in sizes:
                runs[n].append(one(args, n, tmp))
                print("round %d, %d sessions: %s" % (r + 1, n, json.dumps(runs[n][-1])), file=sys.stderr)
    keys = ["workers", "tasks", "cpu", "tasks_per_cpu_s", "rss_mb", "rss_per_session_kb", "join_s", "wall_s",
            "tasks_per_s", "swarm_cpu", "requeued", "left"] + (["requeue_s"] if args.vanish_after else [])
    print("| sessions | " + " | ".join(keys) + " |")
    print("|" + "---|" * (len(keys) + 1))
    for n in sizes:
        med = [statistics.median(x[k] for x in runs[n]) for k in keys]
        print("| %d | " % n + " | ".join(("%.4g" % v) for v in med) + " |")


if __name__ == "__main__":
    main()
