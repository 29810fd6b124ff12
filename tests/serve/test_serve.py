#!/usr/bin/env python3
"""test_serve.py: `octad serve` as a client meets it, a real process on a free port of 127.0.0.1,
over tables to 4 pieces made by the test: every answer against `octad probe` (values incl. cursed
wins and blessed losses made by the clock, e.p., rights, mate, stalemate), the mainline, the deployed
starts against docs/tables/starts.txt, the SVG, /health (with the tables open and their bytes), CORS, ETag and 304, errors as JSON naming the
field (400), 404, 405, over-long requests, --memory 1 and 0 byte for byte as the default, a table
damaged while it runs (503, logged once, the server stays up), a table file gone then put back
(503 saying when it is tried again, then 200 after the delay), no tables at all, 1,000 idle connections and a slow client, the command line.

usage: test_serve.py OCTAD STARTS_TXT
"""
import json
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
from tc import check, fail  # noqa: E402  (the shared pass/fail lines)

OCTAD, STARTS = sys.argv[1], sys.argv[2]
TMP = tempfile.mkdtemp(prefix="octad-serve-")
NAMES = ["loss", "blessed-loss", "draw", "cursed-win", "win"]


SERVERS = []  # every server started, stopped at the end even when a check fails


class Server:
    """An `octad serve` process on a free port; its first stdout line names the port."""

    def __init__(self, tables, *extra):
        SERVERS.append(self)
        self.errpath = os.path.join(TMP, "serve-%d.err" % time.monotonic_ns())
        self.err = open(self.errpath, "w")
        self.proc = subprocess.Popen([OCTAD, "serve", "--tables", tables, "--listen", "127.0.0.1:0", *extra],
                                     stdout=subprocess.PIPE, stderr=self.err, text=True)
        line = self.proc.stdout.readline()
        while line and "listening on" not in line:  # (--make prints the solve's summary first)
            line = self.proc.stdout.readline()
        if "listening on http://127.0.0.1:" not in line:
            self.stop()
            fail("octad serve did not start: %r, stderr %r" % (line, self.stderr()))
        self.port = int(line.rsplit(":", 1)[1])
        self.start_line = line

    def stderr(self):
        self.err.flush()
        with open(self.errpath) as f:
            return f.read()

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                fail("octad serve did not stop on SIGTERM")
            for bad in ("runtime error:", "AddressSanitizer", "LeakSanitizer"):
                if bad in self.stderr():
                    fail("sanitizer report from octad serve: %s" % self.stderr())
        return self.proc.returncode


def get(port, path, params=None, headers=None, method="GET"):
    """(status, headers, body bytes) of one request."""
    url = "http://127.0.0.1:%d%s" % (port, path)
    if params is not None:
        url += "?" + urllib.parse.urlencode(params)
    req = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def get_json(port, path, params=None, **kw):
    status, headers, body = get(port, path, params, **kw)
    try:
        return status, headers, json.loads(body)
    except ValueError:
        fail("%s %r: not JSON: %r" % (path, params, body[:200]))


