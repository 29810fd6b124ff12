#!/usr/bin/env python3
"""test_resets.py: connections cut at random (tools/reset_proxy.py between the workers and the
coordinator, on loopback, no root needed) cost a session, never a count, and a worker cut off
starts over at once: the coordinator's ERROR NOT_WELCOME to the reconnected socket comes in the
session's protocol version, so the worker takes it and says HELLO again, instead of waiting
out its liveness ("coordinator silent").

usage: test_resets.py KIND --bin DIR --octad PATH --proxy PATH      (KIND: perft, analyse, solve)
Each kind's job (tests/fixtures/tkinds.py) lasts long enough for several cuts, and its result must
equal the single-process answer.
"""
import argparse
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import tc  # noqa: E402  (the shared harness)
from tc import check, start_worker  # noqa: E402
import tkinds  # noqa: E402  (the job kinds as rows)

# Liveness 5 x 1000 ms: a worker that waited for its liveness would log "coordinator silent" 5 s after a cut.
TIMING = ["--heartbeat-ms", 1000, "--liveness", 5]
WORKERS = 2
# kind: (its row, the workers' extra options). Each job lasts several connection lives (mean 1.5 s) on two
# workers: perft 13 (544 tasks), the analysis's 10 moves of 0.6 s each and more, 33 pairs of 0.2 s and more.
JOBS = {
    "perft": (tkinds.perft(13, no_hash=False), []),
    "analyse": (tkinds.KINDS["analyse"], ["--test-delay-ms", 600]),
    "solve": (tkinds.KINDS["solve"], ["--test-delay-ms", 200]),
}


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run_kind(kind):
    row, extra = JOBS[kind]
    want = row.reference()
    c = tc.Coord("resets", *row.job(), "--local-workers", 0, "--json", *TIMING)
    port = free_port()
    proxy_log = os.path.join(tc.TMP, "proxy.log")
    proxy = subprocess.Popen([sys.executable, ARGS.proxy, "--listen", "127.0.0.1:%d" % port,
                              "--to", c.ep.replace("tcp://", ""), "--mean-life", "1.5", "--seed", "7"],
                             stdout=subprocess.DEVNULL, stderr=open(proxy_log, "w"))
    time.sleep(0.3)
    via = types.SimpleNamespace(ep="tcp://127.0.0.1:%d" % port)  # what start_worker reads of a coordinator
    start = time.time()
    workers = [start_worker(via, "r%d" % k, *row.work, *extra) for k in range(WORKERS)]
    try:
        res, text = c.finish(timeout=120)
    except subprocess.TimeoutExpired:
        c.p.kill()
        proxy.kill()
        for w in workers:
            w.kill()
        silent = sum(open(os.path.join(tc.TMP, "worker-r%d.log" % k)).read().count("coordinator silent")
                     for k in range(WORKERS))
        tc.fail("the job did not end within 120 s; the workers waited out their liveness %d times" % silent)
    took = time.time() - start
    proxy.terminate()
    proxy.wait(timeout=10)
    time.sleep(2)
    for w in workers:  # one whose BYE was cut would wait for a coordinator that has gone
        if w.poll() is None:
            w.kill()
        w.wait()
    with open(proxy_log) as f:
        cuts = len(re.findall(r"cut connection", f.read()))
    logs = ""
    for k in range(WORKERS):
        with open(os.path.join(tc.TMP, "worker-r%d.log" % k)) as f:
            logs += f.read()
    tc.check_clean(logs)
    restarts = len(re.findall(r"coordinator says error 7: no session", logs))
    silent = len(re.findall(r"coordinator silent", logs))
    print("%s through the proxy: %.1f s, %d connections cut, %d restarts after NOT_WELCOME, %d waits for liveness"
          % (kind, took, cuts, restarts, silent))
    row.exact(res, want)
    check(cuts >= 3, "the proxy cut connections during the job (%d)" % cuts)
    check(restarts >= 1, "cut-off workers were told they had no session and said HELLO again (%d)" % restarts)
    check(silent == 0, "no worker waited out its liveness after a cut (%d did)" % silent)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=sorted(JOBS))
    ap.add_argument("--bin", required=True)
    ap.add_argument("--octad", required=True)
    ap.add_argument("--proxy", required=True)
    ARGS = ap.parse_args()
    tc.ARGS = ARGS
    with tempfile.TemporaryDirectory() as tmp:
        tc.TMP = tmp
        os.environ["TMPDIR"] = tmp  # the solve workers' private caches land here
        run_kind(ARGS.kind)
    print("PASS")


if __name__ == "__main__":
    main()
