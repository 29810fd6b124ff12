#!/usr/bin/env python3
"""test_cluster.py: real-process integration tests of the perft cluster (coordinator + workers).

usage: test_cluster.py CASE --bin DIR [--octad PATH] [--noise PATH]
Each CASE starts real processes over real sockets on 127.0.0.1 and checks exact totals.
Cases: exact, kill_worker, stop_worker, kill_coordinator, noise, curve, verify, usage, keepalive,
once_gives_up.
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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import tc  # noqa: E402  (the shared harness)
from tc import check, check_clean, fail, journal_to_version_1, journal_version, run, wait_endpoint  # noqa: E402
import tkinds  # noqa: E402  (the single-process references)

ARGS = None
TMP = None
# Octad start, depth 11, cut at ply 4, no hash table: 2840 tasks, a few seconds on two workers:
# long enough to interrupt mid-run, short enough for a quick test.
MID = ["--perft", "11", "--split-depth", "4", "--hash", "0"]


def perft_total(depth):
    """The total of `octad perft --depth DEPTH` from the start, in one process: what every job here must count."""
    return tkinds.perft(depth).reference()


def coordinator(*args):
    return [os.path.join(ARGS.bin, "coordinator")] + [str(a) for a in args]


def worker(*args):
    return [os.path.join(ARGS.bin, "worker")] + [str(a) for a in args]


def run_json(cmd, timeout=300, ok_codes=(0,)):
    rc, out, err = run(cmd, timeout)
    check_clean(err)
    if rc not in ok_codes:
        print(err, file=sys.stderr)
        fail("%s exited %d" % (" ".join(cmd), rc))
    return json.loads(out)


def journal_done(path):
    try:
        with open(path, "rb") as f:
            return sum(1 for line in f if line.startswith(b"T\t"))
    except FileNotFoundError:
        return 0


def wait_journal(path, n, proc, timeout=120):
    end = time.time() + timeout
    while time.time() < end:
        if journal_done(path) >= n:
            return
        if proc.poll() is not None:
            fail("coordinator ended before %d tasks were journaled" % n)
        time.sleep(0.02)
    fail("timeout waiting for %d journaled tasks" % n)


def children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def octad_perft(depth, extra=()):
    """Counts and divide from the single-process `octad perft`."""
    rc, out, err = run([ARGS.octad, "perft", "--depth", str(depth), "--divide", "--threads", "1", "--quiet"] + list(extra))
    if rc != 0:
        fail("octad perft failed: " + err)
    divide = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\S+): (\d+)$", out, re.M)}
    stats = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(captures|ep|castles|near|center|far|promotions|checks|disc-checks|dbl-checks|mates|stalemates)\s+(\d+)$", out, re.M)}
    nodes = int(re.search(r"^nodes\s+(\d+)$", out, re.M).group(1))
    return nodes, divide, stats


def case_exact():
    cases = [
        (["--perft", 8, "--split-depth", 3], ["--depth", 8], []),
        (["--perft", 4, "--variant", "chess", "--split-depth", 1], ["--depth", 4, "--variant", "chess"], []),
        (["--perft", 4, "--variant", "chess", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "--stats"],
         ["--depth", 4, "--variant", "chess", "--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "--stats"], []),
        (["--perft", 4, "--variant", "chess960", "--start", 100], ["--depth", 4, "--variant", "chess960", "--start", 100], []),
        (["--perft", 6, "--stats"], ["--depth", 6, "--stats"], []),
    ]
    for cargs, oargs, _ in cases:
        # Exit 3 (reference mismatch) is judged below: this test is about the cluster agreeing
        # with the single-process perft; the rules themselves are the core suites' business.
        res = run_json(coordinator(*cargs, "--local-workers", 2, "--divide", "--json", "--quiet"), ok_codes=(0, 3))
        check(res["workers"] >= 1 and res["tasks_dispatched"] == res["tasks"], "all %d tasks dispatched once (%s)" % (res["tasks"], " ".join(map(str, cargs))))
        if ARGS.octad and os.path.exists(ARGS.octad):
            depth = oargs[1]
            nodes, divide, stats = octad_perft(depth, [str(a) for a in oargs[2:]])
            check(res["nodes"] == nodes, "total %d equals octad perft's %d" % (res["nodes"], nodes))
            check(res["divide"] == divide, "divide equals octad perft's (%d moves)" % len(divide))
            if "--stats" in cargs:
                names = {"captures": "captures", "ep": "en_passant", "castles": "castles", "near": "castle_near",
                         "center": "castle_center", "far": "castle_far", "promotions": "promotions",
                         "checks": "checks", "disc-checks": "discovered_checks", "dbl-checks": "double_checks",
                         "mates": "mates", "stalemates": "stalemates"}
                check(len(stats) == len(names) if "chess" not in oargs else len(stats) == len(names) - 3,
                      "octad perft printed every count by kind (%d)" % len(stats))
                check(all(res["stats"][names[k]] == v for k, v in stats.items()), "stats equal octad perft's")
        if "match" in res:
            check(res["match"], "total matches the reference")
    # The embedded default just works: local workers, a reference check, text output,
    # on a socket that is not on the network.
    ep_file = os.path.join(TMP, "default.ep")
    rc, out, _ = run(coordinator("--perft", 7, "--quiet", "--endpoint-file", ep_file))
    check(rc == 0 and "1153190" in out and "matches reference" in out, "coordinator --perft 7 prints 1153190 and matches")
    with open(ep_file) as f:
        ep = f.read().strip()
    check(ep.startswith("ipc:///") and ep.endswith("/socket"), "default endpoint is a unix socket file: " + ep)
    check(not os.path.exists(os.path.dirname(ep[len("ipc://"):])), "its private directory is gone after the run")


def two_workers(name, *cargs):
    """A coordinator that starts no worker itself, and two worker processes of one thread."""
    ep_file = os.path.join(TMP, name + ".ep")
    p = subprocess.Popen(coordinator(*cargs, "--local-workers", 0, "--bind", "tcp://127.0.0.1:*",
                                     "--endpoint-file", ep_file),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ep = wait_endpoint(ep_file, p)
    ws = [subprocess.Popen(worker("--connect", ep, "--threads", 1, "--prefetch", 2, "--once", "--quiet",
                                  "--name", "%s-%d" % (name, k))) for k in (1, 2)]
    return p, ws


def case_kill_worker():
    mid_nodes = perft_total(11)
    j = os.path.join(TMP, "kw.journal")
    p, ws = two_workers("kw", *MID, "--journal", j, "--json", "--heartbeat-ms", 200)
    wait_journal(j, 200, p)
    check(all(w.poll() is None for w in ws), "two workers running")
    ws[0].kill()
    out, err = p.communicate(timeout=300)
    check_clean(err)
    check(p.returncode == 0, "coordinator finished after a worker was killed")
    res = json.loads(out)
    check(res["nodes"] == mid_nodes, "exact total %d after SIGKILL of a worker" % res["nodes"])
    # Its leased tasks come back through the liveness check or the lease expiry; when the kill
    # lands between two tasks there is nothing to re-queue, so this is reported, not asserted.
    print("info: %d tasks re-queued after the kill" % res["requeued"])
    check(res["results"] == res["tasks"], "each task counted exactly once (%d results)" % res["results"])
    for w in ws:
        w.wait(timeout=30)
    check(ws[1].returncode == 0, "the other worker finished the job and left on BYE")


def case_stop_worker():
    mid_nodes = perft_total(11)
    j = os.path.join(TMP, "sw.journal")
    p, ws = two_workers("sw", *MID, "--journal", j, "--json", "--heartbeat-ms", 100, "--lease-ms", 250)
    wait_journal(j, 200, p)
    check(all(w.poll() is None for w in ws), "two workers running")
    ws[0].send_signal(signal.SIGSTOP)
    time.sleep(1.5)  # well past the lease (250 ms) and the liveness (3 x 100 ms)
    ws[0].send_signal(signal.SIGCONT)
    out, err = p.communicate(timeout=300)
    # The stopped worker lost its session; it may still be looking for a coordinator.
    for w in ws:
        if w.poll() is None:
            w.terminate()
        w.wait(timeout=30)
    check_clean(err)
    check(p.returncode == 0, "coordinator finished after SIGSTOP/SIGCONT of a worker")
    res = json.loads(out)
    check(res["nodes"] == mid_nodes, "exact total %d after SIGSTOP/SIGCONT" % res["nodes"])
    check(res["requeued"] >= 1 or "silent past its liveness" in err,
          "the stopped worker's lease expired or it was declared dead (%d tasks re-queued)" % res["requeued"])
    check(res["results"] == res["tasks"], "each task counted exactly once (%d results)" % res["results"])
    check(journal_done(j) == res["tasks"], "journal holds each task once")


def case_kill_coordinator():
    kill_coordinator(version_1=False)


def case_kill_coordinator_v1():
    """The killed run's journal as main wrote it before version 2 (docs/journal.md) resumes."""
    kill_coordinator(version_1=True)


