#!/usr/bin/env python3
"""test_straggler.py: one worker ten times slower than the others (stopped 90% of the time by a
SIGSTOP/SIGCONT duty cycle: it really runs a tenth as fast) must not hold up the end of a job: once
the queue is empty, an idle worker gets a copy of the straggler's task (coordinator/lease.h, rule 3)
and the first answer counts. Real coordinator and worker processes over real sockets.

usage: test_straggler.py CASE --bin DIR --octad PATH [--rounds N]
  copies    perft 12 in 10 tasks, two workers and a straggler, with copies and with --no-copies, both
            jobs at once (the machine's load falls on both alike): exact both times; copies given only
            in the first; the job ends sooner with them
  verify    the same under --verify with three workers and a straggler: exact, copies given
  measure   `copies` N times (default 3) side by side: the median job time with and without copies
"""
import argparse
import os
import re
import signal
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import tc  # noqa: E402  (the shared harness)
from tc import check, start_worker  # noqa: E402

ARGS = None
DEPTH, SPLIT = 12, 1  # 10 tasks (the root moves) of 0.2-1.8e9 nodes: the straggler's takes about ten times longer
RUN_MS, STOP_MS = 2, 98  # the straggler runs 2% of the time (with the scheduler's favour to a woken process, 5-10x slower here)


def duty_cycle(pid, stop):
    """Stops and continues pid until stop is set (then leaves it running)."""
    while not stop.is_set():
        try:
            os.kill(pid, signal.SIGSTOP)
            time.sleep(STOP_MS / 1000)
            os.kill(pid, signal.SIGCONT)
            time.sleep(RUN_MS / 1000)
        except ProcessLookupError:
            return
    try:
        os.kill(pid, signal.SIGCONT)
    except ProcessLookupError:
        pass


def single_count():
    rc, out, _ = tc.run([ARGS.octad, "perft", "--depth", str(DEPTH), "--quiet"])
    m = re.search(r"^nodes +(\d+)$", out, re.M)
    check(rc == 0 and m is not None, "octad perft --depth %d (one process)" % DEPTH)
    return int(m.group(1))


def run_job(tag, fast, *extra):
    """A perft job with `fast` normal workers and one straggler: (its JSON result, its log)."""
    c = tc.Coord(tag, "--perft", DEPTH, "--split-depth", SPLIT, "--local-workers", 0, "--json", *extra)
    slow = start_worker(c, "%s-slow" % tag)
    stop = threading.Event()
    cycler = threading.Thread(target=duty_cycle, args=(slow.pid, stop))
    cycler.start()
    # The straggler first, so that it holds a task of the first round (about 1/10 of the job) at its pace.
    c.wait_log(r"worker %s-slow joined" % tag)
    workers = [start_worker(c, "%s-fast%d" % (tag, k)) for k in range(fast)]
    try:
        res, text = c.finish(timeout=300)
    finally:
        stop.set()
        cycler.join()
        for w in workers + [slow]:
            try:
                w.wait(timeout=30)
            except Exception:  # noqa: BLE001  (a worker that missed its BYE)
                w.kill()
                w.wait()
    for name in ["%s-fast%d" % (tag, k) for k in range(fast)] + ["%s-slow" % tag]:
        with open(os.path.join(tc.TMP, "worker-%s.log" % name)) as f:
            tc.check_clean(f.read())
    return res, text


def side_by_side(tag):
    """The job with copies and with --no-copies at the same time, so that the machine's load falls on both
    alike: ((result, log) with copies, (result, log) without)."""
    out = {}
    runs = [threading.Thread(target=lambda k=k, x=x: out.__setitem__(k, run_job(tag + k, 2, *x)))
            for k, x in (("c", ()), ("n", ("--no-copies",)))]
    for t in runs:
        t.start()
    for t in runs:
        t.join()
    if len(out) != 2:
        tc.fail("a job of the pair did not finish")
    return out["c"], out["n"]


def case_copies():
    want = single_count()
    (res, text), (base, _) = side_by_side("copies")
    print("perft %d, 2 workers and a straggler: %.1f s with copies (%d copies, %d duplicates), %.1f s without" % (
        DEPTH, res["seconds"], res["copies"], res["duplicates"], base["seconds"]))
    check(res["nodes"] == want and base["nodes"] == want, "both totals are the single process's %d" % want)
    check(res["results"] == res["tasks"], "every task counted once (%d results)" % res["results"])
    check(res["copies"] >= 1, "an idle worker got a copy of the straggler's task (%d copies)" % res["copies"])
    check(re.search(r"task \d+ copied to idle worker copiesc-fast\d", text) is not None, "the copy is logged")
    check(base["copies"] == 0, "--no-copies gives none")
    check(res["seconds"] < base["seconds"], "the job ends sooner with copies (%.1f s < %.1f s)" % (
        res["seconds"], base["seconds"]))


def case_verify():
    want = single_count()
    res, _ = run_job("verify", 3, "--verify")
    print("perft %d under --verify, 3 workers and a straggler: %.1f s, %d copies, %d duplicates" % (
        DEPTH, res["seconds"], res["copies"], res["duplicates"]))
    check(res["nodes"] == want, "the total is the single process's %d" % want)
    check(res["copies"] >= 1, "an idle worker got a copy (%d copies)" % res["copies"])
    check(res["disagreements"] == 0, "no disagreement")


def case_measure():
    want = single_count()
    with_c, without = [], []
    for r in range(ARGS.rounds):
        (res, _), (base, _) = side_by_side("m%d" % r)
        check(res["nodes"] == want and base["nodes"] == want, "round %d exact both ways" % (r + 1))
        with_c.append(res["seconds"])
        without.append(base["seconds"])
        print("round %d: %.2f s with copies (%d), %.2f s without" % (r + 1, res["seconds"], res["copies"],
                                                                     base["seconds"]), flush=True)
    print("median: %.2f s with copies, %.2f s without (%d rounds)" % (statistics.median(with_c),
                                                                     statistics.median(without), ARGS.rounds))


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["copies", "verify", "measure"])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--octad", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ARGS = ap.parse_args()
    tc.ARGS = ARGS
    with tempfile.TemporaryDirectory() as tmp:
        tc.TMP = tmp
        {"copies": case_copies, "verify": case_verify, "measure": case_measure}[ARGS.case]()
    print("PASS")


if __name__ == "__main__":
    main()
