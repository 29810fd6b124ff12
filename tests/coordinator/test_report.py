#!/usr/bin/env python3
"""test_report.py: `coordinator --report FILE` (docs/status.md, "Reports"): the finished job written as
FILE.json and FILE.md by real coordinators with real workers over tcp://127.0.0.1, for every kind,
against the job's own --json, the single-process `octad perft` and `octad bench --quick`; a worker
whose name holds quotes, a backslash, a pipe and control bytes; a path that cannot be written.

And `--dump-tasks FILE.csv`: one row per task whose counts times multiplicities add up to the
total, with a worker stopped past its lease (its tasks' requeues), and after a coordinator
killed mid-job and resumed from its journal (the killed run's tasks with their worker), and for a
solve job under --verify (the worker that checked each pair).

And a resumed job's start: its first start from its journal's start record, this run's apart
(resumed_at), and "unknown" for a journal written before start records; the same in /status.

And the bytes of table files a solve job sends to workers and takes from them, in the report,
in /status and in /metrics, against the files on disk.

usage: test_report.py CASE --bin DIR --octad PATH
Cases: perft, analyse, solve, usage, dump, dump_restart, tables, journal_name, resume_start, resume_start_old,
dump_verify.
"""
import csv
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import tc  # noqa: E402  (the shared harness)
from tc import check, fail, run  # noqa: E402

# A name a JSON or Markdown writer must escape: quotes, a backslash, a pipe, a tab, byte 0x01; and the
# name as the coordinator keeps it (peer text made printable ASCII at HELLO: PROTOCOL.md, "Input and logs").
ODD = 'od"d\\ |na\tme\x01'
ODD_KEPT = 'od"d\\x5c |na\\x09me\\x01'


def read_report(prefix):
    """(the report's JSON, its Markdown text); fails if either is missing or a temporary file is left."""
    for suffix in (".json", ".md"):
        check(os.path.exists(prefix + suffix) and not os.path.exists(prefix + suffix + ".tmp"),
              "%s%s written, no %s%s.tmp left" % (os.path.basename(prefix), suffix, os.path.basename(prefix), suffix))
    with open(prefix + ".json") as f:
        doc = json.load(f)
    with open(prefix + ".md") as f:
        md = f.read()
    return doc, md


def bench_signature():
    rc, out, err = run([tc.ARGS.octad, "bench", "--quick", "--repeat", "1"], timeout=600)
    if rc != 0:
        fail("octad bench --quick failed: " + err)
    return int(re.search(r"^signature (\d+)$", out, re.M).group(1))


def check_common(doc, md, kind, res_seconds_key=None):
    """What every report has: the program, the kind, the run's times and units, the contributors."""
    check(doc["report"] == "octad-cluster job" and doc["format"] == 1 and doc["kind"] == kind,
          "%s: the report says what it is (format 1, kind %s)" % (kind, kind))
    check(re.fullmatch(r"\d+\.\d+\.\d+", doc["program"]["version"]) is not None,
          "%s: the program's version (%s)" % (kind, doc["program"]["version"]))
    run_ = doc["run"]
    iso = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"
    check(re.fullmatch(iso, run_["started_at"]) and re.fullmatch(iso, run_["finished_at"]) and
          run_["started_at"] <= run_["finished_at"] and run_["seconds"] >= 0,
          "%s: start %s and end %s in UTC" % (kind, run_["started_at"], run_["finished_at"]))
    check(run_["done"] == run_["total"] > 0, "%s: every unit done (%d %s)" % (kind, run_["total"], run_["unit"]))
    check(md.startswith("# octad-cluster job: %s\n" % kind) and "\n## Contributors\n" in md and "\n## Result\n" in md,
          "%s: the Markdown has its title and sections" % kind)