def probe(ofen, tables):
    out = subprocess.run([OCTAD, "probe", ofen, "--tables", tables, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        fail("octad probe %r: %s" % (ofen, out.stderr))
    text = subprocess.run([OCTAD, "probe", ofen, "--tables", tables], capture_output=True, text=True).stdout
    return json.loads(out.stdout), text


def signed(category, plies):
    return plies if "win" in category else -plies if "loss" in category else 0


def compare(port, ofen, tables):
    """The answer for ofen against octad probe's; returns the answer."""
    status, _, a = get_json(port, "/api/v1/octad", {"ofen": ofen})
    if status != 200:
        fail("%s: status %d %r" % (ofen, status, a))
    p, text = probe(ofen, tables)
    what = "%s (%s)" % (ofen, a["category"])
    ok = a["category"] == p["wdl"] and a["halfmove"] == p["halfmove"]
    if a["category"] != "draw":
        ok = ok and a["dtz"] == signed(a["category"], p["dtz"]) and a["dtm"] == signed(a["category"], p["dtm"])
    else:
        ok = ok and a["dtz"] == 0 and a["dtm"] == 0
    ok = ok and a["checkmate"] == ("\ncheckmate\n" in text) and a["stalemate"] == ("\nstalemate\n" in text)
    ok = ok and a["insufficient_material"] == ("insufficient material" in text)
    if not ok:
        fail("%s: value %r, probe %r" % (what, {k: a[k] for k in a if k != "moves"}, {k: p[k] for k in p if k != "moves"}))
    got, want = a["moves"], p["moves"]
    if sorted(m["uoi"] for m in got) != sorted(m["uoi"] for m in want):
        fail("%s: moves %r, probe %r" % (what, [m["uoi"] for m in got], [m["uoi"] for m in want]))
    by_uoi = {m["uoi"]: m for m in got}
    for i, w in enumerate(want):
        after = NAMES[4 - NAMES.index(w["wdl"])]
        g = got[i]  # rank by rank (probe orders equal ranks in any order)
        if g["category"] != after or by_uoi[w["uoi"]]["category"] != after:
            fail("%s: move %d is %s, probe's leads to %s" % (what, i, g["category"], after))
        m = by_uoi[w["uoi"]]
        if m["san"] != w["san"]:
            fail("%s: %s is %s, probe %s" % (what, w["uoi"], m["san"], w["san"]))
        if after != "draw" and m["dtm"] != signed(after, w["dtm"] - 1):
            fail("%s: %s dtm %r, probe's %d for the mover" % (what, w["uoi"], m["dtm"], w["dtm"]))
        if after != "draw" and not m["zeroing"] and m["dtz"] != signed(after, w["dtz"] - 1):
            fail("%s: %s dtz %r, probe's %d for the mover" % (what, w["uoi"], m["dtz"], w["dtz"]))
    return a


POSITIONS = [
        "3k/4/1KQ1/4 w - - 0 1",     # mate in one
        "3k/3Q/2K1/4 b - - 1 1",     # checkmated
        "k3/4/1Q2/3K b - - 0 1",     # stalemate
        "3k/4/1K2/4 b - - 0 12",     # insufficient material
        "3k/pP2/4/3K b - b2 0 1",    # a legal e.p. capture
        "3k/4/4/1KP1 w C - 0 1",     # a castling right
        "1k2/4/4/1KP1 w C - 7 9",
        "3k/4/4/R2K w - - 0 1",
        "3k/4/4/R2K w - - 50 80",    # the clock ended the game
        "2k1/1p2/4/1QK1 w - - 0 1",
        "3k/p3/4/1P1K b - - 0 1",
        "k3/4/4/KR2 b - - 0 1",      # a loss
]


def test_answers(port, tables):
    seen = set()
    for ofen in POSITIONS:
        seen.add(compare(port, ofen, tables)["category"])
    # cursed wins and blessed losses by the clock: a win (loss) whose clock leaves too few plies
    for ofen in ("3k/4/4/R2K w - - %d 80", "k3/4/4/KR2 b - - %d 80"):
        for clock in range(0, 51):
            seen.add(compare(port, ofen % clock, tables)["category"])
    check(seen >= set(NAMES), "every value, each as octad probe gives it (%s)" % ", ".join(sorted(seen)))

    status, headers, a = get_json(port, "/api/v1/octad", {"ofen": "1kn1/1r2/1R2/1KN1 w - - 0 1"})
    check(status == 200 and a["category"] == "unknown" and a["dtz"] is None and a["dtm"] is None,
          "six pieces over 4-piece tables: category unknown, null distances")
    known = [m["category"] != "unknown" for m in a["moves"]]
    check(known == sorted(known, reverse=True) and not any(known),
          "its moves (into 5 or 6 pieces) are unknown too")


def test_mainline_deployed_svg(port):
    status, _, a = get_json(port, "/api/v1/octad", {"ofen": "3k/4/4/R2K w - - 0 1"})
    status, _, m = get_json(port, "/api/v1/octad/mainline", {"ofen": "3k/4/4/R2K w - - 0 1"})
    check(status == 200 and len(m["mainline"]) == a["dtm"] and m["result"] == "1-0" and m["winner"] == "w"
          and m["termination"] == "checkmate" and m["mainline"][-1]["san"].endswith("#"),
          "mainline of a win: dtm plies, ends in mate, 1-0")
    check('[Result "1-0"]' in m["pgn"] and '[FEN "3k/4/4/R2K w - - 0 1"]' in m["pgn"]
          and " ".join(x["san"] for x in m["mainline"][:1]) in m["pgn"], "its PGN")
    status, _, m = get_json(port, "/api/v1/octad/mainline", {"ofen": "3k/4/4/R2K w - - 48 80"})
    check(status == 200 and m["result"] == "1/2-1/2" and m["termination"] == "25-move rule",
          "mainline of a cursed win (by the clock) ends in the 25-move rule")
    status, _, m = get_json(port, "/api/v1/octad/mainline", {"ofen": "3k/4/1K2/4 b - - 0 12"})
    check(status == 200 and m["mainline"] == [] and m["result"] == "1/2-1/2", "mainline of a draw: empty, 1/2-1/2")

    status, _, d = get_json(port, "/api/v1/octad/deployed")
    want = []
    with open(STARTS) as f:
        for line in f:
            parts = line.split()
            if len(parts) > 7 and "/" in parts[1]:
                want.append((int(parts[0]), " ".join(parts[1:7])))
    check(status == 200 and [(e["start"], e["ofen"]) for e in d] == want and len(want) == 144,
          "deployed: the 144 starts of docs/tables/starts.txt in order")
    check(all(e["category"] == "unknown" and e["best"] == [] for e in d), "deployed over 4 pieces: unknown")

    ofen = "3k/4/4/R2K w - - 0 1"
    status, headers, svg = get(port, "/api/v1/octad/svg", {"ofen": ofen})
    check(status == 200 and headers["Content-Type"] == "image/svg+xml" and svg.startswith(b"<svg"), "svg")
    _, _, flipped = get(port, "/api/v1/octad/svg", {"ofen": ofen, "flip": "true"})
    _, _, last = get(port, "/api/v1/octad/svg", {"ofen": ofen, "lastmove": "a2a1"})
    check(flipped != svg and last != svg and flipped.startswith(b"<svg"), "svg: flip and lastmove change it")
    status, _, e = get_json(port, "/api/v1/octad/svg", {"ofen": ofen, "lastmove": "z9a1"})
    check(status == 400 and e["field"] == "lastmove", "svg: bad lastmove is 400 naming the field")
    status, _, e = get_json(port, "/api/v1/octad/svg", {"ofen": ofen, "flip": "maybe"})
    check(status == 400 and e["field"] == "flip", "svg: bad flip is 400 naming the field")


def test_http(port):
    status, headers, h = get_json(port, "/health")
    check(status == 200 and h["status"] == "ok" and h["max_pieces"] == 4, "/health")
    mem = h["memory"]
    check(mem["budget_bytes"] == 1024 << 20 and 0 < mem["held_bytes"] <= mem["budget_bytes"] and mem["blocks"] > 0
          and mem["misses"] >= mem["blocks"], "/health: the memory budget and what it holds (%r)" % mem)
    check(0 < h["tables_open"] <= h["table_files"] and h["tables_open_bytes"] > 4096 * h["tables_open"],
          "/health: the tables open and their bytes (%d, %d)" % (h["tables_open"], h["tables_open_bytes"]))
    params = {"ofen": "3k/4/4/R2K w - - 0 1"}
    status, headers, _ = get(port, "/api/v1/octad", params, headers={"Origin": "https://octad.gg"})
    etag = headers["ETag"]
    check(headers["Access-Control-Allow-Origin"] == "*" and etag and etag.startswith('"'), "CORS and an ETag")
    status, headers, body = get(port, "/api/v1/octad", params, headers={"If-None-Match": etag})
    check(status == 304 and body == b"" and headers["ETag"] == etag, "If-None-Match with the ETag: 304")
    status, headers, _ = get(port, "/api/v1/octad", params, headers={"If-None-Match": '"other"'})
    check(status == 200, "another ETag: 200")
    fresh = {"ofen": "3k/4/4/1R1K w - - 3 9"}
    s1, h1, b1 = get(port, "/api/v1/octad/mainline", fresh)
    s2, h2, b2 = get(port, "/api/v1/octad/mainline", fresh)
    check(s1 == s2 == 200 and h1["X-Octad-Cache"] == "miss" and h2["X-Octad-Cache"] == "hit" and b1 == b2,
          "a position asked again comes from the cache, the same bytes")
    status, headers, _ = get(port, "/api/v1/octad", method="OPTIONS",
                             headers={"Origin": "https://octad.gg", "Access-Control-Request-Method": "GET"})
    check(status == 204 and "GET" in headers["Access-Control-Allow-Methods"], "CORS preflight")
    status, headers, body = get(port, "/api/v1/octad", params, method="HEAD")
    check(status == 200 and body == b"", "HEAD")
    status, _, e = get_json(port, "/api/v1/octad", {"ofen": "3k/4/4/R2 w - - 0 1"})
    check(status == 400 and e["field"] == "ofen" and "rank 1 has 3 squares" in e["message"],
          "bad OFEN: 400 naming the field and the parser's message")
    status, _, e = get_json(port, "/api/v1/octad/mainline", {"ofen": "qqqk/4/4/3K w - - 0 1"})
    check(status == 400 and e["field"] == "ofen" and "material" in e["message"], "unreachable material: 400")
    status, _, e = get_json(port, "/api/v1/octad", {"ofen": b"3k/pP2/4/3K b\xbc\xff - b2 0 1"})
    check(status == 400 and e["field"] == "ofen" and "??" in e["message"],
          "bytes that are not UTF-8 in the ofen: 400, the message printable (found by fuzz_query)")
    status, _, e = get_json(port, "/api/v1/octad")
    check(status == 400 and e["field"] == "ofen" and "missing" in e["message"], "no ofen: 400")
    status, _, e = get_json(port, "/api/v1/octad", {"ofen": "x" * 200})
    check(status == 400 and "longer than" in e["message"], "a long ofen: 400")
    status, _, e = get_json(port, "/api/v1/chess")
    check(status == 404 and "no such path" in e["error"], "unknown path: 404 JSON")
    status, headers, e = get_json(port, "/health", method="POST")
    check(status == 405 and "GET" in headers["Allow"], "POST: 405 with Allow")
    status, _, _ = get(port, "/api/v1/octad", {"ofen": "a" * 3000})
    check(status == 414, "a request target over 2048 bytes: 414")
    status, _, _ = get(port, "/api/v1/octad", {"ofen": "a" * 100000})
    check(status in (414, 431), "a 100 kB request head: refused (%d)" % status)
    check(get(port, "/health")[0] == 200, "and the server still answers")


def test_connections(port):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 1000
    if soft < want + 100 and hard >= want + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want + 100, hard))
    socks = []
    for _ in range(want):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"GET /api/v1/octad?ofen=3k")  # a slow client: half a request line, then nothing
        socks.append(s)
    t0 = time.monotonic()
    status, _, a = get_json(port, "/api/v1/octad", {"ofen": "3k/4/4/R2K w - - 0 1"})
    check(status == 200 and a["category"] == "win" and time.monotonic() - t0 < 5,
          "1,000 idle half-sent connections: another client is answered (%.2f s)" % (time.monotonic() - t0))
    for s in socks:
        s.close()


