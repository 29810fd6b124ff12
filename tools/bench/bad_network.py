#!/usr/bin/env python3
"""bad_network.py: a perft job through a bad network, side by side with a clean one (docs/bad-networks.md).

usage: bad_network.py [--cases clean,loss5,...] [--rounds N] [--depth D] [--partition-seconds S]
                      [--no-clean] [--bin DIR] [--octad PATH] [--script PATH]

Each case runs deploy/netns-cluster.sh (a coordinator and 3 one-thread workers, each in its own
network namespace, as root) with one fault, rounds interleaved (clean, fault, clean, fault ...)
so the machine's load falls on both alike, and prints per case the median wall time of the job,
the time lost against the clean run of the same depth, the sessions, re-queued tasks, and for a
partition how long after the heal each cut-off worker took a task again. Every total must equal
the single process's (`octad perft --depth D`), and every cut-off worker must work again within
the lease (3 s) plus one second after its heal: otherwise the line says FAIL and the exit status
is 1. Exit status 77 when the namespaces cannot be made (not root, no nft/tc/ip): the reason is
printed.

Cases (the partition cases run one depth deeper, so the other workers are still busy at the heal):
  clean             no fault
  loss5, loss20     5% / 20% of the packets dropped each way at the coordinator (nftables)
  partition_worker  worker 1 cut off from the coordinator for S seconds (default 30), then healed
  partition_all     every worker cut off for S seconds, then healed
  rate              every link capped at 1 Mbit/s each way (tc tbf)
  resets            connections reset at random, mean life 2 s (tools/reset_proxy.py)
  quick             5% loss and worker 1 cut off for 5 s (the CI case)
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LEASE_S = 3.0  # the coordinator's default lease (heartbeat 1 s x liveness 3)


def case_args(name, seconds):
    """(extra netns-cluster.sh arguments, depth offset) of a case."""
    table = {
        "clean": ([], 0),
        "loss5": (["--loss", "5"], 0),
        "loss20": (["--loss", "20"], 0),
        "partition_worker": (["--partition", "w1:3:%g" % seconds], 1),
        "partition_all": (["--partition", "all:3:%g" % seconds], 0),
        "rate": (["--rate", "1mbit"], 0),
        "resets": (["--resets", "2"], 0),
        "quick": (["--loss", "5", "--partition", "w1:2:5"], 0),
    }
    if name not in table:
        sys.exit("bad_network: unknown case %r (%s)" % (name, ", ".join(table)))
    return table[name]


def single_count(octad, depth):
    out = subprocess.run([octad, "perft", "--depth", str(depth), "--quiet"], stdout=subprocess.PIPE, text=True,
                         check=True).stdout
    return int(re.search(r"^nodes +(\d+)$", out, re.M).group(1))


def run_one(args, extra, depth):
    """One job through netns-cluster.sh: a dict of its figures, or exits 77 when it skipped."""
    t0 = time.time()
    p = subprocess.run(["bash", args.script, "--workers", "3", "--perft", str(depth), "--bin", args.bin] + extra +
                       ["--", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=1800)
    wall = time.time() - t0
    if p.returncode == 77:
        print("SKIP: " + p.stderr.strip().splitlines()[-1])
        sys.exit(77)
    res = None
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            res = json.loads(line)
    back = [None if m.group(1) == "never" else float(m.group(1))
            for m in re.finditer(r"working again (never|[\d.]+)", p.stderr)]
    resets = re.search(r"the proxy reset (\d+) connections", p.stderr)
    return {"rc": p.returncode, "res": res, "wall": wall, "job": res["seconds"] if res else None,
            "back": back, "resets": int(resets.group(1)) if resets else 0, "err": p.stderr}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default="loss5,loss20,partition_worker,partition_all,rate,resets")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--depth", type=int, default=13)
    ap.add_argument("--partition-seconds", type=float, default=30)
    ap.add_argument("--no-clean", action="store_true", help="no clean runs (a check, not a measurement)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--octad", default=None)
    ap.add_argument("--script", default=os.path.join(ROOT, "deploy", "netns-cluster.sh"))
    args = ap.parse_args()
    args.octad = args.octad or os.path.join(args.bin, "octad")
    cases = [c for c in args.cases.split(",") if c]
    plan = {c: case_args(c, args.partition_seconds) for c in cases + ["clean"]}
    depths = sorted({args.depth + off for _, off in plan.values()})
    want = {d: single_count(args.octad, d) for d in depths}
    runs = {}  # (case, depth) -> [run]
    ok = True
    for r in range(args.rounds):
        for c, d in [("clean", d) for d in depths if not args.no_clean] + [(c, args.depth + plan[c][1]) for c in cases if c != "clean"]:
            run = run_one(args, plan[c][0], d)
            runs.setdefault((c, d), []).append(run)
            exact = run["res"] is not None and run["rc"] == 0 and run["res"]["nodes"] == want[d]
            late = [b for b in run["back"] if b is None or b > LEASE_S + 1]
            verdict = "ok" if exact and not late else "FAIL"
            ok = ok and verdict == "ok"
            print("round %d %-16s perft %d: %s, job %.1f s, total %s%s%s" % (
                r + 1, c, d, verdict, run["job"] or 0, run["res"]["nodes"] if run["res"] else "none",
                ", back %s s after the heal" % run["back"] if run["back"] else "",
                ", %d resets" % run["resets"] if run["resets"] else ""), flush=True)
            if verdict != "ok":
                print(run["err"][-3000:], file=sys.stderr)
    print("\n| case | perft | job s (median) | clean s (median) | lost s | sessions | re-queued | back after heal s (max) |")
    print("|---|---|---|---|---|---|---|---|")
    for (c, d), rs in runs.items():
        med = statistics.median(x["job"] for x in rs if x["job"] is not None)
        clean = statistics.median(x["job"] for x in runs.get(("clean", d), [{"job": float("nan")}]))
        backs = [b for x in rs for b in x["back"] if b is not None]
        print("| %s | %d | %.1f | %.1f | %+.1f | %s | %s | %s |" % (
            c, d, med, clean, med - clean, statistics.median(x["res"]["workers"] for x in rs if x["res"]),
            statistics.median(x["res"]["requeued"] for x in rs if x["res"]), "%.1f" % max(backs) if backs else "-"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