def check_table_rows(md, kind):
    """Every row of every Markdown table has as many unescaped pipes as its header: no value breaks a table."""
    lines = md.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|") and (i == 0 or not lines[i - 1].startswith("|")):
            width = len(re.findall(r"(?<!\\)\|", line))
            k = i
            while k < len(lines) and lines[k].startswith("|"):
                n = len(re.findall(r"(?<!\\)\|", lines[k]))
                if n != width:
                    fail("%s: Markdown row %r has %d cells' pipes, its header %d" % (kind, lines[k], n, width))
                k += 1
    check(not any(ord(ch) < 0x20 and ch != "\n" for ch in md), "%s: no control byte in the Markdown" % kind)


def case_perft():
    prefix = os.path.join(tc.TMP, "perft")
    c = tc.Coord("perft", "--perft", 10, "--split-depth", 4, "--hash", 0, "--local-workers", 0, "--divide",
                 "--json", "--report", prefix)
    ws = [tc.start_worker(c, ODD), tc.start_worker(c, "alpha")]  # the second joins well before 2840 tasks end
    res, err = c.finish(timeout=300)
    for w in ws:
        w.wait(timeout=30)
    doc, md = read_report(prefix)
    check("report written to %s.json and %s.md" % (prefix, prefix) in err, "the log names the report's files")
    check_common(doc, md, "perft")
    rc, out, perr = run([tc.ARGS.octad, "perft", "--depth", "10", "--divide", "--threads", "1", "--quiet"])
    nodes = int(re.search(r"^nodes\s+(\d+)$", out, re.M).group(1))
    divide = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\S+): (\d+)$", out, re.M)}
    r = doc["result"]
    check(r["nodes"] == nodes == res["nodes"], "the total %d equals octad perft's and --json's" % r["nodes"])
    check(r["divide"] == divide, "the divide equals octad perft's (%d moves)" % len(divide))
    check(r["match"] is True and r["expected_from"] == "reference", "the check against the reference")
    j = doc["job"]
    check(j["variant"] == "octad" and j["position"] == res["position"] and j["depth"] == 10 and
          j["tasks"] == res["tasks"] == doc["run"]["total"], "the job: octad, the position, depth 10, its tasks")
    check(doc["verify"] == {"enabled": False, "workers_told_apart_by": None, "disagreements": 0},
          "verify: not asked, said so")
    who = {x["worker"]: x for x in doc["contributors"]}
    check(set(who) == {"alpha", ODD_KEPT}, "the contributors are the two workers, the odd name exact: %r" % list(who))
    check(sum(x["nodes"] for x in who.values()) == nodes and sum(x["tasks"] for x in who.values()) == res["tasks"],
          "the contributors' nodes and tasks add up to the total and the tasks")
    check(doc["contributors"] == res["contributors"], "the contributors are --json's")
    check(all(x["wall_seconds"] >= 0 for x in who.values()), "each contributor's seconds")
    check('od"d\\\\x5c \\|na\\\\x09me\\\\x01' in md, "the odd name in the Markdown, escaped")
    check_table_rows(md, "perft")
    check("| nodes | %d |" % nodes in md, "the Markdown shows the total")
    sig = bench_signature()
    check(doc["program"]["bench"] == {"signature": sig, "of": "octad bench --quick"},
          "the bench signature %d is octad bench --quick's" % sig)


def case_analyse():
    prefix = os.path.join(tc.TMP, "analyse")
    c = tc.Coord("analyse", "--analyse", 4, "--local-workers", 0, "--multipv", "all", "--json", "--report", prefix)
    w = tc.start_worker(c, "alpha")
    res, _ = c.finish(timeout=120)
    w.wait(timeout=30)
    doc, md = read_report(prefix)
    check_common(doc, md, "analyse")
    r = doc["result"]
    check(r["bestmove"] == res["bestmove"] and r["lines"] == res["lines"] and r["nodes"] == res["nodes"] and
          r["depth"] == 4, "the analysis equals --json's: bestmove %s, %d lines" % (r["bestmove"], len(r["lines"])))
    check(doc["job"]["position"] == res["position"] and doc["job"]["root_moves"] == len(res["lines"]) ==
          doc["run"]["total"], "the job: its position and one task per root move")
    check([x["worker"] for x in doc["contributors"]] == ["alpha"] and doc["contributors"][0]["nodes"] == res["nodes"],
          "the contributor alpha searched every node")
    check_table_rows(md, "analyse")


