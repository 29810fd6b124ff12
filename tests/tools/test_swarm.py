#!/usr/bin/env python3
"""test_swarm.py: the swarm tool (tools/swarm) against a real coordinator over real sockets.

usage: test_swarm.py CASE --bin DIR --swarm PATH      (CASE: exact, vanish, usage)
  exact   50 sessions compute perft 7 of octad (split depth 3): the coordinator counts 50 workers, its
          total is the reference, and the sessions answered every task it took.
  vanish  30% of 20 sessions go silent at once mid-job: the coordinator declares them dead, puts
          their tasks back, and the total is still exact.
  lost    the coordinator killed mid-job: every session gives up on it, and the swarm exits 1.
  usage   bad options are refused with exit status 2, naming the option.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import tc  # noqa: E402  (the shared harness)
from tc import check  # noqa: E402

ARGS = None


def swarm(coord, *args, timeout=120):
    """Runs the swarm against coord to its end: (exit status, its JSON summary or None, its stderr)."""
    p = subprocess.run([ARGS.swarm, "--connect", coord.ep, "--json"] + [str(a) for a in args],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    tc.check_clean(p.stderr)
    try:
        return p.returncode, json.loads(p.stdout), p.stderr
    except ValueError:
        return p.returncode, None, p.stderr


def case_exact():
    c = tc.Coord("exact", "--perft", 7, "--local-workers", 0, "--split-depth", 3, "--json")
    rc, out, err = swarm(c, "--sessions", 50, "--name-prefix", "bee")
    res, text = c.finish(timeout=120)
    check(rc == 0, "the swarm exits 0 (%s)" % err.strip()[-300:])
    check(res["match"] and res["nodes"] == res["expected"], "perft 7 total %d is the reference" % res["nodes"])
    check(res["workers"] == 50, "the coordinator counts 50 workers (%d)" % res["workers"])
    names = set(re.findall(r"worker (bee-\d+) joined", text))
    check(names == {"bee-%d" % i for i in range(50)}, "every session joined under its own name (%d)" % len(names))
    check(out["welcomed"] == 50 and out["ended"] == 50, "50 sessions welcomed and ended by BYE")
    # Every task counted once; the sessions also answer the copies idle sessions got of the last running tasks
    # (coordinator/lease.h, rule 3), unless the job ended first.
    check(res["results"] == res["tasks"] <= out["answered"] <= res["tasks"] + res["copies"],
          "the sessions answered every task (%d answers, %d tasks, %d copies)" % (out["answered"], res["tasks"],
                                                                              res["copies"]))
    check(out["refused"] == 0 and out["dropped"] == 0, "no task refused, no message dropped")


def case_vanish():
    # heartbeat 100 ms, liveness 3: a silent session is dead after 300 ms; lease 400 ms. The job (12,836 tasks)
    # takes about 1 s of one core, so it outlasts the vanishing at 150 ms.
    c = tc.Coord("vanish", "--perft", 10, "--local-workers", 0, "--split-depth", 5, "--json",
                 "--heartbeat-ms", 100, "--liveness", 3, "--lease-ms", 400)
    rc, out, err = swarm(c, "--sessions", 20, "--vanish-after", 150, "--vanish-fraction", 0.3)
    res, text = c.finish(timeout=120)
    check(rc == 0, "the swarm exits 0 (%s)" % err.strip()[-300:])
    check(out["vanished"] == 6 and out["ended"] == 14, "6 of 20 sessions vanished, 14 ended by BYE")
    check(res["match"] and res["nodes"] == res["expected"], "perft 10 total %d is the reference" % res["nodes"])
    dead = set(re.findall(r"worker (swarm-\d+) left \(silent past its liveness\)", text))
    check(dead == {"swarm-%d" % i for i in range(6)}, "the coordinator declared the 6 vanished sessions dead (%s)"
          % sorted(dead))
    check(res["requeued"] > 0, "their tasks went back to the queue (%d)" % res["requeued"])


def case_lost():
    c = tc.Coord("lost", "--perft", 11, "--local-workers", 0, "--split-depth", 6, "--json")
    s = subprocess.Popen([ARGS.swarm, "--connect", c.ep, "--json", "--sessions", "5"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    c.wait_log(r"worker swarm-\d+ joined", count=5)
    c.p.kill()
    c.p.wait()
    try:
        out, err = s.communicate(timeout=60)  # the sessions give up after 10 s of silence
    except subprocess.TimeoutExpired:
        s.kill()
        s.wait()
        tc.fail("the swarm still runs 60 s after its coordinator was killed")
    out = json.loads(out)
    check(s.returncode == 1, "the swarm exits 1 when its coordinator is gone (%d)" % s.returncode)
    check(out["lost"] == 5 and err.count("the coordinator is silent") == 5, "every session lost its coordinator")


def case_usage():
    rows = [([], "--connect"), (["--connect", "tcp://127.0.0.1:1", "--sessions", "0"], "--sessions"),
            (["--connect", "tcp://127.0.0.1:1", "--vanish-fraction", "2"], "--vanish-fraction"),
            (["--connect", "tcp://127.0.0.1:1", "--threads", "x"], "--threads")]
    for args, name in rows:
        p = subprocess.run([ARGS.swarm] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
        check(p.returncode == 2 and name in p.stderr, "swarm %s: exit 2 naming %s" % (" ".join(args), name))


CASES = {"exact": case_exact, "vanish": case_vanish, "lost": case_lost, "usage": case_usage}


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--bin", required=True)
    ap.add_argument("--swarm", required=True)
    ARGS = ap.parse_args()
    tc.ARGS = ARGS
    with tempfile.TemporaryDirectory(prefix="swarm-") as tmp:
        tc.TMP = tmp
        CASES[ARGS.case]()
    print("PASS " + ARGS.case)


if __name__ == "__main__":
    main()
