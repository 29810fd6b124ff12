#!/usr/bin/env python3
"""test_resets.py: connections cut at random (tools/reset_proxy.py between the workers and the
coordinator, on loopback, no root needed) cost a session, never a count, and a worker cut off
starts over at once: the coordinator's ERROR NOT_WELCOME to the reconnected socket comes in the
session's protocol version, so the worker takes it and says HELLO again, instead of waiting
out its liveness ("coordinator silent").

usage: test_resets.py CASE --bin DIR --octad PATH --proxy PATH      (CASE: perft)
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

# Liveness 5 x 1000 ms: a worker that waited for its liveness would log "coordinator silent" 5 s after a cut.
TIMING = ["--heartbeat-ms", 1000, "--liveness", 5]
WORKERS = 2


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def case_perft():
    rc, out, _ = tc.run([ARGS.octad, "perft", "--depth", "13", "--quiet"])
    m = re.search(r"^nodes +(\d+)$", out, re.M)
    check(rc == 0 and m is not None, "octad perft --depth 13 (one process)")
    want = int(m.group(1))
    c = tc.Coord("resets", "--perft", 13, "--local-workers", 0, "--json", *TIMING)
    port = free_port()
    proxy_log = os.path.join(tc.TMP, "proxy.log")
    proxy = subprocess.Popen([sys.executable, ARGS.proxy, "--listen", "127.0.0.1:%d" % port,
                              "--to", c.ep.replace("tcp://", ""), "--mean-life", "1.5", "--seed", "7"],
                             stdout=subprocess.DEVNULL, stderr=open(proxy_log, "w"))
    time.sleep(0.3)
    via = types.SimpleNamespace(ep="tcp://127.0.0.1:%d" % port)  # what start_worker reads of a coordinator
    start = time.time()
    workers = [start_worker(via, "r%d" % k) for k in range(WORKERS)]
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
    print("perft 13 through the proxy: %.1f s, %d connections cut, %d sessions, %d restarts after NOT_WELCOME, "
          "%d waits for liveness" % (took, cuts, res["workers"], restarts, silent))
    check(res["nodes"] == want, "perft 13 total %d is the single process's %d" % (res["nodes"], want))
    check(res["results"] == res["tasks"], "every task counted once (%d results, %d tasks)" % (res["results"], res["tasks"]))
    check(cuts >= 3, "the proxy cut connections during the job (%d)" % cuts)
    check(restarts >= 1, "cut-off workers were told they had no session and said HELLO again (%d)" % restarts)
    check(silent == 0, "no worker waited out its liveness after a cut (%d did)" % silent)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["perft"])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--octad", required=True)
    ap.add_argument("--proxy", required=True)
    ARGS = ap.parse_args()
    tc.ARGS = ARGS
    with tempfile.TemporaryDirectory() as tmp:
        tc.TMP = tmp
        {"perft": case_perft}[ARGS.case]()
    print("PASS")


if __name__ == "__main__":
    main()
