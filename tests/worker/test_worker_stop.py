#!/usr/bin/env python3
"""test_worker_stop.py: a worker stopped (SIGTERM) after its coordinator is gone exits
within the bounded wait, with status 0 (issue 13 item 5).

What Docker does to a worker, reproduced with real processes: the worker connects to the
coordinator by name; the name resolves while the coordinator lives; then the coordinator
is killed and its name stops resolving, and lookups hang (Docker's resolver forwards the
name to an upstream an internal network cannot reach). libzmq's I/O thread then sits in
getaddrinfo, and zmq_ctx_term, called when the worker stops, waits for it.

The name is served by a small DNS responder in this process on 127.77.0.53:53 (loopback);
the worker runs in its own mount namespace (unshare -m) where /etc/resolv.conf names only
that responder, so no lookup ever leaves this machine. Needs root (port 53, unshare);
exits 77 (skip) otherwise.

usage: test_worker_stop.py --bin DIR
"""
import argparse
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

DNS_ADDR = "127.77.0.53"
NAME = "octad-coord-test"
EXIT_WAIT_S = 3.0        # worker.c EXIT_WAIT_MS
MARGIN_S = 3.0           # process start-up and scheduling on a busy machine


def skip(why):
    print(f"test_worker_stop: SKIP: {why}")
    sys.exit(77)


class Resolver(threading.Thread):
    """Answers A queries for NAME with 127.0.0.1 while `answering`, else drops every query."""

    def __init__(self):
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((DNS_ADDR, 53))
        self.answering = True
        self.dropped = 0

    def run(self):
        while True:
            try:
                query, peer = self.sock.recvfrom(512)
            except OSError:
                return
            if not self.answering:
                self.dropped += 1
                continue
            reply = self.reply(query)
            if reply:
                self.sock.sendto(reply, peer)

    @staticmethod
    def reply(query):
        if len(query) < 12:
            return None
        qid = query[:2]
        end = 12
        labels = []
        while end < len(query) and query[end] != 0:
            n = query[end]
            labels.append(query[end + 1:end + 1 + n].decode("ascii", "replace"))
            end += 1 + n
        question = query[12:end + 5]
        qtype = struct.unpack("!H", query[end + 1:end + 3])[0] if end + 3 <= len(query) else 0
        known = ".".join(labels).lower() == NAME
        if not known:   # NXDOMAIN
            return qid + struct.pack("!HHHHH", 0x8183, 1, 0, 0, 0) + question
        if qtype != 1:  # the name exists, with no record of that type
            return qid + struct.pack("!HHHHH", 0x8180, 1, 0, 0, 0) + question
        answer = struct.pack("!HHHIH", 0xC00C, 1, 1, 5, 4) + socket.inet_aton("127.0.0.1")
        return qid + struct.pack("!HHHHH", 0x8180, 1, 1, 0, 0) + question + answer


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(pred, timeout, what):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    coordinator = os.path.join(args.bin, "coordinator")
    worker = os.path.join(args.bin, "worker")
    if os.geteuid() != 0:
        skip("needs root (a DNS responder on port 53, unshare -m)")
    try:
        resolver = Resolver()
    except OSError as e:
        skip(f"cannot bind {DNS_ADDR}:53/udp: {e}")
    with tempfile.TemporaryDirectory() as tmp:
        resolv = os.path.join(tmp, "resolv.conf")
        with open(resolv, "w") as f:
            f.write(f"nameserver {DNS_ADDR}\noptions timeout:5 attempts:2\n")
        probe = subprocess.run(["unshare", "-m", "sh", "-c", 'mount --bind "$0" /etc/resolv.conf', resolv],
                               capture_output=True, text=True)
        if probe.returncode != 0:
            skip(f"unshare -m / mount --bind failed: {probe.stderr.strip()}")
        resolver.start()
        port = free_port()
        coord_err = open(os.path.join(tmp, "coordinator.err"), "w+")
        coord = subprocess.Popen([coordinator, "--perft", "13", "--bind", f"tcp://127.0.0.1:{port}",
                                  "--local-workers", "0"], stdout=subprocess.DEVNULL, stderr=coord_err)
        worker_err = open(os.path.join(tmp, "worker.err"), "w+")
        # the bind mount happens in the worker's own namespace, before exec: the host keeps its resolver
        wrk = subprocess.Popen(["unshare", "-m", "sh", "-c", 'mount --bind "$0" /etc/resolv.conf && exec "$@"',
                                resolv, worker, "--connect", f"tcp://{NAME}:{port}", "--threads", "1",
                                "--name", "stoptest"], stderr=worker_err)
        try:
            def coord_log():
                coord_err.seek(0)
                return coord_err.read()
            wait_for(lambda: "worker stoptest joined" in coord_log(), 30, "the worker to join")
            time.sleep(0.5)  # it is computing a task now
            resolver.answering = False
            coord.kill()
            coord.wait()
            wait_for(lambda: resolver.dropped > 0, 30, "the worker to look the coordinator's name up again")
            assert wrk.poll() is None, "the worker exited on its own"
            t0 = time.monotonic()
            wrk.send_signal(signal.SIGTERM)
            try:
                rc = wrk.wait(timeout=60)
            except subprocess.TimeoutExpired:
                rc = None
            took = time.monotonic() - t0
            worker_err.seek(0)
            log = worker_err.read()
            print(f"worker stopped in {took:.2f} s with status {rc} ({resolver.dropped} lookups dropped)")
            fails = 0
            for ok, what in [(rc == 0, "exit status 0"),
                             (took <= EXIT_WAIT_S + MARGIN_S, f"stopped within {EXIT_WAIT_S + MARGIN_S:.0f} s"),
                             ("gave up closing the session" in log, "it says it gave up closing the session")]:
                print(("ok: " if ok else "FAIL: ") + what)
                fails += not ok
            if fails:
                print("--- worker stderr:\n" + log)
            print(f"{3 - fails} passed, {fails} failed")
            return 1 if fails else 0
        finally:
            for p in (wrk, coord):
                if p.poll() is None:
                    p.kill()
                    p.wait()
            resolver.sock.close()


if __name__ == "__main__":
    sys.exit(main())