def case_solve():
    prefix = os.path.join(tc.TMP, "solve")
    tables = os.path.join(tc.TMP, "tables")
    c = tc.Coord("solve", "--solve", "--max-pieces", 3, "--tables", tables, "--local-workers", 1, "--json",
                 "--report", prefix)
    res, _ = c.finish(timeout=240)
    doc, md = read_report(prefix)
    check_common(doc, md, "solve")
    r = doc["result"]
    check(r["pairs"] == res["pairs"] == doc["run"]["total"] and r["positions"] == res["positions"] > 0 and
          r["solved"] == res["solved"], "the pairs and positions equal --json's (%d pairs)" % r["pairs"])
    check(doc["job"]["max_pieces"] == 3 and doc["job"]["tables"] == res["tables"], "the job: 3 pieces, its tables")
    check(sum(x["positions"] for x in doc["contributors"]) == res["positions"],
          "the contributors' positions add up to the job's")
    check_table_rows(md, "solve")


def case_usage():
    bad = os.path.join(tc.TMP, "no-such-dir", "r")
    rc, out, err = run(tc.prog("coordinator", "--perft", 5, "--local-workers", 1, "--report", bad), timeout=60)
    check(rc == 2 and "--report %s.json: cannot write %s.json.tmp: No such file or directory" % (bad, bad) in err,
          "a --report in a missing folder: exit 2 before the job, naming the file: %s" % err.strip())
    check(out == "", "and no result is printed (the job never ran)")
    rc, out, err = run(tc.prog("coordinator", "--perft", 5, "--report"), timeout=60)
    check(rc == 2 and "--report" in err, "--report without a FILE: exit 2 naming the option")


# Octad start, depth 11, cut at ply 4, no hash table: 2840 tasks, a few seconds on two workers.
MID = ["--perft", "11", "--split-depth", "4", "--hash", "0"]
DUMP_HEADER = ["task_id", "task", "position", "depth", "multiplicity", "answer", "amount", "worker", "wall_seconds",
               "cpu_seconds", "source", "leases", "requeues"]


def read_dump(path, res):
    """The dump's rows; checks what every perft dump says: one row per task, in order, whose count
    times multiplicity is its amount, and whose amounts add up to the job's total."""
    check(os.path.exists(path) and not os.path.exists(path + ".tmp"), "the dump is written, no .tmp left")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    check(rows[0] == DUMP_HEADER, "the CSV header: %s" % ",".join(rows[0]))
    rows = [dict(zip(DUMP_HEADER, r)) for r in rows[1:]]
    check(len(rows) == res["tasks"] and [int(r["task_id"]) for r in rows] == list(range(1, res["tasks"] + 1)),
          "one row per task, in order (%d)" % res["tasks"])
    check(all(r["task"] == "%s, depth %s" % (r["position"], r["depth"]) and int(r["depth"]) == 7 for r in rows),
          "each row names its frontier position and its depth (11 - 4)")
    check(all(int(r["answer"]) * int(r["multiplicity"]) == int(r["amount"]) for r in rows),
          "each row's count times its multiplicity is its amount")
    total = sum(int(r["answer"]) * int(r["multiplicity"]) for r in rows)
    check(total == res["nodes"] and res["match"] is True,
          "the counts times the multiplicities add up to the total %d (the reference's)" % total)
    return rows


