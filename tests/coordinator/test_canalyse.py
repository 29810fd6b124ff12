#!/usr/bin/env python3
"""test_canalyse.py: `coordinator --analyse` (OCTP/3) with real coordinator and worker processes
over real sockets (tcp://127.0.0.1:*), against `octad search --split` run in one process by the test.

usage: test_canalyse.py CASE --bin DIR --octad PATH
Cases: usage, exact, kill_worker, kill_coordinator, verify, octp2, curve.
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
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import tc  # noqa: E402  (the shared harness)
from tc import check, prog, reap  # noqa: E402

ARGS = None
TMP = None
FAST = ["--heartbeat-ms", "200", "--liveness", "3"]
HASH = ["--hash", 16]


def reference(depth, *pos):
    """`octad search --split --depth D --json` of a position, in one process."""
    p = subprocess.run([ARGS.octad, "search", "--split", "--depth", str(depth), "--json",
                        *[str(a) for a in HASH], *[str(a) for a in pos]], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=120)
    check(p.returncode == 0, "octad search --split --depth %d %s (the reference)" % (depth, " ".join(map(str, pos))))
    return json.loads(p.stdout)


def same(got, ref):
    """Everything but the wall time: every line (score, bound, PV), best move, nodes, seldepth."""
    keys = ("variant", "position", "depth", "seldepth", "nodes", "bestmove", "ponder", "lines")
    return all(got[k] == ref[k] for k in keys)


class Coord(tc.Coord):
    """A coordinator --analyse DEPTH --multipv all --json (tc.Coord) with LOCAL local workers."""

    def __init__(self, tag, depth, *extra, local=0):
        super().__init__(tag, "--analyse", depth, "--multipv", "all", "--json", "--local-workers", local,
                         *HASH, *FAST, *extra)


def start_worker(coord, name, *extra, log=None):
    """tc.start_worker without a hash table."""
    return tc.start_worker(coord, name, "--hash", 0, *extra, log=log)


def case_exact():
    """Scores, PVs, nodes and best move equal the one-process split, for every variant."""
    start = reference(3)
    game = "%s %s" % (start["bestmove"], start["ponder"])
    cases = [("octad start, depth 12", 12, []),
             ("octad after two moves (history sent along)", 10, ["--moves", game]),
             ("chess start, depth 5", 5, ["--variant", "chess"]),
             ("chess mate in 1", 4, ["--variant", "chess", "--fen", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]),
             ("chess960 start 100, depth 5", 5, ["--variant", "chess960", "--start", 100])]
    for what, depth, pos in cases:
        ref = reference(depth, *pos)
        c = Coord("exact", depth, *pos)
        # Both workers must take part: A is stopped once it has joined and continued once B has,
        # so it cannot finish the job alone however slowly B starts (a stop past its liveness
        # ends its session and requeues its task: no result changes, each move is searched alone;
        # --once-wait 1: if that made it miss the BYE, it leaves 1 s after the job).
        a = start_worker(c, "A", "--test-delay-ms", 300, "--once-wait", 1)
        c.wait_log(r"worker A joined")
        a.send_signal(signal.SIGSTOP)
        b = start_worker(c, "B")
        c.wait_log(r"worker B joined")
        a.send_signal(signal.SIGCONT)
        got, text = c.finish()
        reap(a, b)
        check(same(got, ref), "%s: coordinator --analyse equals octad search --split (%d moves, best %s)"
              % (what, len(ref["lines"]), ref["bestmove"]))
        check(re.search(r"worker A joined", text) and re.search(r"worker B joined", text), what + ": two workers")
    # Text output: the info lines of octad search --split (but time and nps), and only the best without --multipv.
    p = subprocess.run(prog("coordinator", "--analyse", 8, "--multipv", "all", "--local-workers", 2, "--quiet", *HASH),
                       stdout=subprocess.PIPE, text=True, timeout=60)
    r = subprocess.run([ARGS.octad, "search", "--split", "--depth", "8", *[str(a) for a in HASH]],
                       stdout=subprocess.PIPE, text=True, timeout=60)
    strip = lambda t: re.sub(r" nps \d+ hashfull \d+ time \d+", "", t)
    check(p.returncode == 0 and strip(p.stdout) == strip(r.stdout), "text output: the info lines of octad search --split")
    p = subprocess.run(prog("coordinator", "--analyse", 8, "--local-workers", 1, "--quiet", *HASH),
                       stdout=subprocess.PIPE, text=True, timeout=60)
    lines = p.stdout.splitlines()
    check(len(lines) == 2 and strip(lines[0]) == strip(r.stdout.splitlines()[0]) and lines[1] == r.stdout.splitlines()[-1],
          "without --multipv all: the best line and bestmove only")


def case_kill_worker():
    """A worker SIGKILLed mid-task: its task goes to another worker, the result is unchanged."""
    ref = reference(10)
    c = Coord("kill_worker", 10)
    a = start_worker(c, "A", "--test-delay-ms", 3000)
    c.wait_log(r"worker A joined")
    time.sleep(0.5)  # A holds a task, waiting in its delay
    a.send_signal(signal.SIGKILL)
    a.wait()
    # Its task goes back when it leaves, or earlier, when a loaded machine delays its heartbeats
    # past the lease: either way the task is queued again before B joins.
    c.wait_log(r"worker A left \([^)]*\); \d+ tasks back in the queue")
    check(re.search(r"worker A left \([^)]*\); [1-9]\d* tasks back in the queue", c.text())
          or re.search(r"[1-9]\d* leases expired; tasks back in the queue", c.text()),
          "the killed worker's task is back in the queue (when it left, or when its lease expired)")
    b = start_worker(c, "B")
    got, text = c.finish()
    reap(b)
    check(same(got, ref), "after a worker was killed mid-task: result equal to octad search --split")


def journal_records(path):
    if not os.path.exists(path):
        return 0
    with open(path) as f:
        return sum(1 for line in f if line.startswith("T\t"))


def case_kill_coordinator():
    """A coordinator killed and restarted with --journal re-issues only the moves not recorded."""
    kill_coordinator(version_1=False)


def case_kill_coordinator_v1():
    """The same with the killed run's journal as main wrote it before version 2 (docs/journal.md)."""
    kill_coordinator(version_1=True)