def test_timeout(tables):
    srv = Server(tables, "--timeout", "1")
    s = socket.create_connection(("127.0.0.1", srv.port))
    s.settimeout(10)
    s.sendall(b"GET /health HTTP/1.1\r\n")
    t0 = time.monotonic()
    try:
        data = s.recv(100)
    except socket.timeout:
        data = None
    check(data == b"" and time.monotonic() - t0 < 5, "--timeout 1: a client that stops sending is dropped")
    check(get(srv.port, "/health")[0] == 200, "and others are answered")
    srv.stop()


def test_damaged(tables):
    bad = os.path.join(TMP, "damaged")
    shutil.copytree(tables, bad)
    srv = Server(bad)
    with open(os.path.join(bad, "KQvK.otb"), "r+b") as f:
        f.seek(300)
        f.write(b"XXXXXXXX")
    ofen = {"ofen": "3k/4/1KQ1/4 w - - 0 1"}
    s1, _, e1 = get_json(srv.port, "/api/v1/octad", ofen)
    s2, _, e2 = get_json(srv.port, "/api/v1/octad/mainline", ofen)
    check(s1 == 503 and s2 == 503 and "KQvK.otb" in e1["error"], "a table damaged at run time: 503 naming the file")
    s3, _, a = get_json(srv.port, "/api/v1/octad", {"ofen": "3k/4/4/R2K w - - 0 1"})
    check(s3 == 200 and a["category"] == "win" and srv.alive(), "the server stays up and answers other positions")
    srv.stop()
    log = srv.stderr()
    check(log.count("KQvK.otb") == 1, "the failure is logged once: %r" % log.strip())