def case_dump():
    dump = os.path.join(tc.TMP, "tasks.csv")
    c = tc.Coord("dump", *MID, "--local-workers", 0, "--json", "--heartbeat-ms", 100, "--lease-ms", 250,
                 "--dump-tasks", dump)
    # alpha gives up 1 s after a lost session (--once-wait): it may miss the BYE (below)
    ws = [tc.start_worker(c, "alpha", "--prefetch", 8, "--once-wait", 1), tc.start_worker(c, ODD)]
    c.wait_log(r"worker .+ joined", count=2)
    time.sleep(0.2)
    ws[0].send_signal(signal.SIGSTOP)  # alpha's leases expire: its tasks go back
    time.sleep(1.5)
    ws[0].send_signal(signal.SIGCONT)
    res, err = c.finish(timeout=300)
    ws[1].wait(timeout=30)
    # alpha's session was declared dead while it was stopped: if it was between sessions when the
    # job ended, it heard no BYE and gives up after its --once-wait (exit 4); else it exits 0
    check(ws[0].wait(timeout=30) in (0, 4), "the stopped worker ended (exit %s)" % ws[0].returncode)
    check("tasks written to %s" % dump in err, "the log names the dump")
    rows = read_dump(dump, res)
    names = {r["worker"] for r in rows}
    check(names <= {"alpha", ODD_KEPT} and ODD_KEPT in names and all(r["source"] == "run" for r in rows),
          "every task done this run by one of the two workers (the odd name exact)")
    who = {x["worker"]: x for x in res["contributors"]}
    for name in names:
        mine = [r for r in rows if r["worker"] == name]
        check(len(mine) == who[name]["tasks"] and sum(int(r["amount"]) for r in mine) == who[name]["nodes"],
              "%r: its rows are its tasks and nodes in --json's contributors (%d)" % (name, len(mine)))
    check(all(float(r["wall_seconds"]) >= 0 and int(r["leases"]) >= 1 for r in rows),
          "each task has its seconds and was leased at least once")
    requeues = sum(int(r["requeues"]) for r in rows)
    check(requeues == res["requeued"] > 0 and all(int(r["leases"]) >= int(r["requeues"]) for r in rows),
          "the rows' requeues add up to the job's %d (alpha stopped past its lease)" % res["requeued"])


def case_dump_restart():
    j = os.path.join(tc.TMP, "j.journal")
    dump = os.path.join(tc.TMP, "tasks.csv")
    c = tc.Coord("first", *MID, "--local-workers", 0, "--journal", j)
    w = tc.start_worker(c, "first")
    end = time.time() + 120
    while time.time() < end and sum(1 for line in open(j) if line.startswith("T\t")) < 300:
        time.sleep(0.02)
    c.p.kill()  # SIGKILL: the journal is all that is left of the first run
    c.p.wait()
    w.kill()
    w.wait()
    with open(j) as f:
        before = {int(line.split("\t")[1]) for line in f if line.startswith("T\t") and line.endswith("\n")}
    check(300 <= len(before) < 2840, "the first run journaled %d tasks before its SIGKILL" % len(before))
    c = tc.Coord("second", *MID, "--local-workers", 0, "--journal", j, "--json", "--dump-tasks", dump)
    w = tc.start_worker(c, "second")
    res, _ = c.finish(timeout=300)
    w.wait(timeout=30)
    rows = read_dump(dump, res)
    old = [r for r in rows if int(r["task_id"]) in before]
    new = [r for r in rows if int(r["task_id"]) not in before]
    check(len(old) == res["tasks_loaded"] and
          all(r["source"] == "journal" and r["worker"] == "first" and r["leases"] == r["requeues"] == "" for r in old),
          "the %d tasks of the killed run: from the journal, by worker first, no lease this run" % len(old))
    check(all(r["source"] == "run" and r["worker"] == "second" and int(r["leases"]) >= 1 for r in new),
          "the other %d: this run's, by worker second" % len(new))


