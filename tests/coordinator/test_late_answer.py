#!/usr/bin/env python3
"""test_late_answer.py: the rule for late answers (coordinator/lease.h, rule 1) with real processes,
for every job kind: a worker stopped (SIGSTOP) past its lease but not past its liveness loses its
lease; resumed (SIGCONT), it answers, and its answer is taken, not dropped; the result is exact.

usage: test_late_answer.py KIND --bin DIR --octad PATH      (KIND: perft, analyse, solve)
The kinds are rows of one table (KINDS): the coordinator's arguments, the worker's, and the check
of the final result against the same job computed by one process.
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import tc  # noqa: E402  (the shared harness)
from tc import check, start_worker  # noqa: E402
import tkinds  # noqa: E402  (the single-process references)

ARGS = None
TMP = None
# Lease 800 ms, liveness 5 x 400 ms = 2000 ms: a worker stopped for 1400 ms loses its lease, not its session.
TIMING = ["--heartbeat-ms", 400, "--liveness", 5, "--lease-ms", 800]
STOP_S = 1.4


def perft_check(res):
    row = tkinds.perft(11)  # its reference: octad perft --depth 11 in one process
    row.exact(res, row.reference())


def analyse_check(res):
    p = subprocess.run([ARGS.octad, "search", "--depth", "14", "--split", "--json", "--hash", "16"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    check(p.returncode == 0, "octad search --split (the reference)")
    want = json.loads(p.stdout)
    keys = ("variant", "position", "depth", "seldepth", "nodes", "bestmove", "ponder", "lines")  # not the times
    check(all(res[k] == want[k] for k in keys), "the analysis equals octad search --split in one process")


def solve_check(res):
    ref = os.path.join(TMP, "ref")
    p = subprocess.run([ARGS.octad, "solve", "--max-pieces", "4", "--tables", ref, "--quiet"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=600)
    check(p.returncode == 0, "octad solve --max-pieces 4 (the reference)")
    with open(os.path.join(ref, "SUMMARY")) as f, open(os.path.join(TMP, "tables", "SUMMARY")) as g:
        check(f.read() == g.read(), "SUMMARY identical to octad solve's")
    check(res["solved"] == res["pairs"], "every pair solved (%d)" % res["pairs"])


# kind: (coordinator arguments, worker arguments, check of the final JSON)
KINDS = {
    "perft": (["--perft", 11, "--split-depth", 2], ["--hash", 0], perft_check),
    # the worker waits 300 ms before each of the 10 moves, so the job outlasts the stop on a fast machine too
    "analyse": (["--analyse", 14, "--multipv", "all", "--hash", 16], ["--test-delay-ms", 300], analyse_check),
    # 33 pairs; the worker waits 150 ms before each, so a pair is running whenever it is stopped
    "solve": (lambda: ["--solve", "--max-pieces", 4, "--tables", os.path.join(TMP, "tables")], ["--test-delay-ms", 150],
              solve_check),
}


def run_kind(kind):
    cargs, wargs, result_check = KINDS[kind]
    cargs = cargs() if callable(cargs) else cargs
    c = tc.Coord(kind, *cargs, "--local-workers", 0, "--json", *TIMING)
    w = start_worker(c, "A", *wargs)
    c.wait_log(r"worker A joined")
    time.sleep(0.3)  # A is computing
    w.send_signal(signal.SIGSTOP)
    time.sleep(STOP_S)
    w.send_signal(signal.SIGCONT)
    res, text = c.finish(timeout=600)
    w.wait(timeout=60)
    check(re.search(r"[1-9]\d* leases expired", text) is not None, "A's lease expired while it was stopped")
    check("silent past its liveness" not in text, "A's session outlived the stop")
    check("(not leased)" not in text, "no answer of A was dropped as not leased: its late answers were taken")
    result_check(res)


def main():
    global ARGS, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=sorted(KINDS))
    ap.add_argument("--bin", required=True)
    ap.add_argument("--octad", required=True)
    ARGS = ap.parse_args()
    tc.ARGS = ARGS
    with tempfile.TemporaryDirectory(prefix="late-") as tmp:
        TMP = tmp
        tc.TMP = tmp
        run_kind(ARGS.case)
    print("PASS " + ARGS.case)


if __name__ == "__main__":
    main()