def kill_coordinator(version_1):
    mid_nodes = perft_total(11)
    j = os.path.join(TMP, "kc.journal")
    cmd = coordinator(*MID, "--local-workers", 2, "--journal", j, "--json", "--quiet")
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_journal(j, 300, p)
    kids = children(p.pid)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    end = time.time() + 10
    while time.time() < end and any(alive(k) for k in kids):
        time.sleep(0.05)
    check(not any(alive(k) for k in kids), "local workers die with a SIGKILLed coordinator")
    done = journal_done(j)
    before = {}  # the journal's credit records (C): who did each task before the kill
    with open(j) as f:
        for line in f:
            if line.startswith("C\t") and line.endswith("\n"):
                name = line.split("\t")[2]
                before[name] = before.get(name, 0) + 1
    check(sum(before.values()) == done and len(before) >= 1,
          "each task in the journal has its credit record (%d of %d, by %s)" % (sum(before.values()), done,
                                                                               " ".join(sorted(before))))
    if version_1:
        journal_to_version_1(j)
    res = run_json(cmd)
    check(journal_version(j) == (1 if version_1 else 2), "the journal keeps its version %d" % journal_version(j))
    check(res["nodes"] == mid_nodes, "exact total %d after restart from the journal" % res["nodes"])
    who = {c["worker"]: c for c in res["contributors"]}
    check(sum(c["tasks"] for c in who.values()) == res["tasks"] and
          sum(c["nodes"] for c in who.values()) == mid_nodes and
          all(who.get(n, {}).get("tasks", 0) >= k for n, k in before.items()),
          "after the resume the contributors (%s) add up to every task and the total, the killed run's workers "
          "included" % ", ".join("%s %d" % (n, c["tasks"]) for n, c in sorted(who.items())))
    check(res["tasks_loaded"] >= done, "%d tasks loaded from the journal (>= %d seen)" % (res["tasks_loaded"], done))
    check(res["tasks_dispatched"] == res["tasks"] - res["tasks_loaded"],
          "journaled tasks not recomputed: %d dispatched = %d - %d" % (res["tasks_dispatched"], res["tasks"], res["tasks_loaded"]))
    again = run_json(cmd)
    check(again["tasks_dispatched"] == 0 and again["nodes"] == mid_nodes, "a finished journal needs no worker at all")
    check(again["contributors"] == res["contributors"], "a finished journal still says who did what")
    rc, out, err = run(coordinator("--perft", 9, "--split-depth", 3, "--journal", j, "--quiet"))
    check(rc == 2 and "journal" in err, "a journal of another job is refused with exit 2: " + err.strip().splitlines()[-1])
    rc, out, err = run(coordinator(*MID, "--journal", j, "--verify", "--quiet"))
    check(rc == 2 and "verify" in err, "a journal written without --verify is not resumed with it")