def test_memory(tables, port):
    """--memory 1 (a few blocks: nearly every lookup reads its block again) and --memory 0 (tables read
    whole) answer every request byte for byte as the default does, and as octad probe."""
    rng = random.Random(31)
    ofens = list(POSITIONS)
    while len(ofens) < 300:
        board = [""] * 16
        for i, sq in enumerate(rng.sample(range(16), rng.randint(2, 4))):
            board[sq] = "K" if i == 0 else "k" if i == 1 else rng.choice("PNBRQpnbrq")
        ranks = []
        for r in range(3, -1, -1):
            text, empty = "", 0
            for c in board[r * 4:r * 4 + 4]:
                if c:
                    text += (str(empty) if empty else "") + c
                    empty = 0
                else:
                    empty += 1
            ranks.append(text + (str(empty) if empty else ""))
        ofens.append("/".join(ranks) + " %s - - 0 1" % rng.choice("wb"))
    tiny, whole = Server(tables, "--memory", "1", "--cache", "0"), Server(tables, "--memory", "0", "--cache", "0")
    differ, answered = [], 0
    for ofen in ofens:
        for path in ("/api/v1/octad", "/api/v1/octad/mainline"):
            bodies = [get(p, path, {"ofen": ofen})[::2] for p in (port, tiny.port, whole.port)]
            answered += bodies[0][0] == 200
            if bodies[0] != bodies[1] or bodies[0] != bodies[2]:
                differ.append((path, ofen))
    check(not differ and answered > 250, "--memory 1, --memory 0 and the default: byte-identical answers (%d of %d "
          "requests answered 200%s)" % (answered, 2 * len(ofens), ", differ: %r" % differ[:3] if differ else ""))
    compare(tiny.port, "3k/4/4/R2K w - - 0 1", tables)
    compare(tiny.port, "3k/pP2/4/3K b - b2 0 1", tables)
    ht, hw = get_json(tiny.port, "/health")[2], get_json(whole.port, "/health")[2]
    check(ht["tables_open"] == hw["tables_open"] > 0 and "memory" not in hw
          and hw["tables_open_bytes"] > ht["tables_open_bytes"],
          "/health: --memory 1 and 0 opened the same tables; read whole, their records count (%d, %d bytes)"
          % (ht["tables_open_bytes"], hw["tables_open_bytes"]))
    check(tiny.stop() == 0 and whole.stop() == 0, "--memory 1 agrees with octad probe; both stop cleanly")


