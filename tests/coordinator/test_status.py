#!/usr/bin/env python3
"""test_status.py: `coordinator --status` (docs/status.md): GET /status and GET /metrics of a real
coordinator with real workers, read during the run and at its end (--status-hold) and checked against
the job's own --json result; bad --status values; the HTTP errors; the metrics through promtool and a
real Prometheus (Debian's prometheus package; the case exits 77, skipped, without it); the page at /
in headless Chromium (Debian's chromium and chromium-driver), its figures against /status, a
screenshot kept in the working folder (status-page.png).

usage: test_status.py CASE --bin DIR [--octad PATH]
Cases: live, kinds, usage, http, prometheus, page, faults, worker, curve, hostile.
"""
import argparse
import base64
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import tc  # noqa: E402  (the shared harness)
from tc import check, fail, run  # noqa: E402
from webdriver import Driver  # noqa: E402

class _Tracked(subprocess.Popen):
    """Every process a case starts (through tc or here), so that a failed case leaves none behind."""
    started = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _Tracked.started.append(self)


subprocess.Popen = _Tracked

# Octad start, depth 11, cut at ply 4, no hash table: 2840 tasks, a few seconds on two workers.
MID = ["--perft", "11", "--split-depth", "4", "--hash", "0"]


def get(url, method="GET"):
    """(status, headers, body text) of one request."""
    req = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