def kill_coordinator(version_1):
    ref = reference(10)
    total = len(ref["lines"])
    journal = os.path.join(TMP, "analyse.journal")
    c = Coord("kill_coordinator", 10, "--journal", journal)
    a = start_worker(c, "A", "--test-delay-ms", 300)
    end = time.time() + 60
    while journal_records(journal) < 3 and time.time() < end:
        time.sleep(0.02)
    c.p.send_signal(signal.SIGKILL)
    c.p.wait()
    a.kill()
    a.wait()
    done = journal_records(journal)
    check(3 <= done < total, "coordinator killed with %d of %d moves journaled" % (done, total))
    if version_1:
        tc.journal_to_version_1(journal)
    c = Coord("kill_coordinator2", 10, "--journal", journal)
    b = start_worker(c, "B")
    got, text = c.finish()
    reap(b)
    check(same(got, ref), "restarted from the journal: result equal to octad search --split")
    check(tc.journal_version(journal) == (1 if version_1 else 2), "the journal keeps its version")
    m = re.search(r"journal \S+: (\d+) of (\d+) moves loaded", text)
    check(m and int(m.group(1)) == done and int(m.group(2)) == total, "the journal's %d moves were loaded" % done)
    m = re.search(r"\((\d+) from the journal, (\d+) tasks sent", text)
    check(m and int(m.group(2)) == total - done, "only the %d missing moves were sent to workers" % (total - done))
    who = dict((n, int(k)) for n, k in re.findall(r"^  (\S+) +(\d+) tasks ", text, re.M))
    check(who.get("A", 0) >= done and sum(who.values()) == total and set(who) <= {"A", "B"},
          "the contributors after the restart: the killed run's worker A too, %d moves in all (%r)" % (total, who))
    # A record altered by hand, with a valid checksum, whose PV is not legal, is refused (exit 2), not taken.
    with open(journal) as f:
        lines = f.read().splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith("T\t"))  # the first task record
    fields = lines[k].split("\t")
    fields[4] = re.sub(r" pv (\w+) \w+", r" pv \1 a1a1", fields[4])
    body = "\t".join(fields[:-1])
    lines[k] = body + "\t%08x" % zlib.crc32(body.encode())
    with open(journal, "w") as f:
        f.write("\n".join(lines) + "\n")
    p = subprocess.run(prog("coordinator", "--analyse", 10, "--journal", journal, "--local-workers", 1, *HASH),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    check(p.returncode == 2 and "PV move 2 'a1a1' is not legal" in p.stderr,
          "a journal record with an illegal PV is refused (exit 2)")


def case_verify():
    """--verify: two honest workers agree; a worker that perturbs scores is a dispute (exit 3)."""
    ref = reference(8)
    c = Coord("verify", 8, "--verify")
    a = start_worker(c, "A")
    b = start_worker(c, "B")
    got, text = c.finish()
    reap(a, b)
    check(same(got, ref), "--verify with two honest workers: result equal to octad search --split")
    check("disagree" not in text, "no disagreement between honest workers")
    c = Coord("verify_fail", 8, "--verify", "--stall-timeout", 1500)
    a = start_worker(c, "A")
    b = start_worker(c, "B", "--inject-fault", 1)
    _, text = c.finish(want_rc=3)
    for w in (a, b):
        w.kill()
        w.wait()
    line = re.search(r"verify: task \d+ \(move \w+, depth 8\) workers disagree; sent to a third: (.*)", text)
    check(line is not None and re.search(r"\bA=\[\w+ cp -?\d+ \(exact\) .*nodes \d+ pv ", line.group(1)) and
          re.search(r"\bB=\[\w+ cp -?\d+ ", line.group(1)), "the disagreement names both workers and their results")
    check("disputed" in text, "exit 3 with the disputed moves listed")


def case_octp2():
    """An OCTP/2 worker is refused for an analysis with a clear error; it still does perft."""
    c = Coord("octp2", 6)
    rc, wtext = tc.run_worker(c, "old", "--hash", 0, "--protocol", 2)
    check(rc == 1 and "needs OCTP/3" in wtext, "an OCTP/2 worker is refused with a clear error and exits 1")
    c.wait_log(r"worker old refused: it speaks OCTP/2, and an analyse job needs OCTP/3")
    a = start_worker(c, "A")
    got, _ = c.finish()
    reap(a)
    check(same(got, reference(6)), "an OCTP/3 worker then does the analysis")
    tc.check_old_worker_perft(2, timeout=60)


def case_curve():
    """Over CURVE: only allow-listed workers analyse; the result is unchanged."""
    ref = reference(8, "--variant", "chess")
    for name in ("coord", "wa", "evil"):
        p = subprocess.run(prog("coordinator", "keygen", os.path.join(TMP, name)), stdout=subprocess.PIPE)
        check(p.returncode == 0, "keygen " + name)
    c = Coord("curve", 8, "--variant", "chess", "--curve-secret", os.path.join(TMP, "coord.key"),
              "--allow", os.path.join(TMP, "wa.pub"))
    keys = lambda k: ["--server-key", os.path.join(TMP, "coord.pub"), "--secret", os.path.join(TMP, k + ".key")]
    evil = start_worker(c, "evil", *keys("evil"))
    a = start_worker(c, "A", *keys("wa"))
    got, text = c.finish()
    reap(a)
    evil.kill()
    evil.wait()
    check(same(got, ref), "CURVE: result equal to octad search --split")
    check("worker evil joined" not in text and "refused a CURVE client" in text, "the unlisted key was refused")


def case_usage():
    """Bad command lines: exit 2 and a one-line message naming the problem."""
    cases = [(["--analyse", 0], "--analyse"),
             (["--analyse", 101], "--analyse"),
             (["--analyse", 4, "--perft", 3], "--analyse takes none of"),
             (["--analyse", 4, "--solve"], "--analyse takes none of"),
             (["--analyse", 4, "--multipv", 3], "--multipv"),
             (["--perft", 3, "--multipv", "all"], "go with --analyse"),
             (["--perft", 3, "--moves", "a1a2"], "go with --analyse"),
             (["--analyse", 4, "--hash", 0], "--hash"),
             (["--analyse", 4, "--moves", "z9z9"], "move 1 'z9z9' is not legal"),
             (["--analyse", 4, "--variant", "chess", "--fen", "nonsense"], "position"),
             (["--analyse", 4, "--variant", "chess", "--fen", "7k/5QQ1/8/8/8/8/8/K7 b - - 0 1"], "no legal move")]
    for args, needle in cases:
        p = subprocess.run(prog("coordinator", *args, "--local-workers", 0), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=30)
        check(p.returncode == 2 and needle in p.stderr and p.stderr.count("\n") == 1,
              "%s: exit 2, '%s'" % (" ".join(map(str, args)), needle))
    p = subprocess.run(prog("coordinator", "--help"), stdout=subprocess.PIPE, text=True)
    check(p.returncode == 0 and "--analyse D" in p.stdout and "--multipv all" in p.stdout, "--help lists --analyse")


def main():
    global ARGS, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    ap.add_argument("--bin", required=True)
    ap.add_argument("--octad", required=True)
    ARGS = ap.parse_args()
    tc.ARGS = ARGS
    with tempfile.TemporaryDirectory() as tmp:
        TMP = tmp
        tc.TMP = tmp
        globals()["case_" + ARGS.case]()
    print("PASS")


if __name__ == "__main__":
    main()