def test_retry(tables):
    """A table file that cannot be read when first needed: 503 saying when it is tried again (retry_after,
    Retry-After); put back, it is not read again before then; after, it answers."""
    gone = os.path.join(TMP, "gone")
    shutil.copytree(tables, gone)
    srv = Server(gone, "--retry", "2")
    path, away = os.path.join(gone, "KQvK.otb"), os.path.join(gone, "KQvK.away")
    os.rename(path, away)
    ofen = {"ofen": "3k/4/1KQ1/4 w - - 0 1"}
    s1, h1, e1 = get_json(srv.port, "/api/v1/octad", ofen)
    check(s1 == 503 and "KQvK.otb" in e1["error"] and e1["retry_after"] in (1, 2) and h1["Retry-After"] in ("1", "2")
          and "tried again in" in e1["message"], "a table that cannot be read: 503 saying when it is tried again "
          "(retry_after %r, Retry-After %r)" % (e1.get("retry_after"), h1["Retry-After"]))
    os.rename(away, path)
    s2, _, e2 = get_json(srv.port, "/api/v1/octad", ofen)
    check(s2 == 503 and e2["retry_after"] in (1, 2), "put back: not read again before the delay (503)")
    time.sleep(2.2)
    s3, _, a = get_json(srv.port, "/api/v1/octad", ofen)
    check(s3 == 200 and a["category"] == "win", "after the delay it is read and answers (%d)" % s3)
    srv.stop()
    check(srv.stderr().count("KQvK.otb") == 1, "the failure is logged once: %r" % srv.stderr().strip())


def test_no_tables():
    srv = Server(os.path.join(TMP, "none"), "--cache", "0")
    log = srv.stderr()
    check("octad solve --max-pieces" in log, "no tables: says how to make them")
    status, _, a = get_json(srv.port, "/api/v1/octad", {"ofen": "3k/4/1KQ1/4 w - - 0 1"})
    check(status == 200 and a["category"] == "unknown", "no tables: unknown")
    status, _, a = get_json(srv.port, "/api/v1/octad", {"ofen": "3k/3Q/2K1/4 b - - 1 1"})
    check(status == 200 and a["category"] == "loss" and a["checkmate"], "no tables: mate still known")
    again = get(srv.port, "/api/v1/octad", {"ofen": "3k/3Q/2K1/4 b - - 1 1"})[1]["X-Octad-Cache"]
    check(again == "miss", "--cache 0: nothing is kept")
    check(srv.stop() == 0, "SIGTERM: exits 0")