def metrics(text):
    """The samples of a Prometheus text: {'name{labels}': value}; fails on a line that is not one."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r'([a-z_]+(?:\{[^}]*\})?) (\S+)', line)
        if m is None:
            fail("not a sample line: %r" % line)
        out[m.group(1)] = float(m.group(2))
    return out


def start(tag, *args):
    """A coordinator with --status on any free port: (its tc.Coord, the status base URL)."""
    c = tc.Coord(tag, *args, "--http", 0)
    port = c.wait_log(r"status on http://127\.0\.0\.1:(\d+)/ ")[0]
    return c, "http://127.0.0.1:%s" % port


def case_live():
    c, base = start("live", *MID, "--local-workers", 0, "--json", "--http-hold", 30)
    # beta speaks OCTP/3: it reports no CPU time (USAGE is OCTP/4's).
    ws = [tc.start_worker(c, "alpha"), tc.start_worker(c, "beta", "--protocol", 3)]
    seen_running, last_done, last_amount, both = False, -1, -1, False
    while True:
        code, hdr, body = get(base + "/status")
        if code != 200 or hdr["Content-Type"] != "application/json":
            fail("GET /status: %d %s" % (code, hdr["Content-Type"]))
        s = json.loads(body)
        p = s["progress"]
        if p["done"] < last_done or p["amount"] < last_amount:
            fail("progress went back: %r after done %d, nodes %d" % (p, last_done, last_amount))
        last_done, last_amount = p["done"], p["amount"]
        if s["state"] == "running" and 0 < p["done"] < p["total"]:
            seen_running = True
            if p["eta_seconds"] is None or p["eta_seconds"] <= 0 or p["rate_per_second"] <= 0:
                fail("a running job with tasks done has a rate and an ETA: %r" % p)
            if s["elapsed_seconds"] > 1.5 and p["rate_now_per_second"] <= 0:
                fail("a running job with tasks done has a rate now: %r" % p)
            for w in s["workers"]:
                if w["state"] not in ("joining", "working", "idle") or w["address"] != "127.0.0.1" or \
                        w["key_fingerprint"] is not None or not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ",
                                                                               w["connected_since"]):
                    fail("a worker's state, address, key (none without CURVE) and start: %r" % w)
        if s["workers_connected"] == 2:
            both = sorted(w["name"] for w in s["workers"]) == ["alpha", "beta"]
        if s["state"] != "running":
            break
        if c.p.poll() is not None:
            fail("the coordinator ended before /status said the job ended")
        time.sleep(0.05)
    check(seen_running, "/status showed the job running with tasks done and left, with a rate and an ETA")
    check(both, "/status listed both workers by name")
    final = s
    code, _, mtext = get(base + "/metrics")
    m = metrics(mtext)
    c.p.terminate()  # ends the hold early
    res, err = c.finish(timeout=60)
    for w in ws:
        w.wait(timeout=30)
    p = final["progress"]
    check(final["state"] == "finished" and final["kind"] == "perft" and final["variant"] == res["variant"] and
          final["position"] == res["position"] and final["depth"] == 11, "the final /status names the job as --json")
    check(p["done"] == p["total"] == res["tasks"] and p["queued"] == 0 and p["running"] == 0,
          "the final /status: every task done (%d), as --json" % res["tasks"])
    check(p["amount_noun"] == "nodes" and p["amount"] == res["nodes"],
          "the final /status nodes %d equal the --json total %d" % (p["amount"], res["nodes"]))
    k = final["counters"]
    check(k["results"] == res["results"] and k["requeued"] == res["requeued"] and
          k["dispatched"] == res["tasks_dispatched"] and k["worker_sessions"] == res["workers"] and
          k["duplicates"] == res["duplicates"], "the final /status counters equal --json's")
    check(sum(w["nodes"] for w in final["workers"]) == res["nodes"],
          "the workers' nodes add up to the total (each task's nodes go to the worker it is credited to)")
    if res["requeued"] == 0 and res["duplicates"] == 0:
        check(sum(w["tasks_done"] for w in final["workers"]) == res["results"], "the workers' answers add up")
    check(m["octad_tasks_done_total"] == res["tasks"] and m["octad_tasks"] == res["tasks"] and
          m["octad_nodes_total"] == float(res["nodes"]) and m["octad_results_total"] == res["results"] and
          m["octad_task_requeues_total"] == res["requeued"] and m["octad_job_finished"] == 1 and
          m["octad_workers_connected"] == 2, "the final /metrics equal --json's figures")
    check(sum(v for k2, v in m.items() if k2.startswith("octad_worker_nodes_total{")) == float(p["amount"]),
          "the per-worker node series add up to octad_nodes_total")
    check(final["memory"]["resident_bytes"] > 1 << 20 and
          m["process_resident_memory_bytes"] == final["memory"]["resident_bytes"] and
          m["process_virtual_memory_bytes"] >= m["process_resident_memory_bytes"],
          "the coordinator's memory in /status and /metrics (%d bytes resident)" % final["memory"]["resident_bytes"])
    pts = final["history"]["points"]
    check(len(pts) >= 2 and pts[-1][1] == float(res["nodes"]) and
          all(b[0] > a[0] and b[1] >= a[1] for a, b in zip(pts, pts[1:])),
          "the history's points go forward in time and end at the total (%d points)" % len(pts))
    cpu = {w["name"]: w["cpu_seconds"] for w in final["workers"]}
    who = {x["worker"]: x for x in res["contributors"]}
    check(cpu["alpha"] is not None and cpu["alpha"] > 0 and cpu["beta"] is None and
          who["alpha"]["cpu_seconds"] is not None and 0 < who["alpha"]["cpu_seconds"] <= cpu["alpha"] + 1e-9 and
          who["beta"]["cpu_seconds"] is None,
          "the OCTP/4 worker's CPU time (%.3f s reported, %.3f s credited to its tasks), none for the OCTP/3 one" %
          (cpu["alpha"] or 0, who["alpha"]["cpu_seconds"] or 0))
    check(set(who) == {"alpha", "beta"} and sum(x["nodes"] for x in who.values()) == res["nodes"] and
          sum(x["tasks"] for x in who.values()) == res["tasks"] and
          all(who[w["name"]]["nodes"] == w["nodes"] for w in final["workers"]),
          "--json's contributors are the sessions' nodes and add up to every task and the total")
    check(abs(sum(w["wall_seconds"] for w in final["workers"]) - res["worker_seconds"]) < 0.01 or res["requeued"] > 0,
          "the workers' reported compute seconds add up to --json's worker_seconds")
    tc.check_clean(err)


def case_usage():
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    port = busy.getsockname()[1]
    # --status and --status-hold are the older spellings of --http and --http-hold: the same rows.
    for args, what in ((["--http", "99999"], "the port must be a number"),
                       (["--http", "1.2.3:80"], "is not an IPv4 address"),
                       (["--status", "abc"], "the port must be a number"),
                       (["--http", ":80"], "the address before ':' is empty"),
                       (["--http", ""], "the port must be a number"),
                       (["--http-hold", 3], "--http-hold goes with --http"),
                       (["--status-hold", 3], "--http-hold goes with --http"),
                       (["--status", 0, "--status-hold", -1], "--http-hold"),
                       (["--http", port], "cannot listen there")):
        rc, out, err = run(tc.prog("coordinator", "--perft", 3, *args))
        lines = err.strip().splitlines()
        check(rc == 2 and len(lines) == 1 and "--http" in lines[0] and what in lines[0],
              "coordinator %s exits 2 with one line naming the problem (%s)" % (" ".join(map(str, args)),
                                                                               lines[0] if lines else ""))
    busy.close()


def case_http():
    c, base = start("http", "--perft", 4, "--local-workers", 1, "--json", "--http-hold", 30)
    final_status(c, base)
    code, _, body = get(base + "/nope")
    check(code == 404 and "/status" in body, "an unknown path is 404, naming the paths")
    code, hdr, _ = get(base + "/status", "POST")
    check(code == 405 and hdr["Allow"] == "GET, HEAD", "POST is 405 with Allow: GET, HEAD")
    code, hdr, body = get(base + "/metrics", "HEAD")
    check(code == 200 and body == "" and hdr["Content-Type"].startswith("text/plain; version=0.0.4"),
          "HEAD /metrics is 200 with the exposition format's content type")
    code, hdr, body = get(base + "/metrics")
    check(code == 200 and "# TYPE octad_tasks_done_total counter" in body, "GET /metrics has TYPE lines")
    c.p.terminate()  # ends the hold early
    c.finish(timeout=30)


def final_status(c, base, timeout=120):
    """The /status of coordinator c once it says its job ended (it holds it with --status-hold)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        s = json.loads(get(base + "/status")[2])
        if s.get("state") not in (None, "running"):
            return s
        if c.p.poll() is not None:
            fail("the coordinator ended before /status said the job ended")
        time.sleep(0.05)
    fail("the job did not end")


