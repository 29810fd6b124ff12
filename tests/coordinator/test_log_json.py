#!/usr/bin/env python3
"""test_log_json.py: `--log-format json` of the coordinator and the worker (docs/status.md, "JSON
logs"): real coordinators with local and remote workers over tcp://127.0.0.1, every line of their
stderr one JSON object {time, level, component, message, fields}; a worker name with a quote, a
backslash and control bytes; the text format unchanged by default; a bad value refused.

usage: test_log_json.py CASE --bin DIR [--octad PATH]
Cases: perft, analyse, text, usage.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
import tc  # noqa: E402  (the shared harness)
from tc import check, fail, run  # noqa: E402

ODD = 'q"uo\\te\x01\x1b[31m'
KEYS = ["time", "level", "component", "message", "fields"]


def lines_json(text, what):
    """Every line of text as its JSON object; fails naming the first line that is not one."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        try:
            o = json.loads(line)
        except ValueError:
            fail("%s, line %d is not JSON: %r" % (what, n, line))
        if not isinstance(o, dict) or list(o) != KEYS:
            fail("%s, line %d has not the keys %s: %r" % (what, n, KEYS, line))
        if (re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", o["time"]) is None or
                o["level"] not in ("info", "warning", "error") or o["component"] not in ("coordinator", "worker") or
                not isinstance(o["message"], str) or not isinstance(o["fields"], dict)):
            fail("%s, line %d: a field out of its form: %r" % (what, n, line))
        out.append(o)
    check(len(out) > 0 and all("\n" not in o["message"] for o in out),
          "%s: all %d lines are JSON objects {time, level, component, message, fields}" % (what, len(out)))
    return out


def case_perft():
    report = os.path.join(tc.TMP, "r")
    c = tc.Coord("perft", "--perft", 10, "--split-depth", 4, "--hash", 0, "--local-workers", 2, "--verify",
                 "--json", "--log-format", "json", "--report", report, "--dump-tasks", report + ".csv")
    w = tc.start_worker(c, ODD, "--log-format", "json")
    res, err = c.finish(timeout=300)
    w.wait(timeout=30)
    with open(os.path.join(tc.TMP, "worker-%s.log" % ODD)) as f:
        wlog = lines_json(f.read(), "the remote worker's stderr")
    logs = lines_json(err, "the coordinator's stderr (its local workers' too)")
    check(res["match"] is True, "the job itself is exact (%d nodes)" % res["nodes"])
    check(any(o["component"] == "worker" and o["fields"].get("name", "").startswith("local-") for o in logs),
          "the local workers were started with --log-format json (their lines are in it)")
    check(all(o["component"] == "worker" and o["fields"]["name"] == ODD for o in wlog) and
          any(o["message"].startswith("welcomed") for o in wlog),
          "the remote worker's lines carry its name exactly, control bytes and all")
    joined = [o for o in logs if o["component"] == "coordinator" and o["message"].endswith("task slots: threads + "
                                                                                               "prefetch; 64 MB hash)")]
    check(any('q"uo\\x5cte\\x01\\x1b[31m' in o["message"] for o in joined),
          "the coordinator names the odd worker as its text logs do (printable ASCII): %r" % [o["message"] for o in joined])
    warn = [o for o in logs if o["level"] == "warning"]
    check(any("--verify without CURVE" in o["message"] for o in warn), "the --verify warning has the level warning")
    prog = [o for o in logs if re.match(r"\d+/\d+ tasks, ", o["message"])]
    check(len(prog) >= 1 and all(set(o["fields"]) == {"done", "total", "nodes", "per_second", "eta_seconds", "workers"}
                                 and o["fields"]["total"] == res["tasks"] for o in prog),
          "the progress lines carry their figures as fields (%d lines)" % len(prog))
    check(any(o["message"] == "report written to %s.json and %s.md" % (report, report) for o in logs) and
          any(o["message"] == "tasks written to %s.csv" % report for o in logs),
          "the report and the dump are announced in JSON too")


def case_analyse():
    c = tc.Coord("analyse", "--analyse", 4, "--local-workers", 1, "--log-format", "json")
    out, _ = c.p.communicate(timeout=120)
    c.err.close()
    check(c.p.returncode == 0 and "bestmove" in out, "the analysis ends and prints its bestmove on stdout")
    logs = lines_json(c.text(), "the coordinator's stderr")
    check(any(o["message"].startswith("analysed ") for o in logs) and
          any(o["message"] == "contributors: 1" for o in logs) and
          any(re.match(r"  local-1-\d+ +\d+ tasks ", o["message"]) for o in logs),
          "the summary and the contributors table are JSON lines, one a row")


def case_text():
    c = tc.Coord("text", "--perft", 8, "--local-workers", 1, "--json")
    res, err = c.finish(timeout=120)
    lines = err.splitlines()
    check(len(lines) > 0 and all(re.match(r"(coordinator|worker [^:]+): ", line) for line in lines),
          "without --log-format the lines are text as before (%d lines)" % len(lines))
    c = tc.Coord("text2", "--perft", 8, "--local-workers", 1, "--json", "--log-format", "text")
    res2, err2 = c.finish(timeout=120)
    check(res2["nodes"] == res["nodes"] and all(re.match(r"(coordinator|worker [^:]+): ", line)
                                                for line in err2.splitlines()),
          "--log-format text is the default")


def case_usage():
    rc, out, err = run(tc.prog("coordinator", "--perft", 5, "--log-format", "xml"), timeout=60)
    check(rc == 2 and "--log-format" in err and "'text' or 'json'" in err and "xml" in err,
          "coordinator --log-format xml: exit 2 naming the option and the choices: " + err.strip())
    rc, out, err = run(tc.prog("worker", "--connect", "tcp://127.0.0.1:1", "--log-format", "JSON"), timeout=60)
    check(rc == 2 and "--log-format" in err and "JSON" in err, "worker --log-format JSON: exit 2: " + err.strip())


if __name__ == "__main__":
    tc.main(globals(), "octad-logjson-")
