#!/usr/bin/env python3
"""csolve.py: `coordinator --solve` with 1 and 2 workers against `octad solve`, in one run.

usage: tools/bench/csolve.py [--bin build/bin] [--pieces 5] [--rounds 3] [--against OTHER/bin]

Each round solves every table up to --pieces into fresh directories, in this order:
  octad solve --threads 1 and --threads 2 (the references),
  coordinator --solve with 1 worker of 1 thread, 2 workers of 1 thread (no shared directory:
  every table travels over tcp://127.0.0.1 in chunks), and 2 workers sharing the directory.
For each it prints the wall time and the CPU time of all its processes (user + system), then
the medians. Every SUMMARY must equal the reference's (the run stops otherwise).

With --against OTHER/bin, two builds side by side instead: each round runs `octad solve
--threads 2` (the reference) once, then for each build (who goes first alternating between
rounds) `coordinator --solve` with 1 worker of 2 threads (a pair takes both) and with 2
workers of 1 thread, tables over the protocol; the medians of both builds.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(procs_fn):
    """Runs procs_fn() (which starts processes and waits for all of them); wall and CPU seconds."""
    c0, t0 = cpu_children(), time.monotonic()
    procs_fn()
    return time.monotonic() - t0, cpu_children() - c0


def octad_solve(args, tables, threads):
    def run():
        subprocess.run([os.path.join(args.bin, "octad"), "solve", "--max-pieces", str(args.pieces), "--threads",
                        str(threads), "--tables", tables, "--quiet"], check=True, stdout=subprocess.DEVNULL)
    return run


def cluster(args, tables, nworkers, shared, tmp, threads=1, bin_dir=None):
    bin_dir = bin_dir or args.bin

    def run():
        ep_file = os.path.join(tmp, "ep")
        if os.path.exists(ep_file):
            os.unlink(ep_file)
        c = subprocess.Popen([os.path.join(bin_dir, "coordinator"), "--solve", "--max-pieces", str(args.pieces),
                              "--tables", tables, "--local-workers", "0", "--bind", "tcp://127.0.0.1:*",
                              "--endpoint-file", ep_file, "--quiet"], stdout=subprocess.DEVNULL)
        while not os.path.exists(ep_file):
            time.sleep(0.005)
        with open(ep_file) as f:
            ep = f.read().strip()
        ws = []
        for k in range(nworkers):
            cache = tables if shared else os.path.join(tmp, "cache-%d-%d" % (k, time.monotonic_ns()))
            ws.append(subprocess.Popen([os.path.join(bin_dir, "worker"), "--connect", ep, "--threads", str(threads),
                                        "--once", "--quiet", "--tables", cache]))
        if c.wait() != 0:
            sys.exit("coordinator failed")
        for w in ws:
            w.wait()
    return run


def against(args):
    """Two builds side by side (see the module's docstring)."""
    builds = [("A " + args.bin, args.bin), ("B " + args.against, args.against)]
    setups = [("1 worker x 2 threads", 1, 2), ("2 workers x 1 thread", 2, 1)]
    print("max-pieces %d, %d rounds, %d cores, load %.1f, %s" % (args.pieces, args.rounds, os.cpu_count(),
                                                                os.getloadavg()[0], time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())))
    res = {}
    with tempfile.TemporaryDirectory(prefix="csolve-ab-") as tmp:
        ref_dir = os.path.join(tmp, "ref")
        wall, cpu = timed(octad_solve(args, ref_dir, 2))
        print("octad solve --threads 2 (the reference): wall %.2f s  cpu %.2f s" % (wall, cpu), flush=True)
        with open(os.path.join(ref_dir, "SUMMARY")) as f:
            ref = f.read()
        for r in range(args.rounds):
            order = builds if r % 2 == 0 else builds[::-1]
            for bname, bdir in order:
                for sname, nworkers, threads in setups:
                    tables = os.path.join(tmp, "r%d-%s-%d" % (r, bname[0], nworkers))
                    wall, cpu = timed(cluster(args, tables, nworkers, False, tmp, threads, bdir))
                    with open(os.path.join(tables, "SUMMARY")) as f:
                        if f.read() != ref:
                            sys.exit("%s, %s: SUMMARY differs from octad solve's" % (bname, sname))
                    res.setdefault((sname, bname), []).append((wall, cpu))
                    print("round %d  %-30s %-24s wall %6.2f s  cpu %6.2f s" % (r + 1, bname, sname, wall, cpu),
                          flush=True)
    print("medians (every SUMMARY identical to octad solve's):")
    for (sname, bname), v in sorted(res.items()):
        print("  %-24s %-30s wall %6.2f s (%.2f to %.2f)  cpu %6.2f s" % (
            sname, bname, statistics.median(w for w, _ in v), min(w for w, _ in v), max(w for w, _ in v),
            statistics.median(c for _, c in v)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/bin")
    ap.add_argument("--pieces", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--against", help="another build's bin directory: the two side by side")
    args = ap.parse_args()
    if args.against:
        against(args)
        return
    configs = [("octad solve --threads 1", lambda a, t, tmp: octad_solve(a, t, 1)),
               ("octad solve --threads 2", lambda a, t, tmp: octad_solve(a, t, 2)),
               ("coordinator --solve, 1 worker x 1 thread", lambda a, t, tmp: cluster(a, t, 1, False, tmp)),
               ("coordinator --solve, 2 workers x 1 thread", lambda a, t, tmp: cluster(a, t, 2, False, tmp)),
               ("coordinator --solve, 2 workers x 1 thread, shared dir", lambda a, t, tmp: cluster(a, t, 2, True, tmp))]
    print("max-pieces %d, %d rounds, %d cores, load %.1f, %s" % (args.pieces, args.rounds, os.cpu_count(),
                                                                os.getloadavg()[0], time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())))
    res = {name: [] for name, _ in configs}
    with tempfile.TemporaryDirectory(prefix="csolve-bench-") as tmp:
        ref = None
        for r in range(args.rounds):
            for k, (name, make) in enumerate(configs):
                tables = os.path.join(tmp, "r%d-%d" % (r, k))
                wall, cpu = timed(make(args, tables, tmp))
                with open(os.path.join(tables, "SUMMARY")) as f:
                    s = f.read()
                ref = ref or s
                if s != ref:
                    sys.exit("%s: SUMMARY differs from the reference" % name)
                res[name].append((wall, cpu))
                print("round %d  %-52s wall %6.2f s  cpu %6.2f s" % (r + 1, name, wall, cpu), flush=True)
    print("medians (every SUMMARY identical):")
    base = statistics.median(w for w, _ in res[configs[0][0]])
    for name, _ in configs:
        w = statistics.median(x for x, _ in res[name])
        c = statistics.median(x for _, x in res[name])
        print("  %-52s wall %6.2f s  cpu %6.2f s  wall vs octad solve --threads 1: %.2fx" % (name, w, c, base / w))


if __name__ == "__main__":
    main()