def case_tables():
    a, b = os.path.join(tc.TMP, "A"), os.path.join(tc.TMP, "B")
    c = tc.Coord("solve3", "--solve", "--max-pieces", 3, "--tables", a, "--local-workers", 1, "--json")
    c.finish(timeout=240)
    first = {f: os.path.getsize(os.path.join(a, f)) for f in os.listdir(a) if f.endswith(".otb")}
    prefix = os.path.join(tc.TMP, "r")
    c = tc.Coord("solve4", "--solve", "--max-pieces", 4, "--tables", a, "--local-workers", 0, "--json",
                 "--report", prefix, "--http", 0, "--http-hold", 60)
    port = c.wait_log(r"status on http://127\.0\.0\.1:(\d+)/ ")[0]
    w = tc.start_worker(c, "far", "--tables", b)  # a cache of its own: the tables travel both ways
    c.wait_log(r"report written to", timeout=240)
    with urllib.request.urlopen("http://127.0.0.1:%s/status" % port, timeout=10) as r:
        status = json.loads(r.read().decode())
    with urllib.request.urlopen("http://127.0.0.1:%s/metrics" % port, timeout=10) as r:
        metrics = dict(line.rsplit(" ", 1) for line in r.read().decode().splitlines() if line and line[0] != "#")
    c.p.terminate()
    c.finish(timeout=60)
    w.wait(timeout=30)
    doc, _ = read_report(prefix)
    made = {f: os.path.getsize(os.path.join(a, f)) for f in os.listdir(a) if f.endswith(".otb") and f not in first}
    fetched = [f for f in os.listdir(b) if f in first]
    sent, received = sum(first[f] for f in fetched), sum(made.values())
    check(sent > 0 and doc["run"]["table_bytes_sent"] == status["counters"]["table_bytes_sent"] == sent ==
          int(metrics["octad_table_bytes_sent_total"]),
          "the bytes sent (%d) are the sizes of the %d tables the worker fetched: report, /status, /metrics" %
          (sent, len(fetched)))
    check(received > 0 and doc["run"]["table_bytes_received"] == status["counters"]["table_bytes_received"] ==
          received == int(metrics["octad_table_bytes_received_total"]),
          "the bytes received (%d) are the sizes of the %d tables it made: report, /status, /metrics" %
          (received, len(made)))


def case_journal_name():
    """A worker name with a quote, a backslash, a pipe, 0x01 and a newline, as a journal's credit records
    may hold it (they are %XX-escaped text, not made printable), through the report, the dump and --json."""
    j = os.path.join(tc.TMP, "j.journal")
    c = tc.Coord("j1", "--perft", 7, "--local-workers", 1, "--journal", j, "--json")
    c.finish(timeout=120)
    name, escaped = 'we"ird\\|\x01\nname', 'we"ird\\|%01%0Aname'
    with open(j, "rb") as f:
        lines = f.read().decode().splitlines(keepends=True)
    out = []
    for line in lines:
        if line.startswith("C\t"):
            f = line.rstrip("\n").split("\t")
            f[2] = escaped
            body = "\t".join(f[:-1])
            line = "%s\t%08x\n" % (body, zlib.crc32(body.encode()))
        out.append(line)
    with open(j, "w") as f:
        f.write("".join(out))
    prefix, dump = os.path.join(tc.TMP, "r"), os.path.join(tc.TMP, "t.csv")
    c = tc.Coord("j2", "--perft", 7, "--local-workers", 1, "--journal", j, "--json", "--report", prefix,
                 "--dump-tasks", dump)
    res, _ = c.finish(timeout=120)
    doc, md = read_report(prefix)
    with open(prefix + ".json", "rb") as f:
        raw = f.read()
    check(res["tasks_loaded"] == res["tasks"] and [x["worker"] for x in res["contributors"]] == [name],
          "--json's contributors: the journal's odd name, exact (%r)" % res["contributors"][0]["worker"])
    check([x["worker"] for x in doc["contributors"]] == [name] and b"\x01" not in raw and
          b"\\u0001" in raw and b"\\n" in raw, "the report's JSON escapes it (\\u0001, \\n) and reads back exact")
    check('we"ird\\\\\\|\\\\x01\\\\x0aname' in md, "the Markdown escapes it: no table broken, no control byte")
    check_table_rows(md, "journal_name")
    with open(dump, newline="") as f:
        rows = list(csv.reader(f))[1:]
    check(len(rows) == res["tasks"] and all(r[7] == name and r[10] == "journal" for r in rows),
          "the dump quotes it: each row's worker reads back exact, from the journal")


