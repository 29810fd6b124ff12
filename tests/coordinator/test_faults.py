#!/usr/bin/env python3
"""test_faults.py: fault cases of the cluster, written once and run for each job kind (perft, analyse,
solve: the rows of tests/fixtures/tkinds.py), with real coordinator, worker and hostile-peer processes
over tcp://127.0.0.1; each job's result must equal the single-process answer. The cases the kinds' own
scripts already have (test_cluster, test_canalyse, test_csolve, test_late_answer, test_hostile) are
not repeated; docs/cluster-design.md, "Fault cases by kind", has the whole table.

usage: test_faults.py CASE_KIND --bin DIR --octad PATH --peer PATH      (e.g. late_join_analyse)
Cases:
  late_join     a second worker joins once the first has answered tasks: it takes tasks too
  stop_worker   a worker stopped (SIGSTOP) past its lease and its liveness loses its session; another
                worker does its task; what it sends when it resumes does not count twice
  refuse        a worker that REFUSEs every task (test_hostile_peer refuser): the job waits for another
                worker and is exact; with the refuser alone it ends after --stall-timeout (exit 1)
  curve_liar    --verify under CURVE: two worker processes under one key, both wrong on every answer
                (--inject-fault 1), count as one voter, so their agreement settles nothing; two honest
                keys outvote them
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import tc  # noqa: E402  (the shared harness)
from tc import check, prog, reap  # noqa: E402
from tkinds import KINDS  # noqa: E402  (the job kinds as rows)

ARGS = None
KIND = None
# Silent after 3 x 200 ms: a session is declared dead 0.6 s after its worker stops.
FAST = ["--heartbeat-ms", 200, "--liveness", 3]


def coord(tag, *extra):
    """A coordinator of KIND's job with no local worker, --json, a status page on a free port (c.base)."""
    c = tc.Coord(tag, *KIND.job(), "--local-workers", 0, "--json", *FAST, "--http", 0, *extra)
    c.base = "http://127.0.0.1:%s" % c.wait_log(r"status on http://127\.0\.0\.1:(\d+)/ ")[0]
    return c


def worker(c, name, *extra):
    return tc.start_worker(c, name, *KIND.work, *extra)


def status(c):
    with urllib.request.urlopen(c.base + "/status", timeout=10) as r:
        return json.loads(r.read().decode())


def wait_status(c, what, pred, timeout=60):
    """The first /status for which pred holds; fails after timeout seconds."""
    end = time.time() + timeout
    while time.time() < end:
        s = status(c)
        if pred(s):
            return s
        time.sleep(0.05)
    tc.fail("timeout waiting for %s; last /status: %s" % (what, json.dumps(status(c))[:2000]))


def done_by(s, name):
    return sum(w["tasks_done"] for w in s["workers"] if w["name"] == name)


def case_late_join():
    ref = KIND.reference()
    c = coord("late_join")
    a = worker(c, "A", *KIND.slow)
    wait_status(c, "A's first two answers", lambda s: done_by(s, "A") >= 2)
    b = worker(c, "B", *KIND.slow)
    res, text = c.finish(timeout=240)
    reap(a, b)
    who = KIND.who(res, text)
    check(text.index("worker A joined") < text.index("worker B joined"), "B joined after A")
    check(who.get("A", 0) >= 2 and who.get("B", 0) >= 1,
          "the late worker B took tasks of the running job (A %d, B %d)" % (who.get("A", 0), who.get("B", 0)))
    KIND.exact(res, ref)


def case_stop_worker():
    ref = KIND.reference()
    c = coord("stop_worker")
    # A task of A's lasts 1.5 s (for the kinds that can wait): A is stopped while it holds one.
    a = worker(c, "A", *(["--test-delay-ms", 1500] if KIND.slow else []))
    wait_status(c, "A holding a task", lambda s: any(w["name"] == "A" and w["leased"] >= 1 for w in s["workers"]))
    a.send_signal(signal.SIGSTOP)
    c.wait_log(r"worker A left \(silent past its liveness\)")
    b = worker(c, "B", *KIND.slow)
    time.sleep(0.5)
    a.send_signal(signal.SIGCONT)
    res, text = c.finish(timeout=240)
    reap(a, b)
    check(re.search(r"worker A left \(silent past its liveness\); [1-9]\d* tasks back in the queue", text) is not None
          or re.search(r"[1-9]\d* leases expired; tasks back in the queue", text) is not None,
          "the stopped worker's session died and its task went back to the queue (then, or when its lease expired)")
    who = KIND.who(res, text)
    check(who.get("B", 0) >= 1, "B took the task over (%d tasks)" % who.get("B", 0))
    KIND.exact(res, ref)