def case_noise():
    mid_nodes = perft_total(11)
    ep_file = os.path.join(TMP, "noise.ep")
    p = subprocess.Popen(coordinator(*MID, "--local-workers", 0, "--bind", "tcp://127.0.0.1:*",
                                     "--endpoint-file", ep_file, "--json", "--heartbeat-ms", 200),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ep = wait_endpoint(ep_file, p)
    # One real worker serves during the noise; a second joins after it.
    w1 = subprocess.Popen(worker("--connect", ep, "--threads", 1, "--hash", 0, "--once", "--name", "real-1"))
    rc, _, err = run([ARGS.noise, ep, "2"], timeout=120)
    check(rc == 0, "noise client ran against %s" % ep)
    check(p.poll() is None, "the job was still running after the noise")
    w2 = subprocess.Popen(worker("--connect", ep, "--threads", 1, "--hash", 0, "--once", "--name", "real-2"))
    out, err = p.communicate(timeout=300)
    check_clean(err)
    w1.wait(timeout=30)
    w2.wait(timeout=30)
    check(p.returncode == 0, "coordinator survived the noise")
    res = json.loads(out)
    check(res["nodes"] == mid_nodes, "exact total %d despite garbage, floods and strangers" % res["nodes"])
    check(res["dropped"] > 1000, "%d bad messages dropped and counted" % res["dropped"])
    check(err.count("malformed") <= 2, "malformed input logged once, not per message")
    sys.stderr.write(err)


def case_verify():
    want = perft_total(8)
    ep_file = os.path.join(TMP, "verify.ep")
    p = subprocess.Popen(coordinator("--perft", 8, "--split-depth", 3, "--local-workers", 0, "--verify",
                                     "--bind", "tcp://127.0.0.1:*", "--endpoint-file", ep_file, "--json"),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ep = wait_endpoint(ep_file, p)
    # The faulty worker starts first: a verify task needs two workers, so it
    # alone takes work until the others join, and it must err at least once.
    ws = [subprocess.Popen(worker("--connect", ep, "--threads", 1, "--once", "--quiet", "--name", "bad",
                                  "--inject-fault", 7))]
    time.sleep(0.3)
    ws += [subprocess.Popen(worker("--connect", ep, "--threads", 1, "--once", "--quiet", "--name", n))
           for n in ("good-1", "good-2")]
    out, err = p.communicate(timeout=300)
    check_clean(err)
    for w in ws:
        w.wait(timeout=30)
    check(p.returncode == 0, "verify job finished")
    res = json.loads(out)
    check(res["nodes"] == want, "exact total under --verify with one faulty worker")
    check(res["disagreements"] >= 1 and "verify: task" in err and "resolved by majority" in err,
          "faulty results reported with the task's position (%d disagreements)" % res["disagreements"])


def case_curve():
    want = perft_total(8)
    for name in ("coord", "good", "evil"):
        rc, _, err = run(coordinator("keygen", os.path.join(TMP, name)))
        check(rc == 0, "keygen " + name)
    ep_file = os.path.join(TMP, "curve.ep")
    p = subprocess.Popen(coordinator("--perft", 8, "--split-depth", 3, "--local-workers", 0, "--json",
                                     "--bind", "tcp://127.0.0.1:*", "--endpoint-file", ep_file,
                                     "--curve-secret", os.path.join(TMP, "coord.key"),
                                     "--allow", os.path.join(TMP, "good.pub")),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ep = wait_endpoint(ep_file, p)
    evil = subprocess.Popen(worker("--connect", ep, "--threads", 1, "--name", "evil", "--once",
                                   "--server-key", os.path.join(TMP, "coord.pub"),
                                   "--secret", os.path.join(TMP, "evil.key")),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    good = subprocess.Popen(worker("--connect", ep, "--threads", 1, "--name", "good", "--once", "--quiet",
                                   "--server-key", os.path.join(TMP, "coord.pub"),
                                   "--secret", os.path.join(TMP, "good.key")))
    out, err = p.communicate(timeout=300)
    check_clean(err)
    good.wait(timeout=30)
    evil.terminate()
    evil.wait(timeout=30)
    check(p.returncode == 0, "CURVE job finished")
    res = json.loads(out)
    check(res["nodes"] == want, "exact total over CURVE")
    check(res["workers"] == 1 and "evil" not in err, "the worker with an unlisted key never joined")
    rc, _, err = run(coordinator("--perft", 5, "--bind", "tcp://0.0.0.0:*", "--local-workers", 0))
    check(rc == 2 and ("CURVE" in err or "curve" in err), "plain TCP on a public bind needs --insecure")


def keepalive_seconds(timer):
    """The time left on an ss keepalive timer ("timer:(keepalive,29sec,0)", "1min2sec", "981ms"), or None."""
    m = re.search(r"timer:\(keepalive,(?:(\d+)min)?(?:(\d+)sec)?(?:(\d+)ms)?,", timer)
    if m is None:
        return None
    return int(m.group(1) or 0) * 60 + int(m.group(2) or 0) + int(m.group(3) or 0) / 1000


def case_keepalive():
    """TCP keepalive on both ends of a worker's connection (proto/wire.h, wire_keepalive): the kernel shows a
    keepalive timer on the coordinator's and on the worker's socket, due within the 30 s idle time (without
    the option there is no keepalive timer; with the system's default it would be two hours)."""
    if shutil.which("ss") is None:
        fail("ss not found (iproute2, which tools/install-deps.sh installs)")
    # a job longer than the look (depth 13): a socket shows its keepalive timer only while it has no
    # data in flight (else the retransmit timer), so each end needs a few idle moments to be seen;
    # once all four are seen (or after 20 s) the coordinator is stopped, the job is not the point
    p, ws = two_workers("ka", "--perft", "13", "--split-depth", "4", "--hash", "0", "--json")
    port = int(open(os.path.join(TMP, "ka.ep")).read().strip().rsplit(":", 1)[1])
    seen = {}  # (local, peer) -> seconds left on its keepalive timer, once seen
    end = time.time() + 20
    while time.time() < end and p.poll() is None:
        _, out, _ = run(["ss", "-tnoH", "state", "established", "( sport = :%d or dport = :%d )" % (port, port)])
        for line in out.splitlines():
            f = line.split()
            if len(f) >= 4:
                left = keepalive_seconds(line)
                if left is not None or (f[2], f[3]) not in seen:
                    seen[(f[2], f[3])] = left
        if len(seen) == 4 and all(v is not None for v in seen.values()):
            break
        time.sleep(0.05)
    finished = p.poll() is not None
    if not finished:
        p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=60)
    for w in ws:
        if w.poll() is None:
            w.send_signal(signal.SIGTERM)
        w.wait(timeout=30)
    check_clean(err)
    coord = [v for (local, _), v in seen.items() if local.endswith(":%d" % port)]
    work = [v for (_, peer), v in seen.items() if peer.endswith(":%d" % port)]
    check(len(coord) == 2 and len(work) == 2, "two connections seen from both ends (%d, %d)" % (len(coord), len(work)))
    check(all(v is not None and v <= 30 for v in coord + work),
          "each end has a keepalive timer due within 30 s: %s" % sorted(seen.values(), key=str))
    check(p.returncode == 0 if finished else "interrupted" in err,
          "and the coordinator ended (%s)" % ("the job finished" if finished else "stopped once all four were seen"))


def case_once_gives_up():
    """A --once worker that missed the coordinator's BYE (stopped past its liveness while the job ended,
    then continued) gives up after --once-wait seconds without a session, exit 4, saying why; a --once
    worker that hears BYE still exits 0."""
    tc.TMP = TMP
    c = tc.Coord("once", "--perft", 8, "--split-depth", 3, "--local-workers", 0, "--heartbeat-ms", 100,
                 "--lease-ms", 250, "--json")
    far = tc.start_worker(c, "far", "--once-wait", 1)
    c.wait_log(r"worker far joined")
    far.send_signal(signal.SIGSTOP)
    c.wait_log(r"worker far left")  # its session is over: the coordinator will send it no BYE
    near = tc.start_worker(c, "near")
    res, _ = c.finish(timeout=120)
    check(res["nodes"] == perft_total(8), "the job is exact without the stopped worker")
    check(near.wait(timeout=30) == 0, "the worker that heard BYE exits 0")
    t0 = time.time()
    far.send_signal(signal.SIGCONT)
    tc.reap(far, timeout=60)  # killed (-9) if it still retries after 60 s
    rc, took = far.returncode, time.time() - t0
    with open(os.path.join(TMP, "worker-far.log")) as f:
        log = f.read()
    check(rc == 4 and "--once: no session with the coordinator for 1 s since the last one was lost" in log and
          "giving up (exit 4)" in log,
          "the worker that missed its BYE gives up: exit 4, saying why (exit %d: %s)" % (rc, log[-300:]))
    check(1.0 <= took, "not before its --once-wait of 1 s (%.1f s after it was continued)" % took)


def case_usage():
    for args, code in ((["--perft"], 2), (["--perft", "x"], 2), (["--perft", 5, "--bogus"], 2),
                       (["--perft", 5, "--ofen", "garbage"], 2), (["--perft", 5, "--split-depth", 5], 2),
                       (["--perft", 5, "--lease-ms", 100], 2), (["--perft", 5, "--expect", 1, "--quiet"], 3)):
        rc, out, err = run(coordinator(*args))
        check(rc == code and (code == 3 or len(err.strip().splitlines()) == 1),
              "coordinator %s exits %d with one line" % (" ".join(map(str, args)), code))
    rc, out, _ = run(coordinator("--help"))
    check(rc == 0 and "--perft" in out, "coordinator --help")
    rc, out, _ = run(worker("--help"))
    check(rc == 0 and "--connect" in out, "worker --help")
    rc, _, err = run(worker("--threads", 2))
    check(rc == 2, "worker without --connect exits 2")
    rc, _, err = run(worker("--connect", "tcp://127.0.0.1:1", "--once-wait", 5))
    check(rc == 2 and "--once-wait: only with --once" in err, "--once-wait without --once exits 2, naming it")
    rc, _, err = run(worker("--connect", "tcp://127.0.0.1:1", "--once", "--once-wait", 0))
    check(rc == 2 and "--once-wait" in err, "--once-wait 0 exits 2, naming it")


def main():
    global ARGS, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--octad", default="")
    ap.add_argument("--noise", default="")
    ARGS = ap.parse_args()
    tc.ARGS = ARGS
    with tempfile.TemporaryDirectory(prefix="octad-cluster-") as tmp:
        TMP = tmp
        globals()["case_" + ARGS.case]()
    print("PASS " + ARGS.case)


if __name__ == "__main__":
    main()