def case_dump_verify():
    """A solve job under --verify: each pair's check task has the worker that checked it (never its maker),
    as the coordinator's log says, and the records it checked; the rows are each contributor's tasks."""
    dump, prefix = os.path.join(tc.TMP, "tasks.csv"), os.path.join(tc.TMP, "r")
    c = tc.Coord("sv", "--solve", "--max-pieces", 3, "--tables", os.path.join(tc.TMP, "t"), "--verify",
                 "--local-workers", 2, "--json", "--dump-tasks", dump, "--report", prefix)
    res, err = c.finish(timeout=120)
    with open(dump, newline="") as f:
        rows = list(csv.reader(f))
    check(rows[0] == DUMP_HEADER, "the CSV header")
    rows = [dict(zip(DUMP_HEADER, r)) for r in rows[1:]]
    n = res["pairs"]
    make = {r["task"][len("make pair "):]: r for r in rows[:n]}
    checks = {r["task"][len("check pair "):]: r for r in rows[n:]}
    check(len(rows) == 2 * n and set(make) == set(checks) and len(make) == n and
          all(r["task"].startswith("make pair ") for r in rows[:n]) and
          all(r["task"].startswith("check pair ") for r in rows[n:]),
          "one make and one check row for each of the %d pairs" % n)
    log = {m.group(1): (m.group(2), m.group(3), int(m.group(4))) for m in
           re.finditer(r"pair (\S+) verified by worker (\S+) \(made by worker (\S+)\): (\d+) records", err)}
    check(set(log) == set(make), "the log names a verifier for every pair")
    for pair, (verifier, maker, records) in sorted(log.items()):
        r, m = checks[pair], make[pair]
        check(r["worker"] == verifier != m["worker"] == maker and r["source"] == "run" and
              r["answer"] == "%d records checked, 0 inconsistencies" % records and r["amount"] == "0" and
              float(r["wall_seconds"]) >= 0 and int(r["leases"]) >= 1,
              "check pair %s: checked by %s (the log's), not by its maker %s; %d records" %
              (pair, verifier, maker, records))
    check(sum(int(r["amount"]) for r in rows) == res["positions"],
          "the amounts add up to the positions solved (%d): a check solves none" % res["positions"])
    doc, _ = read_report(prefix)
    for x in doc["contributors"]:
        mine = [r for r in rows if r["worker"] == x["worker"]]
        check(len(mine) == x["tasks"] and sum(int(r["amount"]) for r in mine) == x["positions"],
              "%s: its rows (makes and checks) are its tasks and positions in the report (%d)" %
              (x["worker"], len(mine)))


def journal_set_start(path, at):
    """Rewrites a cluster journal's start record (S) to Unix seconds `at`, or removes it when at is None
    (a journal written before start records), with its line's checksum."""
    out = []
    with open(path) as f:
        for line in f:
            if line.startswith("S\t"):
                if at is None:
                    continue
                body = "S\t%d" % at
                line = "%s\t%08x\n" % (body, zlib.crc32(body.encode()))
            out.append(line)
    with open(path, "w") as f:
        f.write("".join(out))