def refuser(c, seconds=60):
    return subprocess.Popen([ARGS.peer, "refuser", c.ep, "--name", "refuser", "--seconds", str(seconds), "--protocol", "4"],
                            stdout=subprocess.PIPE, text=True)


def refuser_summary(p):
    p.kill()
    out, _ = p.communicate(timeout=30)
    m = re.search(r"refused (\d+)", out)
    return int(m.group(1)) if m else 0


def case_refuse():
    ref = KIND.reference()
    c = coord("refuse")
    r = refuser(c)
    c.wait_log(r"worker refuser refused task")
    w = worker(c, "honest")
    res, text = c.finish(timeout=240)
    reap(w)
    refused = refuser_summary(r)
    check(refused >= 1 and "waiting for another worker" in text,
          "the refuser refused %d tasks; the refusal said it waits for another worker" % refused)
    check(KIND.who(res, text).get("refuser", 0) == 0, "no task is credited to the refuser")
    KIND.exact(res, ref)
    # Alone, the refuser leaves a task no worker takes: the job ends after --stall-timeout.
    shutil.rmtree(os.path.join(tc.TMP, "tables"), ignore_errors=True)  # solve: a job not done yet
    c = coord("refuse_alone", "--stall-timeout", 2000)
    r = refuser(c)
    try:
        _, text = c.finish(want_rc=1, timeout=60)
    except subprocess.TimeoutExpired:
        c.p.kill()
        tc.fail("with the refuser alone the job did not end within 60 s (--stall-timeout 2 s):\n" + c.text()[-2000:])
    finally:
        refuser_summary(r)
    check("no worker accepts task" in text, "with the refuser alone the job ends with exit 1 after --stall-timeout")


def case_curve_liar():
    ref = KIND.reference()
    for name in ("coord", "liar", "good1", "good2"):
        check(subprocess.run(prog("coordinator", "keygen", os.path.join(tc.TMP, name)),
                             stdout=subprocess.DEVNULL).returncode == 0, "keygen " + name)
    key = lambda name, ext: os.path.join(tc.TMP, "%s.%s" % (name, ext))
    allow = [a for n in ("liar", "good1", "good2") for a in ("--allow", key(n, "pub"))]
    c = coord("curve_liar", "--verify", "--curve-secret", key("coord", "key"), *allow)
    keys = lambda k: ["--server-key", key("coord", "pub"), "--secret", key(k, "key")]
    # The liars start alone, so that they take tasks before anyone else can answer them.
    liars = [worker(c, "liar-%d" % k, "--inject-fault", 1, *keys("liar")) for k in (1, 2)]
    wait_status(c, "both liars working", lambda s: sum(w["name"].startswith("liar-") for w in s["workers"]) == 2)
    time.sleep(0.5)
    good = [worker(c, n, *keys(n)) for n in ("good1", "good2")]
    res, text = c.finish(timeout=240)
    reap(*liars, *good)
    KIND.exact(res, ref)
    check(re.search(r"disagree", text) is not None, "the liars' answers were disputed")
    # under CURVE a session is logged by its key's principal: the first name seen with the key
    liar_keys = re.findall(r"worker liar-\d \[key (\w+)\] joined", text)
    check(len(liar_keys) >= 2 and len(set(liar_keys)) == 1, "the two liar processes joined under one key")
    check(re.search(r"worker good1 \[key \w+\] joined", text) and re.search(r"worker good2 \[key \w+\] joined", text),
          "the two honest keys joined")


def main():
    global ARGS, KIND
    ap = argparse.ArgumentParser()
    ap.add_argument("case_kind", help="CASE_KIND: a case and a kind, e.g. late_join_analyse")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--octad", required=True)
    ap.add_argument("--peer", required=True)
    ARGS = ap.parse_args()
    case, _, kind = ARGS.case_kind.rpartition("_")
    if "case_" + case not in globals() or kind not in KINDS:
        tc.fail("unknown case or kind: %s (CASE_KIND, KIND one of %s)" % (ARGS.case_kind, ", ".join(sorted(KINDS))))
    KIND = KINDS[kind]
    tc.ARGS = ARGS
    with tempfile.TemporaryDirectory(prefix="faults-") as tmp:
        tc.TMP = tmp
        os.environ["TMPDIR"] = tmp  # the solve workers' private caches land here
        globals()["case_" + case]()
    print("PASS %s %s" % (case, kind))


if __name__ == "__main__":
    main()