def case_kinds():
    """Every kind through its row's progress: analyse and solve, as their --json says."""
    c, base = start("analyse", "--analyse", 4, "--local-workers", 1, "--json", "--http-hold", 30)
    s = final_status(c, base)
    c.p.terminate()
    res, _ = c.finish(timeout=30)
    p = s["progress"]
    check(s["kind"] == "analyse" and s["state"] == "finished" and s["what"] == "analyse 4" and s["depth"] == 4 and
          s["position"] == res["position"] and p["unit"] == "tasks" and p["done"] == p["total"] > 0 and
          p["amount_noun"] == "nodes" and p["amount"] == res["nodes"],
          "analyse: the final /status says what --json says (%d nodes)" % res["nodes"])
    tables = os.path.join(tc.TMP, "tables")
    c, base = start("solve", "--solve", "--max-pieces", 3, "--tables", tables, "--local-workers", 1, "--json",
                    "--http-hold", 30)
    s = final_status(c, base)
    c.p.terminate()
    res, _ = c.finish(timeout=30)
    p = s["progress"]
    check(s["kind"] == "solve" and s["state"] == "finished" and s["what"] == "solve up to 3 pieces" and
          p["unit"] == "pairs" and p["done"] == p["total"] == res["pairs"] and p["loaded"] == res["already_done"] and
          p["amount_noun"] == "positions" and p["amount"] == res["positions"] > 0,
          "solve: the final /status says what --json says (%d pairs, %d positions)" % (res["pairs"], res["positions"]))
    check(sum(w["tasks_done"] for w in s["workers"]) == res["pairs"] - res["already_done"] and
          sum(w["positions"] for w in s["workers"]) == res["positions"],
          "solve: the workers' answers and positions add up (%d pairs solved)" % (res["pairs"] - res["already_done"]))