def iso(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


# A job first started at 2025-12-05T00:00:00Z, as its journal's start record says.
FIRST_START = 1764892800


def resumed_job(tag, start):
    """A perft job run to its end with a journal whose start record is then set to `start` (None: removed),
    resumed by a second coordinator with --report and --http: (its report's JSON, its Markdown, its /status
    after the job, the second run's wall-clock window)."""
    j = os.path.join(tc.TMP, "j.journal")
    t0 = time.time()
    c = tc.Coord(tag + "1", "--perft", 5, "--local-workers", 1, "--journal", j, "--json")
    c.finish(timeout=120)
    t1 = time.time()
    with open(j) as f:
        lines = f.readlines()
    m = re.fullmatch(r"S\t(\d+)\t[0-9a-f]{8}\n", lines[1])
    check(m is not None and int(t0) <= int(m.group(1)) <= t1,
          "the first run wrote the job's start right after the header: %r" % lines[1])
    journal_set_start(j, start)
    prefix = os.path.join(tc.TMP, "r")
    before = int(time.time())
    c = tc.Coord(tag + "2", "--perft", 5, "--local-workers", 1, "--journal", j, "--json", "--report", prefix,
                 "--http", 0, "--http-hold", 60)
    port = c.wait_log(r"status on http://127\.0\.0\.1:(\d+)/ ")[0]
    c.wait_log(r"report written to", timeout=120)
    with urllib.request.urlopen("http://127.0.0.1:%s/status" % port, timeout=10) as r:
        status = json.loads(r.read().decode())
    c.p.terminate()
    res, _ = c.finish(timeout=60)
    after = time.time()
    check(res["tasks_loaded"] == res["tasks"], "the second run resumed the whole job from the journal")
    doc, md = read_report(prefix)
    return doc, md, status, (before, after)


def md_section(md, title):
    """The text of the Markdown's section `## title`, up to the next one."""
    return md.split("\n## %s\n" % title, 1)[1].split("\n## ", 1)[0]


def check_resumed_at(doc, status, window):
    run_ = doc["run"]
    check(run_["resumed_at"] is not None and iso(window[0]) <= run_["resumed_at"] <= iso(window[1]) and
          run_["resumed_at"] <= run_["finished_at"],
          "resumed_at is this run's start (%s), apart from the job's" % run_["resumed_at"])
    check(status["resumed_at"] == run_["resumed_at"] and status["started_at"] == run_["started_at"] and
          status["started_at_source"] == run_["started_at_source"],
          "/status says the same start, source and resumption as the report")


def case_resume_start():
    """A resumed job's report and /status give its first start, from its journal, and this run's separately."""
    doc, md, status, window = resumed_job("start", FIRST_START)
    run_ = doc["run"]
    check(run_["started_at"] == "2025-12-05T00:00:00Z" and run_["started_at_source"] == "journal",
          "started_at is the job's first start, from its journal (%s)" % run_["started_at"])
    check_resumed_at(doc, status, window)
    sec = md_section(md, "Run")
    check("| started\\_at | 2025-12-05T00:00:00Z |" in sec and "| started\\_at\\_source | journal |" in sec and
          "| resumed\\_at | %s |" % run_["resumed_at"] in sec, "the Markdown's Run section says both")


def case_resume_start_old():
    """A journal written before start records: the start is unknown, said so, and this run's is separate."""
    doc, md, status, window = resumed_job("old", None)
    run_ = doc["run"]
    check(run_["started_at"] is None and run_["started_at_source"] == "unknown",
          "started_at is null and its source \"unknown\" (the journal keeps no start)")
    check_resumed_at(doc, status, window)
    sec = md_section(md, "Run")
    check("| started\\_at | - |" in sec and "| started\\_at\\_source | unknown |" in sec,
          "the Markdown says the start is unknown")
    with open(os.path.join(tc.TMP, "j.journal")) as f:
        check(not any(line.startswith("S\t") for line in f), "and no start record was invented for it")


if __name__ == "__main__":
    tc.main(globals(), "octad-report-")
