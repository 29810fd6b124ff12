#!/usr/bin/env python3
"""reset_proxy.py: a TCP proxy that cuts its connections at random, to test the cluster on a bad network.

usage: reset_proxy.py --listen HOST:PORT --to HOST:PORT --mean-life S [--seed N] [--min-life S]

Each accepted connection is joined to a new connection to --to and lives for a random time
drawn from an exponential distribution of mean --mean-life seconds (at least --min-life);
then both sides are cut with a TCP reset (SO_LINGER 0), as a NAT box or a flaky router
that forgets a flow does. Bytes are forwarded unchanged in both directions until then.
Prints one line per cut on stderr ("reset_proxy: cut connection 7 after 4.2 s") and a
count on SIGTERM. Only the standard library; one thread (selectors).
"""
import argparse
import random
import selectors
import signal
import socket
import struct
import sys
import time

BUF = 65536


def parse_addr(text, what):
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        sys.exit("reset_proxy: %s %r: expected HOST:PORT" % (what, text))
    return host or "0.0.0.0", int(port)


def reset(sock):
    """Closes sock with a TCP reset rather than a FIN."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    except OSError:
        pass
    sock.close()


class Flow:
    """One proxied connection: the client side, the upstream side, and when it is cut."""

    def __init__(self, serial, client, upstream, cut_at):
        self.serial, self.client, self.upstream, self.cut_at = serial, client, upstream, cut_at
        self.born = time.monotonic()
        self.pending = {client: b"", upstream: b""}  # bytes waiting to be written to that socket

    def peer(self, sock):
        return self.upstream if sock is self.client else self.client


class Proxy:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.sel = selectors.DefaultSelector()
        self.flows = {}  # socket -> Flow
        self.serial = 0
        self.cuts = 0
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(parse_addr(args.listen, "--listen"))
        self.listener.listen(256)
        self.listener.setblocking(False)
        self.sel.register(self.listener, selectors.EVENT_READ)
        self.target = parse_addr(args.to, "--to")

    def accept(self):
        client, _ = self.listener.accept()
        upstream = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            upstream.connect(self.target)
        except OSError as e:
            print("reset_proxy: cannot reach %s:%d: %s" % (self.target + (e,)), file=sys.stderr, flush=True)
            reset(client)
            upstream.close()
            return
        for s in (client, upstream):
            s.setblocking(False)
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.serial += 1
        life = max(self.args.min_life, self.rng.expovariate(1.0 / self.args.mean_life))
        flow = Flow(self.serial, client, upstream, time.monotonic() + life)
        for s in (client, upstream):
            self.flows[s] = flow
            self.sel.register(s, selectors.EVENT_READ)

    def close(self, flow, why):
        for s in (flow.client, flow.upstream):
            self.flows.pop(s, None)
            try:
                self.sel.unregister(s)
            except (KeyError, ValueError):
                pass
            reset(s)
        if why:
            self.cuts += 1
            print("reset_proxy: cut connection %d after %.1f s (%s)" % (flow.serial, time.monotonic() - flow.born, why),
                  file=sys.stderr, flush=True)

    def watch(self, s, flow):
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if flow.pending[s] else 0)
        self.sel.modify(s, events)

    def pump(self, s, mask):
        flow = self.flows.get(s)
        if flow is None:
            return
        other = flow.peer(s)
        try:
            if mask & selectors.EVENT_WRITE and flow.pending[s]:
                n = s.send(flow.pending[s])
                flow.pending[s] = flow.pending[s][n:]
                self.watch(s, flow)
            if mask & selectors.EVENT_READ and len(flow.pending[other]) < 4 * BUF:
                data = s.recv(BUF)
                if not data:
                    self.close(flow, None)  # an orderly end: passed on as a reset too, both sides gone
                    return
                flow.pending[other] += data
                self.watch(other, flow)
        except OSError:
            self.close(flow, None)

    def run(self):
        while True:
            now = time.monotonic()
            for flow in {id(f): f for f in self.flows.values()}.values():
                if flow.cut_at <= now:
                    self.close(flow, "scheduled reset")
            soonest = min((f.cut_at for f in self.flows.values()), default=now + 1.0)
            for key, mask in self.sel.select(timeout=max(0.0, min(1.0, soonest - now))):
                if key.fileobj is self.listener:
                    self.accept()
                else:
                    self.pump(key.fileobj, mask)


def main():
    ap = argparse.ArgumentParser(description="A TCP proxy that resets its connections at random.")
    ap.add_argument("--listen", required=True, help="HOST:PORT to accept on")
    ap.add_argument("--to", required=True, help="HOST:PORT to forward to")
    ap.add_argument("--mean-life", type=float, required=True, help="mean life of a connection, seconds")
    ap.add_argument("--min-life", type=float, default=0.2, help="shortest life of a connection, seconds")
    ap.add_argument("--seed", type=int, default=None, help="seed of the random lives")
    args = ap.parse_args()
    if not args.mean_life > 0 or args.min_life < 0:
        sys.exit("reset_proxy: --mean-life must be > 0 and --min-life >= 0")
    proxy = Proxy(args)

    def stop(_sig, _frame):
        print("reset_proxy: %d connections, %d cut" % (proxy.serial, proxy.cuts), file=sys.stderr, flush=True)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    print("reset_proxy: %s -> %s, mean life %.1f s" % (args.listen, args.to, args.mean_life), file=sys.stderr, flush=True)
    proxy.run()


if __name__ == "__main__":
    main()