def case_prometheus():
    promtool, prom = shutil.which("promtool"), shutil.which("prometheus")
    if promtool is None or prom is None:
        print("SKIP: Debian's prometheus package (promtool, prometheus) is not installed")
        sys.exit(77)
    c, base = start("prom", *MID, "--local-workers", 0, "--json", "--http-hold", 60)
    w = tc.start_worker(c, "gamma")
    p = subprocess.run([promtool, "check", "metrics"], input=get(base + "/metrics")[2], text=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    check(p.returncode == 0 and p.stdout.strip() == "", "promtool check metrics finds no problem: %s" % p.stdout)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    prom_port = sock.getsockname()[1]
    sock.close()
    conf = os.path.join(tc.TMP, "prometheus.yml")
    with open(conf, "w") as f:
        f.write("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: octad\n    static_configs:\n"
                "      - targets: ['%s']\n" % base[len("http://"):])
    log = open(os.path.join(tc.TMP, "prometheus.log"), "w")
    srv = subprocess.Popen([prom, "--config.file", conf, "--storage.tsdb.path", os.path.join(tc.TMP, "tsdb"),
                            "--web.listen-address", "127.0.0.1:%d" % prom_port], stdout=log, stderr=log)
    try:
        deadline, value = time.time() + 90, None
        while time.time() < deadline:
            st = json.loads(get(base + "/status")[2])
            try:
                q = json.loads(get("http://127.0.0.1:%d/api/v1/query?query=octad_nodes_total" % prom_port)[2])
                r = q["data"]["result"]
                value = float(r[0]["value"][1]) if r else None
            except (OSError, ValueError, KeyError):
                value = None
            if st["state"] == "finished" and value == float(st["progress"]["amount"]):
                break
            time.sleep(0.5)
        c.p.terminate()  # ends the hold early
        res, _ = c.finish(timeout=30)
        check(value is not None and value == float(res["nodes"]) and st["state"] == "finished",
              "a real Prometheus scraped octad_nodes_total = %s, the --json total %d" % (value, res["nodes"]))
    finally:
        srv.terminate()
        srv.wait(timeout=30)
        w.wait(timeout=30)
        log.close()


def status_until(base, c, pred, what, timeout=60):
    """Polls /status until pred(status) holds; that status (fails after timeout or when c ends)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        s = json.loads(get(base + "/status")[2])
        if pred(s):
            return s
        if c.p.poll() is not None:
            fail("the coordinator ended before /status showed " + what)
        time.sleep(0.03)
    fail("/status never showed " + what)


def named(s, name):
    """The sessions of worker NAME in /status s."""
    return [w for w in s["workers"] if w["name"] == name]


def case_faults():
    """The numbers follow a worker that stops answering (SIGSTOP: silent, then gone, its lease
    re-queued), then dies (SIGKILL), and a worker that answers wrong under --verify."""
    # Silent after two heartbeats (0.6 s), dead after five (1.5 s): a window the 250 ms snapshots see.
    c, base = start("dying", "--perft", 13, "--split-depth", 4, "--hash", 0, "--local-workers", 0, "--json",
                    "--heartbeat-ms", 300, "--liveness", 5, "--http-hold", 30)
    alpha, beta = tc.start_worker(c, "alpha"), tc.start_worker(c, "beta")
    s = status_until(base, c, lambda s: all(w["state"] == "working" and w["tasks_done"] > 20 for w in s["workers"])
                     and s["workers_connected"] == 2, "both workers working")
    beta_done = named(s, "beta")[0]["tasks_done"]
    os.kill(beta.pid, signal.SIGSTOP)
    s = status_until(base, c, lambda s: [w["state"] for w in named(s, "beta")] == ["silent"],
                     "the stopped worker silent")
    check(named(s, "alpha")[0]["state"] in ("working", "idle") and named(s, "beta")[0]["last_seen_seconds"] >= 0.6,
          "a stopped worker is 'silent' after two heartbeat intervals (%.2f s) while the other is not" %
          named(s, "beta")[0]["last_seen_seconds"])
    s = status_until(base, c, lambda s: not named(s, "beta"), "the stopped worker gone")
    m = metrics(get(base + "/metrics")[2])
    check(s["workers_connected"] == 1 and s["counters"]["requeued"] >= 1 and s["state"] == "running" and
          m["octad_workers_connected"] <= 1 and m["octad_task_requeues_total"] >= 1,
          "past its liveness it is gone from /status and /metrics, its lease re-queued (%d), the job goes on" %
          s["counters"]["requeued"])
    os.kill(beta.pid, signal.SIGKILL)
    beta.wait(timeout=30)
    final = final_status(c, base, timeout=180)
    c.p.terminate()
    res, _ = c.finish(timeout=60)
    alpha.wait(timeout=30)
    who = {x["worker"]: x for x in res["contributors"]}
    check(final["state"] == "finished" and final["progress"]["amount"] == res["nodes"] and
          final["counters"]["requeued"] == res["requeued"] >= 1,
          "the job finished (%d nodes) with the final /status equal to --json" % res["nodes"])
    check(set(who) == {"alpha", "beta"} and who["beta"]["tasks"] >= beta_done and
          sum(x["nodes"] for x in who.values()) == res["nodes"] and sum(x["tasks"] for x in who.values()) == res["tasks"],
          "the contributors name the dead worker too (beta %d tasks) and add up to the total" % who["beta"]["tasks"])

    c, base = start("liar", "--perft", 8, "--split-depth", 3, "--local-workers", 0, "--verify", "--json",
                    "--http-hold", 30)
    ws = [tc.start_worker(c, "bad", "--inject-fault", 7)]
    time.sleep(0.3)  # alone first: it takes work and errs before the others join
    ws += [tc.start_worker(c, n) for n in ("good-1", "good-2")]
    final = final_status(c, base)
    m = metrics(get(base + "/metrics")[2])
    c.p.terminate()
    res, _ = c.finish(timeout=60)
    for w in ws:
        w.wait(timeout=30)
    d = {w["name"]: w["disagreements"] for w in final["workers"]}
    check(res["nodes"] == 6924175 and final["counters"]["disagreements"] == res["disagreements"] >= 1,
          "--verify with a lying worker: the exact total, /status's disagreements (%d) are --json's" %
          res["disagreements"])
    check(d["bad"] >= 1 and d["good-1"] <= d["bad"] and d["good-2"] <= d["bad"] and
          d["good-1"] + d["good-2"] == d["bad"],
          "each disagreement is the liar's and one honest worker's: %r" % d)
    bad = [k for k in m if k.startswith('octad_worker_disagreements_total{worker="bad"')]
    check(len(bad) == 1 and m[bad[0]] == d["bad"], "/metrics has the liar's disagreements (%d)" % d["bad"])


def case_hostile():
    """Oversized and malformed requests are refused; 200 slow connections (far more than the
    server's 64, 16 from one address) do not stop the job: it finishes exactly, in about the time
    the same job takes without them (measured here first)."""
    def job(slow_nb):
        c, base = start("hostile-%d" % slow_nb, *MID, "--local-workers", 0, "--json")
        host, port = "127.0.0.1", int(base.rsplit(":", 1)[1])
        slow = []
        for _ in range(slow_nb):  # each sends half a request and then nothing
            try:
                s = socket.create_connection((host, port), timeout=5)
                s.sendall(b"GET /status HTTP/1.1\r\nHost: a\r\n")
                slow.append(s)
            except OSError:
                break
        ws = [tc.start_worker(c, n) for n in ("alpha", "beta")]
        res, _ = c.finish(timeout=120)
        for w in ws:
            w.wait(timeout=30)
        for s in slow:
            s.close()
        return res, len(slow)

    c, base = start("refuse", "--perft", 4, "--local-workers", 1, "--json", "--http-hold", 30)
    host, port = "127.0.0.1", int(base.rsplit(":", 1)[1])

    def raw(data, timeout=10):
        s = socket.create_connection((host, port), timeout=timeout)
        try:
            s.sendall(data)
            return s.recv(200).decode(errors="replace")
        except (ConnectionResetError, BrokenPipeError):
            return "(closed)"
        except TimeoutError:
            return "(no answer)"
        finally:
            s.close()
    reply = raw(b"GET /status?" + b"x" * 20000 + b" HTTP/1.1\r\nHost: a\r\n\r\n")
    check(reply.startswith("HTTP/1.1 414"), "a 20 kB request line is refused (%r)" % reply[:40])
    reply = raw(b"GET /status HTTP/1.1\r\n" + b"X-Pad: " + b"y" * 20000 + b"\r\n\r\n")
    check(reply.startswith("HTTP/1.1 431"), "a 20 kB header is refused (%r)" % reply[:40])
    reply = raw(b"\x00\x01garbage\r\n\r\n", timeout=3)
    check(not reply.startswith("HTTP/1.1 200"), "a malformed request is not answered as one (%r)" % reply[:40])
    check(get(base + "/status")[0] == 200, "and the server still answers")
    c.p.terminate()
    c.finish(timeout=30)
    calm, _ = job(0)
    res, held = job(200)
    check(res["nodes"] == calm["nodes"] and res["seconds"] <= 3 * calm["seconds"] + 5,
          "with %d slow connections open the job finished exactly in %.2f s (%.2f s without them)" %
          (held, res["seconds"], calm["seconds"]))


def case_curve():
    """Under CURVE a worker is shown by its key's fingerprint, as the log names it, and no key
    (public or secret, the coordinator's or a worker's) is in anything served."""
    keys = []
    for name in ("coord", "good"):
        rc, _, err = run(tc.prog("coordinator", "keygen", os.path.join(tc.TMP, name)))
        check(rc == 0, "keygen " + name)
        for ext in ("key", "pub"):
            with open(os.path.join(tc.TMP, name + "." + ext)) as f:
                keys += re.findall(r"(?:^|= )(\S{40})$", f.read(), re.M)
    check(len(set(keys)) == 4, "two key pairs made (%d keys)" % len(set(keys)))
    c, base = start("curve", "--perft", 8, "--split-depth", 3, "--local-workers", 0, "--json", "--http-hold", 30,
                    "--curve-secret", os.path.join(tc.TMP, "coord.key"), "--allow", os.path.join(tc.TMP, "good.pub"))
    w = tc.start_worker(c, "good", "--server-key", os.path.join(tc.TMP, "coord.pub"), "--secret",
                        os.path.join(tc.TMP, "good.key"))
    s = status_until(base, c, lambda s: named(s, "good"), "the CURVE worker")
    served = [get(base + path)[2] for path in ("/status", "/metrics", "/")]
    final = final_status(c, base)
    served += [json.dumps(final), get(base + "/metrics")[2]]
    c.p.terminate()
    _, err = c.finish(timeout=60)
    w.wait(timeout=30)
    logged = re.findall(r"worker good \[key ([0-9a-f]{16})\] joined", err)
    check(len(logged) == 1 and named(s, "good")[0]["key_fingerprint"] == logged[0] and
          named(final, "good")[0]["key_fingerprint"] == logged[0],
          "/status names the worker's key by the fingerprint the log gives (%s)" % (logged[0] if logged else "?"))
    leaked = [k for k in keys for text in served if k in text]
    check(not leaked, "no key, public or secret, in /status, /metrics or the page (%d texts checked)" % len(served))


def case_worker():
    """worker --http: one worker's /status, /metrics and page while it works and after the job,
    against the coordinator's figures for its session."""
    rc, _, err = run(tc.prog("worker", "--connect", "tcp://127.0.0.1:1", "--http", "99999"))
    lines = err.strip().splitlines()
    check(rc == 2 and len(lines) == 1 and "--http" in lines[0] and "port" in lines[0],
          "worker --http 99999 exits 2 with one line naming --http: %s" % (lines[0] if lines else ""))
    c, base = start("wcoord", *MID, "--local-workers", 0, "--json", "--http-hold", 30)
    log = os.path.join(tc.TMP, "worker-wa.log")
    wa = subprocess.Popen(tc.prog("worker", "--connect", c.ep, "--threads", 1, "--name", "wa", "--http", 0),
                          stdout=subprocess.DEVNULL, stderr=open(log, "w"))
    wb = None  # a second worker joins once wa is under way
    deadline, wbase = time.time() + 30, None
    while wbase is None and time.time() < deadline:
        with open(log) as f:
            m = re.search(r"status on http://127\.0\.0\.1:(\d+)/ ", f.read())
        wbase = "http://127.0.0.1:%s" % m.group(1) if m else None
        time.sleep(0.02)
    check(wbase is not None, "the worker prints where its status is served")
    seen = []
    while c.p.poll() is None:
        s = json.loads(get(wbase + "/status")[2])
        seen.append((s["state"], s["tasks"]["done"]))
        if wb is None and s["tasks"]["done"] > 0:
            wb = tc.start_worker(c, "wb")
        if json.loads(get(base + "/status")[2])["state"] != "running":
            break
        time.sleep(0.05)
    dones = [d for st, d in seen if st == "active"]
    check(len(set(dones)) >= 3 and dones == sorted(dones), "the worker's /status followed its tasks (%s)" %
          " ".join(map(str, sorted(set(dones)))))
    final = final_status(c, base)
    mine = named(final, "wa")[0]
    deadline = time.time() + 20
    while time.time() < deadline:  # the worker has sent its last answers and said no more
        s = json.loads(get(wbase + "/status")[2])
        if s["tasks"]["done"] == mine["tasks_done"] and s["tasks"]["busy"] == 0:
            break
        time.sleep(0.1)
    m = metrics(get(wbase + "/metrics")[2])
    # Answers to stragglers' copies may cross the end: the worker sent at least what the
    # coordinator counted, and at most that many more.
    extra = final["counters"]["duplicates"] + final["counters"].get("copies", 0)
    check(s["name"] == "wa" and 0 < mine["tasks_done"] <= s["tasks"]["done"] <= mine["tasks_done"] + extra and
          s["threads"] == mine["threads"] and s["protocol"] == 4 and s["tasks"]["refused"] == 0,
          "the worker's tasks done (%d) are the coordinator's count for its session (%d, +%d copies or duplicates)"
          % (s["tasks"]["done"], mine["tasks_done"], extra))
    check(mine["cpu_seconds"] is not None and 0 < mine["cpu_seconds"] <= s["cpu_seconds"] and
          s["memory"]["resident_bytes"] > 1 << 20,
          "the CPU time it reported to the coordinator (%.3f s) is within its own (%.3f s)" %
          (mine["cpu_seconds"], s["cpu_seconds"]))
    check(m["octad_worker_tasks_done_total"] == s["tasks"]["done"] and m["octad_worker_threads"] == 1 and
          m["process_resident_memory_bytes"] > 1 << 20, "the worker's /metrics say the same")
    promtool = shutil.which("promtool")
    if promtool is not None:
        p = subprocess.run([promtool, "check", "metrics"], input=get(wbase + "/metrics")[2], text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        check(p.returncode == 0 and p.stdout.strip() == "", "promtool finds nothing in the worker's /metrics: " +
              p.stdout)
    if shutil.which("chromedriver") is not None:
        drv = Driver(tc.TMP, "1100,800")
        try:
            drv.s("POST", "/url", {"url": wbase + "/"})
            drv.wait("return +document.body.dataset.updates >= 1", "the worker's figures")
            shown = drv.js("return [document.getElementById('done').textContent, "
                           "document.getElementById('name').textContent]")
            check(shown == [grouped(s["tasks"]["done"]), "worker wa"],
                  "the worker's page shows its tasks done as /status says: %r" % shown)
            with open(os.path.join(os.getcwd(), "worker-page.png"), "wb") as f:
                f.write(base64.b64decode(drv.s("GET", "/screenshot")))
        finally:
            drv.quit()
    c.p.terminate()
    c.finish(timeout=60)
    if wb is not None:
        wb.wait(timeout=30)
    wa.terminate()
    check(wa.wait(timeout=30) == 0, "the worker stops on SIGTERM with exit 0")


# What the page shows, read as a person reads it: the texts of its figures and of the workers' rows.
PAGE_READ = """
const t = (id) => document.getElementById(id).textContent;
return {updates: +document.body.dataset.updates, state: t('state'), what: t('what'), done: t('done'),
        total: t('total'), pct: t('pct'), amount: t('amount'), rate_now: t('rate-now'), rate_avg: t('rate-avg'),
        nworkers: t('nworkers'), requeued: t('requeued'), bar: document.getElementById('barfill').style.width,
        points: document.querySelectorAll('#chart path.rate').length ?
                document.querySelector('#chart path.rate').getAttribute('d').split('L').length : 0,
        rows: [...document.querySelectorAll('#workers tbody tr')].map(r => Object.fromEntries(
            [...r.cells].map(c => [c.className.split(' ').pop(), c.textContent])))};
"""


def grouped(n):
    """A count as the page writes it: 1,234,567."""
    return "{:,}".format(int(n))


def three(x):
    """A rate as the page writes it (three significant digits, a metric prefix) back as a number."""
    m = re.fullmatch(r"(-?[0-9.e+-]+)(?: ([kMGTPE]))?", x)
    if m is None:
        fail("not a rate as the page writes it: %r" % x)
    return float(m.group(1)) * 1000 ** (" kMGTPE".index(m.group(2)) if m.group(2) else 0)


def page_matches(v, s):
    """Whether the page's texts v say what /status s says (the same snapshot): (ok, what differs)."""
    p = s["progress"]
    want = {"state": s["state"], "what": s["what"], "done": grouped(p["done"]), "total": grouped(p["total"]),
            "amount": grouped(p["amount"]), "nworkers": str(s["workers_connected"]),
            "requeued": grouped(s["counters"]["requeued"]), "pct": "%.1f%%" % (100.0 * p["done"] / p["total"])}
    bad = ["%s: page %r, /status %r" % (k, v[k], w) for k, w in want.items() if v[k] != w]
    for k, key in (("rate_now", "rate_now_per_second"), ("rate_avg", "rate_per_second")):
        if abs(three(v[k]) - p[key]) > 0.006 * max(p[key], 1):
            bad.append("%s: page %r, /status %r" % (k, v[k], p[key]))
    rows = {r["name"]: r for r in v["rows"]}
    for w in s["workers"]:
        r = rows.get(w["name"])
        cpu = "%.1f" % w["cpu_seconds"] if w["cpu_seconds"] is not None else "–"
        if r is None or r["tasks"] != grouped(w["tasks_done"]) or r["amount"] != grouped(w["nodes"]) or \
                r["threads"] != str(w["threads"]) or r["state"] != w["state"] or r["address"] != w["address"] or \
                r["cpu"] != cpu:
            bad.append("worker %s: page %r, /status %r" % (w["name"], r, w))
    if len(rows) != len(s["workers"]):
        bad.append("the page lists %d workers, /status %d" % (len(rows), len(s["workers"])))
    return not bad, "; ".join(bad)


def case_page():
    if shutil.which("chromedriver") is None or not os.path.exists("/usr/bin/chromium"):
        fail("chromium and chromium-driver are not installed (tools/install-deps.sh installs them)")
    drv = Driver(tc.TMP, "1280,1100")
    c = None
    try:
        # perft 13 (about 10 s on two one-thread workers): long enough to watch several refreshes.
        c, base = start("page", "--perft", 13, "--split-depth", 4, "--hash", 0, "--local-workers", 0, "--json",
                        "--http-hold", 60)
        code, hdr, page = get(base + "/")
        check(code == 200 and hdr["Content-Type"].startswith("text/html") and "<title>" in page and
              "default-src 'self'" in hdr["Content-Security-Policy"] and " src=" not in page and "<link" not in page,
              "GET / is the page, loading nothing (no src, no link) and allowing only this server")
        drv.s("POST", "/url", {"url": base + "/"})
        drv.wait("return +document.body.dataset.updates >= 1", "a first /status drawn")
        ws = [tc.start_worker(c, "alpha")]
        drv.wait("return [...document.querySelectorAll('#workers tbody td.name')].map(c => c.textContent)"
                 ".join() === 'alpha'", "worker alpha, joined")
        # A second one joins while the page is open; it speaks OCTP/3, so it has no CPU time to show.
        ws.append(tc.start_worker(c, "beta", "--protocol", 3))
        seen, last = [], None
        while True:  # while it runs: the page follows by itself, going forward
            v = drv.js(PAGE_READ)
            if v["updates"] != (last or {}).get("updates"):
                seen.append(v)
            last = v
            if v["state"] in ("finished", "failed") or c.p.poll() is not None:
                break
            time.sleep(0.2)
        check(all(x["state"] in ("running", "finished") for x in seen),
              "the page said 'running', then 'finished' (%s)" % " ".join(sorted({x["state"] for x in seen})))
        running = [x for x in seen if x["state"] == "running" and x["done"] not in ("0", x["total"])]
        dones = [int(x["done"].replace(",", "")) for x in seen]
        check(len(running) >= 2 and dones == sorted(dones) and len(set(dones)) >= 3,
              "the page refreshed by itself while the job ran (%d updates, done went %s)" %
              (len(seen), " ".join(str(d) for d in dones[:12])))
        working = {r["name"] for x in running for r in x["rows"] if r["state"] == "working"}
        check(any(len(x["rows"]) == 2 for x in running) and working == {"alpha", "beta"},
              "the page showed both workers, each working")
        s = final_status(c, base)
        for _ in range(60):  # the page's next refresh shows the final figures
            v = drv.js(PAGE_READ)
            ok, why = page_matches(v, s)
            if ok:
                break
            time.sleep(0.25)
        check(ok, "the finished page shows what /status says: %s" % (why or "every figure"))
        check(v["bar"] == "100%" and v["points"] >= 2, "the bar is full, the chart has its line (%d points)" %
              v["points"])
        names = drv.js("return performance.getEntriesByType('resource').map(e => e.name)")
        check(names and all(n.startswith(base) for n in names),
              "every resource came from the coordinator (%d)" % len(names))
        time.sleep(1)  # the bar's short transition ends before the picture
        shot = os.path.join(os.getcwd(), "status-page.png")
        with open(shot, "wb") as f:
            f.write(base64.b64decode(drv.s("GET", "/screenshot")))
        check(os.path.getsize(shot) > 20000, "screenshot kept: " + shot)
        c.p.terminate()  # ends the hold
        res, _ = c.finish(timeout=60)
        check(v["amount"] == grouped(res["nodes"]), "the page's nodes are the --json total %d" % res["nodes"])
        for w in ws:
            w.wait(timeout=30)
        time.sleep(3.5)  # the coordinator is gone: after two failed reads the page says so
        check(drv.js("return document.getElementById('state').textContent") == "not answering",
              "after the coordinator ended, the page says it does not answer")
    finally:
        drv.quit()
        if c is not None and c.p.poll() is None:
            c.p.kill()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--octad", default="")
    tc.ARGS = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="octad-status-") as tmp:
        tc.TMP = tmp
        try:
            globals()["case_" + tc.ARGS.case]()
        finally:  # a failed check exits here: end what the case started
            for p in _Tracked.started:
                if p.poll() is None:
                    p.kill()
                    p.wait()
    print("PASS " + tc.ARGS.case)


if __name__ == "__main__":
    main()
