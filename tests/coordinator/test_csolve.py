#!/usr/bin/env python3
"""test_csolve.py: `coordinator --solve` with real coordinator and worker processes over real
sockets (tcp://127.0.0.1:*), tables up to 4 pieces, against `octad solve` run by the test.

usage: test_csolve.py CASE --bin DIR --octad PATH
Cases: usage, exact, position, memory, local_memory, shared, kill_worker, kill_coordinator, corrupt, curve, octp1,
verify, verify_restart, verify_fail, bad_files, late_join, stop_worker, term_worker, curve_liar.
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
from tc import check, check_clean, prog, start_worker  # noqa: E402

ARGS = None
TMP = None
PIECES = 4
FAST = ["--heartbeat-ms", "200", "--liveness", "3"]


def reference():
    """SUMMARY of `octad solve` up to PIECES pieces, made by this test."""
    ref = os.path.join(TMP, "ref")
    p = subprocess.run([ARGS.octad, "solve", "--max-pieces", str(PIECES), "--tables", ref, "--quiet"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    check(p.returncode == 0, "octad solve --max-pieces %d (the reference)" % PIECES)
    with open(os.path.join(ref, "SUMMARY")) as f:
        return f.read()


class Coord(tc.Coord):
    """A coordinator --solve WHAT --tables TABLES --json (tc.Coord) with no local worker."""

    def __init__(self, tag, tables, *extra, what=("--max-pieces", PIECES)):
        super().__init__(tag, "--solve", *what, "--tables", tables, "--local-workers", 0, "--json", *FAST, *extra)


def summary(tables):
    with open(os.path.join(tables, "SUMMARY")) as f:
        return f.read()


def no_part_files(tables):
    return not [n for n in os.listdir(tables) if ".part" in n]


def fetched(log):
    with open(log) as f:
        return sum(int(n) for n in re.findall(r": (\d+) tables to fetch", f.read()))


def case_exact():
    ref = reference()
    tables = os.path.join(TMP, "coord")
    c = Coord("exact", tables)
    a = start_worker(c, "A", "--tables", os.path.join(TMP, "cache-a"))
    b = start_worker(c, "B")  # a private temporary cache
    res, text = c.finish()
    check(a.wait(timeout=30) == 0 and b.wait(timeout=30) == 0, "both workers exit 0 at the end")
    check(summary(tables) == ref, "SUMMARY identical to octad solve --max-pieces %d" % PIECES)
    check(res["pairs"] == 33 and res["solved"] == 33 and res["already_done"] == 0, "33 pairs solved")
    solvers = set(re.findall(r"done \(made by worker (\w+)\)", text))
    check(solvers == {"A", "B"}, "both workers solved pairs (%s)" % sorted(solvers))
    fa, fb = fetched(os.path.join(TMP, "worker-A.log")), fetched(os.path.join(TMP, "worker-B.log"))
    check(fa > 0 and fb > 0, "no shared directory: both workers fetched child tables (%d, %d)" % (fa, fb))
    check(no_part_files(tables), "no partial file left in the coordinator's directory")
    check(not [n for n in os.listdir(TMP) if n.startswith("octad-worker-")], "the temporary cache was removed")


def case_position():
    """--solve --ofen POS: only the pairs POS needs, and its value as octad probe gives it."""
    ref = reference()
    pos = "k3/4/1P2/1KN1 w - - 0 1"  # KNPvK: promotions and captures lead to 4- and 3-piece pairs
    tables = os.path.join(TMP, "coord")
    c = Coord("position", tables, what=("--ofen", pos))
    a = start_worker(c, "A")
    b = start_worker(c, "B")
    res, text = c.finish()
    check(a.wait(timeout=30) == 0 and b.wait(timeout=30) == 0, "both workers exit 0 at the end")
    check(1 < res["pairs"] < 33 and res["solved"] == res["pairs"],
          "only the pairs the position needs: %d of the 33 up to 4 pieces" % res["pairs"])
    mine, theirs = summary(tables).splitlines(), set(ref.splitlines())
    check(len(mine) > res["pairs"] and all(line in theirs for line in mine),
          "each of its %d tables has the same counts and CRC-32C as octad solve's" % len(mine))
    p = subprocess.run([ARGS.octad, "probe", pos, "--tables", os.path.join(TMP, "ref"), "--json"],
                       stdout=subprocess.PIPE, text=True, timeout=60)
    want = json.loads(p.stdout)
    check(res["answer"] == want, "the answer equals octad probe --json on octad solve's tables (%s, dtm %d)"
          % (want["wdl"], want["dtm"]))
    check(want["wdl"] == "win" and want["best"], "and it is a win with best moves")


def case_shared():
    ref = reference()
    tables = os.path.join(TMP, "coord")
    c = Coord("shared", tables)
    a = start_worker(c, "A", "--tables", tables)
    res, text = c.finish()
    a.wait(timeout=30)
    check(summary(tables) == ref, "shared directory: SUMMARY identical to octad solve")
    check(fetched(os.path.join(TMP, "worker-A.log")) == 0, "a worker sharing --tables fetches nothing")


def case_kill_worker():
    ref = reference()
    tables = os.path.join(TMP, "coord")
    c = Coord("kill_worker", tables)
    a = start_worker(c, "A", "--test-delay-ms", 60000)
    first = c.wait_log(r"solving (\w+) on worker A")[0]
    time.sleep(0.3)
    a.send_signal(signal.SIGKILL)
    a.wait()
    b = start_worker(c, "B")
    res, text = c.finish()
    b.wait(timeout=30)
    check(re.search(r"worker A left \([^)]*\); 1 tasks back in the queue", text) is not None,
          "the SIGKILLed worker's pair went back to the queue")
    check(re.search(r"solving %s on worker B" % first, text) is not None, "pair %s re-issued to B" % first)
    check(summary(tables) == ref, "SUMMARY identical to octad solve after a worker SIGKILL")
    check(res["requeued"] >= 1, "the JSON report counts the re-queued pair")


def case_term_worker():
    """A worker of two threads stopped (SIGTERM) while its pair runs on its whole pool hands the pair
    back at once (worker/compute.h: the pool's running tasks) and exits 0; the pair is solved elsewhere."""
    ref = reference()
    tables = os.path.join(TMP, "coord")
    c = Coord("term_worker", tables)
    a = start_worker(c, "A", "--threads", 2, "--test-delay-ms", 60000)
    first = c.wait_log(r"solving (\w+) on worker A")[0]
    time.sleep(0.3)
    t0 = time.monotonic()
    a.send_signal(signal.SIGTERM)
    check(a.wait(timeout=30) == 0, "the stopped worker exits 0 (%.1f s after SIGTERM)" % (time.monotonic() - t0))
    # Its HANDBACK, or, when the coordinator hears the connection close before the HANDBACK
    # queued behind it (a loaded machine), the session's end: either puts the pair back at once.
    c.wait_log(r"worker A (?:handed back (?:pair %s|1 tasks)|left \(its connection closed\); 1 tasks back)" % first,
               timeout=20)
    check(time.monotonic() - t0 < 10, "it handed back pair %s at once, not after its lease" % first)
    b = start_worker(c, "B")
    res, text = c.finish()
    b.wait(timeout=30)
    check(re.search(r"solving %s on worker B" % first, text) is not None, "pair %s re-issued to B" % first)
    check(summary(tables) == ref, "SUMMARY identical to octad solve after a worker stop")


def case_kill_coordinator():
    ref = reference()
    tables = os.path.join(TMP, "coord")
    c = Coord("run1", tables)
    a = start_worker(c, "A", "--test-delay-ms", 100)
    c.wait_log(r"pair \w+ done", count=10)
    c.p.send_signal(signal.SIGKILL)
    c.p.wait()
    c.err.close()
    a.kill()
    a.wait()
    done1 = set(re.findall(r"pair (\w+) done", c.text()))
    check(10 <= len(done1) < 33, "coordinator SIGKILLed after %d of 33 pairs" % len(done1))
    c2 = Coord("run2", tables)
    b = start_worker(c2, "B")
    res, text = c2.finish()
    b.wait(timeout=30)
    m = re.search(r"(\d+) pairs, (\d+) already done there", text)
    check(m is not None and int(m.group(2)) >= len(done1), "restart: %s pairs found done in the directory"
          % (m.group(2) if m else "?"))
    again = done1 & set(re.findall(r"solving (\w+) on", text))
    check(not again, "no pair finished before the crash is solved again (%s)" % sorted(again))
    check(res["already_done"] == int(m.group(2)) and res["solved"] == 33 - res["already_done"],
          "the JSON report: already done + solved = 33")
    check(summary(tables) == ref, "SUMMARY identical to octad solve after a coordinator SIGKILL")
    check(no_part_files(tables), "no partial file left behind")


def case_corrupt():
    ref = reference()
    tables = os.path.join(TMP, "coord")
    c = Coord("corrupt", tables)
    a = start_worker(c, "A", "--inject-fault", 3)
    res, text = c.finish()
    a.wait(timeout=30)
    rejected = re.findall(r"(\w+) from worker A: chunk at offset (\d+) rejected", text)
    check(len(rejected) > 0 and res["rejected_chunks"] == len(rejected),
          "%d corrupt chunks rejected (CRC-32C) and asked for again" % len(rejected))
    check("giving up" not in text, "each rejected chunk came right the second time")
    check(summary(tables) == ref, "SUMMARY identical to octad solve despite corrupt chunks")


def case_curve():
    ref = reference()
    for name in ("coord", "wa", "wb", "evil"):
        p = subprocess.run(prog("coordinator", "keygen", os.path.join(TMP, name)), stdout=subprocess.PIPE)
        check(p.returncode == 0, "keygen " + name)
    tables = os.path.join(TMP, "coord-tables")
    c = Coord("curve", tables, "--curve-secret", os.path.join(TMP, "coord.key"),
              "--allow", os.path.join(TMP, "wa.pub"), "--allow", os.path.join(TMP, "wb.pub"))
    keys = lambda k: ["--server-key", os.path.join(TMP, "coord.pub"), "--secret", os.path.join(TMP, k + ".key")]
    evil = start_worker(c, "evil", *keys("evil"))
    a = start_worker(c, "A", *keys("wa"))
    b = start_worker(c, "B", *keys("wb"))
    res, text = c.finish()
    a.wait(timeout=30)
    b.wait(timeout=30)
    evil.kill()
    evil.wait()
    check(summary(tables) == ref, "CURVE: SUMMARY identical to octad solve")
    check("made by worker evil" not in text and "refused a CURVE client" in text,
          "the worker with an unlisted key was refused and made nothing")


def case_octp1():
    tables = os.path.join(TMP, "coord")
    c = Coord("octp1", tables)
    rc, wtext = tc.run_worker(c, "old", "--protocol", 1)
    check(rc == 1 and "needs OCTP/2" in wtext, "an OCTP/1 worker is refused with a clear error and exits 1")
    c.wait_log(r"worker old refused: it speaks OCTP/1, and a solve job needs OCTP/2")
    a = start_worker(c, "A")
    res, _ = c.finish()
    a.wait(timeout=30)
    check(res["solved"] == 33, "an OCTP/2 worker then does the job")
    # A perft-only (OCTP/1) worker still works for a perft job.
    tc.check_old_worker_perft(1)


def case_memory():
    """worker --memory: a pair estimated above it is refused (REFUSE MEMORY) and goes to another worker."""
    ref = reference()
    tables = os.path.join(TMP, "coord")
    c = Coord("memory-1", tables, "--stall-timeout", 2000)
    small = start_worker(c, "small", "--memory", "0.0002")  # 200 kB: 3-piece pairs only
    out, _ = c.p.communicate(timeout=120)
    c.err.close()
    text = c.text()
    check_clean(text)
    refusals = re.findall(r"worker small refused task \d+ \(make pair (\w+)\) \(code 11\): \1 needs about [0-9.e-]+ "
                          r"GB at its peak; "
                          r"this worker may use 0.0002 GB \(--memory\)", text)
    check(len(refusals) > 0, "a worker with --memory 0.0002 refuses %d pairs, each naming its need" % len(refusals))
    made = re.findall(r"pair (\w+) done \(made by worker small\)", text)
    check(made and all(len(re.findall("[KQRBNP]", p)) == 3 for p in made),
          "and solves the small ones itself (%s)" % " ".join(made))
    check(c.p.returncode == 1 and "no worker accepts task" in text and "last refusal: worker small: " in text,
          "alone, the job stalls: exit 1 after --stall-timeout, naming the last refusal")
    small.wait(timeout=30)
    c = Coord("memory-2", tables)
    small = start_worker(c, "small", "--memory", "0.0002")
    big = start_worker(c, "big")
    res, text = c.finish()
    check(small.wait(timeout=30) == 0 and big.wait(timeout=30) == 0, "both workers exit 0 at the end")
    check(summary(tables) == ref, "with a second worker the job ends: SUMMARY identical to octad solve")
    check(not re.search(r"pair (\w+) done \(made by worker small\)", text) or
          all(len(re.findall("[KQRBNP]", p)) == 3 for p in re.findall(r"pair (\w+) done \(made by worker small\)", text)),
          "the small worker made no pair above its budget")


def most_at_once(text):
    """The most solve or verify leases outstanding at once, from the coordinator's log in order."""
    held, most = set(), 0
    for line in text.splitlines():
        m = re.search(r"coordinator: (solving|verifying) (\w+) on worker", line)
        if m:
            held.add(m.group(2))
        m = (re.search(r"coordinator: pair (\w+) made by worker", line) or
             re.search(r"coordinator: pair (\w+) (?:verified|made) by worker \S+ (?:\(|FAILED)", line))
        if m:
            held.discard(m.group(1))
        most = max(most, len(held))
    return most


def case_local_memory():
    """coordinator --memory: the local workers' pairs together stay within it (a pair alone always runs)."""
    ref = reference()
    runs = {}
    for tag, extra in (("default", []), ("tight", ["--memory", "0.0001"])):
        tables = os.path.join(TMP, tag)
        p = subprocess.run(prog("coordinator", "--solve", "--max-pieces", PIECES, "--tables", tables, "--verify",
                                "--local-workers", 2, "--json", *extra),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=240)
        check_clean(p.stderr)
        check(p.returncode == 0 and summary(tables) == ref,
              "--verify, 2 local workers%s: SUMMARY identical to octad solve" % (" " + " ".join(extra) if extra else ""))
        runs[tag] = most_at_once(p.stderr)
    check(runs["default"] > 1, "by default the two local workers hold pairs at the same time (%d)" % runs["default"])
    check(runs["tight"] == 1, "under --memory 0.0001 (100 kB, less than any 4-piece pair) one pair at a time")


def case_verify():
    ref = reference()
    tables = os.path.join(TMP, "coord")
    c = Coord("verify", tables, "--verify")
    a = start_worker(c, "A")
    b = start_worker(c, "B")
    res, text = c.finish(timeout=240)
    a.wait(timeout=30)
    b.wait(timeout=30)
    pairs = re.findall(r"pair (\w+) verified by worker (\w+) \(made by worker (\w+)\)", text)
    check(len(pairs) == 33, "all 33 pairs verified")
    check(all(v != m for _, v, m in pairs), "each pair verified by another worker than its maker")
    check(res["verified"] == 33 and res["verify"] is True, "the JSON report says 33 verified")
    made, checked = journal_records(tables)
    check(len(made) == 33 and len(checked) == 33 and all(checked[p][0] != made[p][0] for p in made),
          "DIR/solve.journal: an M record (its maker) and a V record (another verifier) for each of the 33 pairs")
    check(sum(len(r[1]) for r in checked.values()) == 61, "the V records name all 61 table files")
    check(not os.path.exists(os.path.join(tables, "VERIFIED")), "DIR/VERIFIED is no longer written")
    check(summary(tables) == ref, "--verify: SUMMARY identical to octad solve")
    # A restart finds everything done and verified: nothing is solved or verified again.
    c2 = Coord("verify2", tables, "--verify")
    res2, text2 = c2.finish()
    check(res2["already_done"] == 33 and "verifying" not in text2, "restart: every pair already done and verified")
    # An earlier coordinator's DIR/VERIFIED (`NAME SIZE CRC WORKER` lines) and no journal: still read.
    os.unlink(os.path.join(tables, "solve.journal"))
    with open(os.path.join(tables, "VERIFIED"), "w") as f:
        for pair, (who, files) in sorted(checked.items()):
            f.writelines("%s %s %s %s\n" % (name, size, crc, who) for name, size, crc in files)
    c3 = Coord("verify3", tables, "--verify")
    res3, text3 = c3.finish()
    check(res3["already_done"] == 33 and "verifying" not in text3, "restart with DIR/VERIFIED of before the journal: "
          "every pair already verified")
    made3, checked3 = journal_records(tables)
    check(checked3 == checked and "VERIFIED, the list before solve.journal, converted: 33 pairs" in text3,
          "DIR/VERIFIED converted to the same 33 V records")
    check(not os.path.exists(os.path.join(tables, "VERIFIED")) and os.path.exists(os.path.join(tables, "VERIFIED.old")),
          "DIR/VERIFIED kept as DIR/VERIFIED.old")


def journal_records(tables):
    """DIR/solve.journal's M and V records: {pair: (worker, [(name, size, crc), ...])} each, the last one counting."""
    made, checked = {}, {}
    with open(os.path.join(tables, "solve.journal")) as f:
        lines = f.read().split("\n")
    check(lines[0].startswith("OCTAD-JOURNAL\t2\tsolve\t"), "DIR/solve.journal is a journal of kind solve")
    for line in lines[1:]:
        fields = line.split("\t")[:-1]  # the CRC off
        if fields and fields[0] in "MV":
            files = [tuple(fields[k:k + 3]) for k in range(3, len(fields), 3)]
            (made if fields[0] == "M" else checked)[fields[1]] = (fields[2], files)
    return made, checked


def case_verify_restart():
    """--verify: the coordinator is killed while pairs wait for their check; after the restart their
    maker (named by the journal's M records) still does not verify them, another worker does."""
    ref = reference()
    tables = os.path.join(TMP, "coord")
    c = Coord("verify_restart", tables, "--verify")
    a = start_worker(c, "A")
    c.wait_log(r"pair \w+ made by worker A; waiting", count=3)  # alone, A makes pairs it may not check
    c.p.send_signal(signal.SIGKILL)
    c.p.wait()
    c.err.close()
    a.kill()
    a.wait()
    made, checked = journal_records(tables)
    waiting = sorted(p for p, (who, _) in made.items() if who == "A" and p not in checked)
    check(len(waiting) >= 3, "killed with %d pairs made by A and not verified" % len(waiting))
    c2 = Coord("verify_restart2", tables, "--verify")
    rc, _, err = tc.run(prog("coordinator", "--solve", "--max-pieces", PIECES, "--tables", tables, "--verify",
                             "--local-workers", 0, "--bind", "tcp://127.0.0.1:*"), timeout=60)
    check(rc == 2 and "solve.journal: cannot lock" in err, "a second coordinator on the directory is refused "
          "(exit 2): %s" % err.strip()[-160:])
    a2 = start_worker(c2, "A")
    time.sleep(3)  # A alone: every pair it could get is its own pair's check
    mine = re.findall(r"verifying (\w+) on worker A", c2.text())
    check(not [p for p in mine if p in waiting], "after the restart A is given none of its own %d pairs to verify "
          "(it verified %s)" % (len(waiting), mine))
    b = start_worker(c2, "B")
    res, text = c2.finish(timeout=240)
    a2.wait(timeout=30)
    b.wait(timeout=30)
    for p in waiting:
        check(re.search(r"pair %s verified by worker B \(made by worker A\)" % p, text) is not None,
              "pair %s, made by A before the restart, verified by B" % p)
    made, checked = journal_records(tables)
    check(len(checked) == 33 and all(checked[p][0] != made[p][0] for p in made),
          "all 33 pairs verified, none by its maker")
    check(summary(tables) == ref, "SUMMARY identical to octad solve")


def case_verify_fail():
    ref = reference()
    tables = os.path.join(TMP, "coord")
    c = Coord("verify_fail", tables, "--verify")
    a = start_worker(c, "A", "--test-spoil", 2)  # every 2nd pair A makes has a spoiled record
    c.wait_log(r"pair \w+ made by worker A", count=2)  # alone, A makes pairs (B would then only verify them)
    b = start_worker(c, "B")
    res, text = c.finish(timeout=240)
    a.wait(timeout=30)
    b.wait(timeout=30)
    bad = re.findall(r"pair (\w+) made by worker A FAILED verification by worker B", text)
    check(len(bad) > 0 and res["failed_verifications"] == len(bad),
          "%d spoiled pairs made by A caught by B's verifier" % len(bad))
    redone = [p for p in bad if re.search(r"pair %s verified by worker A \(made by worker B\)" % p, text)]
    check(redone == bad, "each was solved again by B and verified by A")
    check(all(os.path.exists(os.path.join(tables, p + ".otb.rejected")) for p in bad), "the bad files are kept")
    check(summary(tables) == ref, "SUMMARY identical to octad solve despite the spoiled pairs")


def case_bad_files():
    """Without --verify, files are still checked record by record when they arrive: a worker whose files do
    not match their own checksums is refused, the files are set aside (a later run must not take them for
    done), the coordinator says what it waits for, and another worker makes the pairs."""
    ref = reference()
    tables = os.path.join(TMP, "coord")
    c = Coord("bad_files", tables, "--stall-timeout", 600000)
    a = start_worker(c, "A", "--test-damage", 1)  # every pair A makes has a byte changed after its checksums
    refused = c.wait_log(r"pair (\w+) from worker A refused \(its files are set aside as \.rejected\): \w+: "
                         r"[^\n]*corrupted records")
    c.wait_log(r"that no connected worker takes \(1 connected[^\n]*last refusal: bad files of pair \w+ from worker A"
               r"[^\n]*waiting for another worker; the job ends in \d+ s")
    b = start_worker(c, "B")
    res, text = c.finish(timeout=240)
    a.wait(timeout=30)
    b.wait(timeout=30)
    check(not re.search(r"done \(made by worker A\)", text), "no pair of A's counts")
    refused = set(re.findall(r"pair (\w+) from worker A refused", text))
    check(len(refused) > 0 and all(os.path.exists(os.path.join(tables, p + ".otb.rejected")) or
                                   os.path.exists(os.path.join(tables, p.split("v")[1] + "v" + p.split("v")[0] +
                                                               ".otb.rejected")) for p in refused),
          "%d pairs from A refused, their files kept aside as .rejected" % len(refused))
    check(summary(tables) == ref, "SUMMARY identical to octad solve: B made every pair")


def case_late_join():
    """A worker that joins a running job takes pairs beside the first one."""
    ref = reference()
    tables = os.path.join(TMP, "coord")
    c = Coord("late_join", tables)
    a = start_worker(c, "A", "--test-delay-ms", 150)
    c.wait_log(r"pair \w+ done", count=5)
    b = start_worker(c, "B", "--test-delay-ms", 150)
    res, text = c.finish()
    a.wait(timeout=30)
    b.wait(timeout=30)
    by_b = re.findall(r"pair (\w+) done \(made by worker B\)", text)
    check(len(by_b) > 0, "the late worker B made %d pairs" % len(by_b))
    check(summary(tables) == ref, "SUMMARY identical to octad solve with a worker that joined late")
    check(res["solved"] == 33, "every pair made once (%d)" % res["solved"])


def case_stop_worker():
    """A worker stopped past its lease and its liveness loses its session: its pair goes to another worker, and
    what it sends from the old session when it resumes is not taken (the session is gone: NOT_WELCOME)."""
    ref = reference()
    tables = os.path.join(TMP, "coord")
    c = Coord("stop_worker", tables, "--lease-ms", 600)
    a = start_worker(c, "A", "--test-delay-ms", 1500)
    first = c.wait_log(r"solving (\w+) on worker A")[0]
    time.sleep(0.2)
    a.send_signal(signal.SIGSTOP)
    b = start_worker(c, "B")
    c.wait_log(r"solving %s on worker B" % first)
    time.sleep(1.0)
    a.send_signal(signal.SIGCONT)
    res, text = c.finish()
    b.wait(timeout=30)
    if a.poll() is None:
        a.terminate()
    a.wait(timeout=30)
    check("silent past its liveness" in text or re.search(r"[1-9]\d* leases expired", text) is not None,
          "the stopped worker's lease expired or it was declared dead")
    check(re.search(r"pair %s done \(made by worker B\)" % first, text) is not None,
          "its pair %s was made by B" % first)
    check(not re.search(r"pair \w+ done \(made by worker A\)", text) or res["solved"] == 33,
          "each pair made once (%d)" % res["solved"])
    check(res["solved"] == 33, "33 pairs made, none twice")
    check(summary(tables) == ref, "SUMMARY identical to octad solve after a SIGSTOP past the lease")


def case_curve_liar():
    """Under CURVE and --verify, a keyed worker that spoils the pairs it makes is caught by the other key's
    verifier; the result is exact."""
    ref = reference()
    for name in ("coord", "wa", "wb"):
        p = subprocess.run(prog("coordinator", "keygen", os.path.join(TMP, name)), stdout=subprocess.PIPE)
        check(p.returncode == 0, "keygen " + name)
    tables = os.path.join(TMP, "coord-tables")
    c = Coord("curve_liar", tables, "--verify", "--curve-secret", os.path.join(TMP, "coord.key"),
              "--allow", os.path.join(TMP, "wa.pub"), "--allow", os.path.join(TMP, "wb.pub"))
    keys = lambda k: ["--server-key", os.path.join(TMP, "coord.pub"), "--secret", os.path.join(TMP, k + ".key")]
    a = start_worker(c, "A", "--test-spoil", 2, *keys("wa"))
    c.wait_log(r"pair \w+ made by worker A", count=2)
    b = start_worker(c, "B", *keys("wb"))
    res, text = c.finish(timeout=240)
    a.wait(timeout=30)
    b.wait(timeout=30)
    bad = re.findall(r"pair (\w+) made by worker A \[key \w+\] FAILED verification by worker B", text)
    check(len(bad) > 0 and res["failed_verifications"] == len(bad),
          "CURVE: %d spoiled pairs of the key wa caught by the key wb's verifier" % len(bad))
    pairs = re.findall(r"pair (\w+) verified by worker (\w+) \(made by worker (\w+) \[key", text)
    check(len(pairs) == 33 and all(v != m for _, v, m in pairs), "every pair verified by the other key")
    check(summary(tables) == ref, "CURVE + --verify: SUMMARY identical to octad solve despite the liar")


def case_usage():
    bad = [(["--solve", "--perft", "5"], "takes none of the perft options"),
           (["--solve", "--max-pieces", "9"], "--max-pieces"),
           (["--solve", "--tables", ""], "--tables"),
           (["--max-pieces", "4"], "go with --solve"),
           (["--starts"], "go with --solve"),
           (["--memory", "2", "--perft", "3"], "go with --solve"),
           (["--solve", "--memory", "-1"], "--memory"),
           (["--solve", "--max-pieces", "4", "--ofen", "k3/4/4/1KQN w - - 0 1"], "one of --max-pieces"),
           (["--solve", "--starts", "--ofen", "k3/4/4/1KQN w - - 0 1"], "one of --max-pieces"),
           (["--solve", "--ofen", "k3/4/4/1KQX w - - 0 1"], "--ofen"),
           (["--solve", "--tables", "/proc/version/x"], "/proc/version/x")]
    for args, want in bad:
        p = subprocess.run(prog("coordinator", *args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(p.returncode == 2 and want in p.stderr and p.stderr.count("\n") == 1,
              "coordinator %s: exit 2, one line naming %s" % (" ".join(args), want))
    for args, want in [(["--tables", ""], "--tables"), (["--protocol", "5"], "--protocol"),
                       (["--memory", "0"], "--memory"), (["--memory", "lots"], "--memory")]:
        p = subprocess.run(prog("worker", "--connect", "tcp://127.0.0.1:1", *args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
        check(p.returncode == 2 and want in p.stderr, "worker %s: exit 2 naming %s" % (" ".join(args), want))


def main():
    global ARGS, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--octad", required=True)
    ARGS = ap.parse_args()
    tc.ARGS = ARGS
    with tempfile.TemporaryDirectory(prefix="csolve-") as tmp:
        TMP = tmp
        tc.TMP = tmp
        os.environ["TMPDIR"] = tmp  # workers' private caches land here, so the test sees them removed
        globals()["case_" + ARGS.case]()
    print("PASS " + ARGS.case)


if __name__ == "__main__":
    main()