def required(spec, schema):
    """Every field an OpenAPI schema (with allOf and $ref) requires."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        return required(spec, spec["components"]["schemas"][name])
    out = set(schema.get("required", []))
    for part in schema.get("allOf", []):
        out |= required(spec, part)
    return out


def test_openapi(port, spec_path):
    """docs/oracle-openapi.yaml: its paths are the server's, the answers have the fields it requires."""
    import yaml
    with open(spec_path) as f:
        spec = yaml.safe_load(f)
    ofen = {"ofen": "3k/4/4/R2K w - - 0 1"}
    for path in spec["paths"]:
        status = get(port, path, ofen)[0]
        check(status == 200, "openapi path %s answers 200" % path)
    schemas = spec["components"]["schemas"]
    _, _, a = get_json(port, "/api/v1/octad", ofen)
    _, _, m = get_json(port, "/api/v1/octad/mainline", ofen)
    _, _, d = get_json(port, "/api/v1/octad/deployed")
    _, _, e = get_json(port, "/api/v1/octad", {"ofen": "x"})
    for name, obj in (("Position", a), ("Move", a["moves"][0]), ("Mainline", m), ("LineMove", m["mainline"][0]),
                      ("Start", d[0]), ("Error", e)):
        missing = required(spec, schemas[name]) - set(obj)
        check(not missing, "answers have the fields openapi's %s requires%s" % (name, " (missing %s)" % missing if missing else ""))
    cats = set(schemas["Category"]["enum"])
    check(cats == set(NAMES) | {"unknown"}, "openapi's categories are ours")


def test_make():
    made = os.path.join(TMP, "made")
    srv = Server(made, "--make", "3")
    log = srv.stderr()
    status, _, a = get_json(srv.port, "/api/v1/octad", {"ofen": "3k/4/1KQ1/4 w - - 0 1"})
    check("solve: [" in log and os.path.exists(os.path.join(made, "SUMMARY")) and "up to 3 pieces" in srv.start_line,
          "--make 3: solves the tables up to 3 pieces first, with progress")
    check(status == 200 and a["category"] == "win", "and serves them")
    srv.stop()
    out = subprocess.run([OCTAD, "serve", "--make", "9"], capture_output=True, text=True, timeout=10)
    check(out.returncode == 2 and "--make" in out.stderr, "--make 9: exit 2 naming --make")


def test_command_line():
    out = subprocess.run([OCTAD, "serve", "--help"], capture_output=True, text=True)
    check(out.returncode == 0 and "usage: octad serve" in out.stdout and "--listen" in out.stdout, "--help")
    for bad, word in (("nonsense", "--listen"), ("127.0.0.1:99999", "port"), ("1.2.3:80", "IPv4")):
        out = subprocess.run([OCTAD, "serve", "--listen", bad], capture_output=True, text=True, timeout=10)
        check(out.returncode == 2 and word in out.stderr, "--listen %s: exit 2, %s" % (bad, out.stderr.strip()))
    out = subprocess.run([OCTAD, "serve", "--frob"], capture_output=True, text=True, timeout=10)
    check(out.returncode == 2 and "unknown option '--frob'" in out.stderr, "unknown option: exit 2")
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    out = subprocess.run([OCTAD, "serve", "--listen", str(busy.getsockname()[1]), "--tables", TMP],
                         capture_output=True, text=True, timeout=10)
    check(out.returncode == 1 and "cannot listen" in out.stderr, "a port in use: exit 1, says so")
    busy.close()


def main():
    try:
        tables = os.path.join(TMP, "t4")
        subprocess.run([OCTAD, "solve", "--max-pieces", "4", "--tables", tables, "--quiet", "--threads", "2"],
                       check=True, stdout=subprocess.DEVNULL)
        srv = Server(tables, "--threads", "2")
        check("61 table files" in srv.start_line and "up to 4 pieces" in srv.start_line, srv.start_line.strip())
        test_answers(srv.port, tables)
        test_mainline_deployed_svg(srv.port)
        test_http(srv.port)
        test_connections(srv.port)
        test_openapi(srv.port, os.path.join(os.path.dirname(STARTS), "..", "oracle-openapi.yaml"))
        test_memory(tables, srv.port)
        check(srv.alive() and srv.stop() == 0, "the server ran through it all and stops cleanly (no sanitizer report)")
        test_timeout(tables)
        test_damaged(tables)
        test_retry(tables)
        test_no_tables()
        test_make()
        test_command_line()
    finally:
        for srv in SERVERS:
            if srv.alive():
                srv.proc.kill()
                srv.proc.wait()
        shutil.rmtree(TMP, ignore_errors=True)
    print("test_serve: all passed")


if __name__ == "__main__":
    main()
