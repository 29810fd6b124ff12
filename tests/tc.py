"""tc.py: the shared harness of the cluster's process tests (test_cluster, test_hostile, test_csolve,
test_canalyse): pass/fail lines, sanitizer reports, and real coordinator and worker processes over real
sockets (tcp://127.0.0.1:*).

A test sets tc.ARGS (its parsed options; ARGS.bin is the folder of the programs) and tc.TMP (its
temporary folder) before it calls anything here that starts a program or names a file.
"""
import json
import os
import re
import subprocess
import sys
import time

ARGS = None
TMP = None


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)
    print("ok: " + msg)


def check_clean(err):
    """Sanitizer reports in a program's stderr (a coordinator's includes its local workers') fail the test."""
    for bad in ("runtime error:", "AddressSanitizer", "LeakSanitizer"):
        if bad in err:
            print(err, file=sys.stderr)
            fail("sanitizer report in stderr: " + bad)


def prog(name, *args):
    """The command line of program NAME of ARGS.bin, every argument made a string."""
    return [os.path.join(ARGS.bin, name)] + [str(a) for a in args]


def run(cmd, timeout=300):
    """Runs cmd to its end; (exit status, stdout, stderr)."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def wait_endpoint(path, proc, timeout=30, stderr_text=None):
    """The endpoint coordinator proc wrote to path (it writes the file atomically). Fails if proc exits first,
    with its stderr (stderr_text() where that is not proc.stderr), or when timeout seconds pass."""
    end = time.time() + timeout
    while time.time() < end:
        if os.path.exists(path):
            with open(path) as f:
                return f.read().strip()
        if proc.poll() is not None:
            err = stderr_text() if stderr_text else (proc.stderr.read() if proc.stderr else "see its stderr")
            fail("coordinator exited early: " + err)
        time.sleep(0.02)
    fail("no endpoint file")


class Coord:
    """A coordinator with the options args, bound to an ephemeral loopback port: its endpoint in self.ep,
    its process in self.p (stdout a pipe), its stderr in the file TMP/TAG.log."""

    def __init__(self, tag, *args):
        self.log = os.path.join(TMP, tag + ".log")
        self.ep_file = os.path.join(TMP, tag + ".ep")
        if os.path.exists(self.ep_file):
            os.unlink(self.ep_file)
        self.err = open(self.log, "w")
        self.p = subprocess.Popen(prog("coordinator", *args, "--bind", "tcp://127.0.0.1:*",
                                       "--endpoint-file", self.ep_file),
                                  stdout=subprocess.PIPE, stderr=self.err, text=True)
        self.ep = wait_endpoint(self.ep_file, self.p, stderr_text=self.text)

    def text(self):
        """Its stderr so far."""
        with open(self.log) as f:
            return f.read()

    def wait_log(self, pattern, count=1, timeout=60):
        """The matches of pattern in its stderr, once there are count of them; fails after timeout seconds."""
        end = time.time() + timeout
        while time.time() < end:
            found = re.findall(pattern, self.text())
            if len(found) >= count:
                return found
            time.sleep(0.01)
        fail("no %d x /%s/ in the coordinator log:\n%s" % (count, pattern, self.text()))

    def finish(self, want_rc=0, timeout=120):
        """Waits for its end: fails on a sanitizer report or an exit status other than want_rc;
        (its stdout as JSON, or None when want_rc is not 0; its stderr)."""
        out, _ = self.p.communicate(timeout=timeout)
        self.err.close()
        text = self.text()
        check_clean(text)
        if self.p.returncode != want_rc:
            print(text, file=sys.stderr)
            fail("coordinator exited %d, expected %d" % (self.p.returncode, want_rc))
        return (json.loads(out) if want_rc == 0 else None), text


def start_worker(coord, name, *extra, log=None):
    """A one-job, one-thread worker NAME connected to coord, its stderr in log (default TMP/worker-NAME.log)."""
    err = open(log or os.path.join(TMP, "worker-%s.log" % name), "w")
    return subprocess.Popen(prog("worker", "--connect", coord.ep, "--threads", 1, "--name", name, "--once", *extra),
                            stdout=subprocess.DEVNULL, stderr=err)


def run_worker(coord, name, *extra, timeout=30):
    """A worker started as start_worker does, waited for: (its exit status, its stderr)."""
    log = os.path.join(TMP, "worker-%s.log" % name)
    rc = start_worker(coord, name, *extra, log=log).wait(timeout=timeout)
    with open(log) as f:
        return rc, f.read()


def check_old_worker_perft(protocol, timeout=120):
    """A worker that speaks at most OCTP/protocol still computes a perft job exactly (PROTOCOL.md 11.1, 12.1)."""
    c = Coord("perft", "--perft", 6, "--local-workers", 0, "--json")
    w = subprocess.Popen(prog("worker", "--connect", c.ep, "--threads", 1, "--once", "--protocol", protocol, "--quiet"),
                         stdout=subprocess.DEVNULL)
    res, _ = c.finish(timeout=timeout)
    w.wait(timeout=30)
    check(res.get("match") is True, "an OCTP/%d worker computes a perft job exactly (reference total)" % protocol)
