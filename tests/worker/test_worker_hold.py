#!/usr/bin/env python3
"""test_worker_hold.py: a real worker against a scripted coordinator (tests/fixtures/test_hold_coord.c):
its solve task held in the phase before it runs (fetching a table the coordinator never sends) keeps
the pool for itself (worker/compute.h's exclusive rule): the SOLVEs sent within credit meanwhile are
refused NO_CREDIT as the pool is taken, the one beyond credit as beyond credit; a stop (SIGTERM) hands
the held task back and the worker exits 0.

usage: test_worker_hold.py --bin DIR --fixture PATH
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

NO_CREDIT = 6


def fail(what, log=""):
    print("FAIL: %s\n%s" % (what, log))
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--fixture", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="worker-hold-") as tmp:
        ep_file = os.path.join(tmp, "ep")
        out = open(os.path.join(tmp, "coord.out"), "w+")
        coord = subprocess.Popen([args.fixture, ep_file], stdout=out, stderr=subprocess.STDOUT)
        end = time.time() + 10
        while not (os.path.exists(ep_file) and open(ep_file).read().endswith("\n")):
            if time.time() > end or coord.poll() is not None:
                fail("the scripted coordinator did not start")
            time.sleep(0.02)
        ep = open(ep_file).read().strip()
        werr = open(os.path.join(tmp, "worker.err"), "w+")
        worker = subprocess.Popen([os.path.join(args.bin, "worker"), "--connect", ep, "--threads", "2", "--name", "H",
                                   "--tables", os.path.join(tmp, "cache")], stdout=subprocess.DEVNULL, stderr=werr)

        def text():
            out.flush()
            with open(out.name) as f:
                return f.read()

        end = time.time() + 30
        while len(re.findall(r"^REFUSE ", text(), re.M)) < 2 or "FETCH" not in text():
            if time.time() > end or coord.poll() is not None or worker.poll() is not None:
                worker.kill()
                fail("no FETCH and two REFUSEs from the worker", text())
            time.sleep(0.05)
        got = text()
        m = re.search(r"^CREDIT (\d+)$", got, re.M)
        if not m or int(m.group(1)) != 2:
            fail("the worker of two threads gives 2 credits", got)
        refused = dict((int(t), (int(c), r)) for t, c, r in re.findall(r"^REFUSE (\d+) (\d+) (.*)$", got, re.M))
        checks = [
            ("task 1 is held: its missing table asked for (FETCH)", re.search(r"^FETCH \w+$", got, re.M) is not None),
            ("task 1 is not refused", 1 not in refused),
            ("task 2, within credit while task 1 holds the pool: REFUSE NO_CREDIT, the pool taken",
             refused.get(2, (0, ""))[0] == NO_CREDIT and "exclusive task" in refused[2][1]),
            ("task 3, beyond credit: REFUSE NO_CREDIT, beyond the credit",
             refused.get(3, (0, ""))[0] == NO_CREDIT and "beyond the credit" in refused[3][1]),
        ]
        t0 = time.time()
        worker.send_signal(signal.SIGTERM)
        try:
            wrc = worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            wrc = None
        try:
            crc = coord.wait(timeout=15)
        except subprocess.TimeoutExpired:
            coord.kill()
            crc = None
        got = text()
        checks += [
            ("the stopped worker exits 0 (%.1f s)" % (time.time() - t0), wrc == 0),
            ("it hands the held task 1 back (HANDBACK 1)", re.search(r"^HANDBACK 1$", got, re.M) is not None),
            ("then says BYE", crc == 0 and "BYE" in got),
        ]
        bad = [what for what, ok in checks if not ok]
        for what, ok in checks:
            print("%s: %s" % ("ok" if ok else "FAIL", what))
        if bad:
            werr.seek(0)
            fail("%d checks" % len(bad), got + "\nworker:\n" + werr.read())
    print("PASS")


if __name__ == "__main__":
    main()
