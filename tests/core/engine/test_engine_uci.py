#!/usr/bin/env python3
"""test_engine_uci.py: the engine through its real interfaces: `octad uci` driven by
transcripts, by a real UCI client (Debian's polyglot), and judged against Stockfish.

usage: test_engine_uci.py CASE --octad PATH [--data DIR] [--max-mate N]
Cases:
  transcript  the full command set: uci, isready (also while searching), ucinewgame,
              setoption, position, go with every limit, stop, ponderhit, bestmove (none), quit
  garbage     malformed and unknown lines are ignored, the engine keeps answering
  perft       go perft N prints the divide exactly as Stockfish does (same lines, same total)
  variants    Chess960 castling both ways (king takes rook), standard e1g1, octad positions
  mates       positions of tests/data/engine-mates-chess.epd: Stockfish (depth 22) gives the
              mate distance, the engine must report the same and its move must keep the mate
  polyglot    polyglot (xboard <-> UCI adapter, its own move legality) plays the engine
              against itself: every move accepted, none illegal
  smp         Threads 2 (lazy SMP): legal best moves in chess, Chess960 and octad, the octad
              mate, stop after go infinite (exactly one bestmove, many times), movetime kept,
              the tables under two threads; back to Threads 1 the search is deterministic again
              (the same info lines as a fresh engine). `mates --threads 2` checks the mates.
  tables      setoption OctadTables DIR (tables made by octad solve): at depth 1 the engine
              plays the tables' best move and reports their mate distance (octad probe is the
              oracle); an empty value turns them off; a bad directory is an info string
"""
import argparse
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ARGS = None


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def find_program(name):
    path = shutil.which(name) or ("/usr/games/" + name if os.path.exists("/usr/games/" + name) else None)
    if path is None:
        fail(name + " is not installed (tools/install-deps.sh installs it)")
    return path


class Uci:
    """A UCI engine process with a reader thread: send lines, wait for lines."""

    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.q = queue.Queue()
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix, timeout=30.0):
        """Lines up to and including the first that starts with prefix."""
        got = []
        end = time.time() + timeout
        while True:
            left = end - time.time()
            if left <= 0:
                fail("no '%s' within %.0f s; last lines: %s" % (prefix, timeout, got[-5:]))
            try:
                line = self.q.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                fail("engine exited while waiting for '%s'; last lines: %s" % (prefix, got[-5:]))
            got.append(line)
            self.lines.append(line)
            if line.startswith(prefix):
                return got

    def quiet(self, seconds):
        """Lines that arrive within seconds (none expected to end anything)."""
        got = []
        end = time.time() + seconds
        while time.time() < end:
            try:
                line = self.q.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                continue
            if line is None:
                break
            got.append(line)
        return got

    def close(self):
        self.send("quit")
        try:
            rc = self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            fail("engine did not exit after quit")
        if rc != 0:
            fail("engine exited with status %d after quit" % rc)


def octad_uci():
    return Uci([ARGS.octad, "uci"])


def legal_moves(variant, fen, moves=""):
    cmd = [ARGS.octad, "moves", "--variant", variant, fen]
    if moves:
        cmd += ["--moves", moves]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return {line.split()[0] for line in out.splitlines() if line and not line.endswith("legal moves")}


def bestmove(lines):
    last = lines[-1].split()
    if last[0] != "bestmove":
        fail("expected bestmove, got " + lines[-1])
    return last[1]


def infos(lines):
    return [l for l in lines if l.startswith("info depth")]


def check_info_line(line):
    t = line.split()
    for key in ("depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv"):
        if key not in t:
            fail("info line without '%s': %s" % (key, line))
    i = t.index("score")
    if t[i + 1] not in ("cp", "mate") or not t[i + 2].lstrip("-").isdigit():
        fail("bad score in: " + line)


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def case_transcript():
    e = octad_uci()
    e.send("uci")
    out = e.until("uciok")
    if not out[0].startswith("id name") or not any(l.startswith("id author") for l in out):
        fail("uci: no id lines: %s" % out)
    for opt in ("Hash", "Threads", "MultiPV", "UCI_Chess960", "UCI_Variant", "Ponder"):
        if not any(l.startswith("option name " + opt + " ") for l in out):
            fail("uci: option %s missing" % opt)
    e.send("isready")
    e.until("readyok")
    e.send("ucinewgame")
    e.send("position startpos moves e2e4 e7e5")
    e.send("go depth 5")
    out = e.until("bestmove")
    if len(infos(out)) < 5:
        fail("go depth 5: fewer than 5 info lines")
    for line in infos(out):
        check_info_line(line)
    if bestmove(out) not in legal_moves("chess", START, "e2e4 e7e5"):
        fail("go depth 5: illegal bestmove " + out[-1])
    # go infinite: isready answered while searching, no bestmove before stop, exactly one after.
    e.send("position startpos")
    e.send("go infinite")
    time.sleep(0.3)
    e.send("isready")
    got = e.until("readyok", timeout=5)
    if any(l.startswith("bestmove") for l in got):
        fail("bestmove before stop in go infinite")
    if any(l.startswith("bestmove") for l in e.quiet(0.5)):
        fail("bestmove before stop in go infinite")
    e.send("stop")
    e.until("bestmove", timeout=5)
    e.send("isready")
    got = e.until("readyok", timeout=5)
    if any(l.startswith("bestmove") for l in got):
        fail("a second bestmove after stop")
    # go infinite on a tiny depth-limited tree still waits: mate in one found at once.
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    e.send("go infinite")
    if any(l.startswith("bestmove") for l in e.quiet(0.8)):
        fail("bestmove before stop in go infinite (mate found)")
    e.send("stop")
    if bestmove(e.until("bestmove", timeout=5)) != "d1d8":
        fail("mate in one: not d1d8")
    # ponder: no bestmove while pondering; ponderhit starts the clock; stop ends a ponder too.
    e.send("position startpos moves e2e4")
    e.send("go ponder wtime 2000 btime 2000")
    if any(l.startswith("bestmove") for l in e.quiet(0.7)):
        fail("bestmove while pondering")
    e.send("ponderhit")
    t0 = time.time()
    e.until("bestmove", timeout=5)
    if time.time() - t0 > 2.0:
        fail("ponderhit: bestmove took %.1f s with 2 s on the clock" % (time.time() - t0))
    e.send("go ponder")
    time.sleep(0.2)
    e.send("stop")
    e.until("bestmove", timeout=5)
    # every limit
    e.send("position startpos")
    t0 = time.time()
    e.send("go movetime 300")
    e.until("bestmove", timeout=5)
    if time.time() - t0 > 1.5:
        fail("go movetime 300 took %.2f s" % (time.time() - t0))
    e.send("go wtime 3000 btime 3000 winc 100 binc 100 movestogo 10")
    e.until("bestmove", timeout=5)
    e.send("go nodes 3000")
    out = e.until("bestmove", timeout=10)
    nodes = max(int(l.split()[l.split().index("nodes") + 1]) for l in infos(out))
    if nodes > 6000:
        fail("go nodes 3000 reported %d nodes" % nodes)
    e.send("go searchmoves a2a3 b2b3 depth 4")
    if bestmove(e.until("bestmove")) not in ("a2a3", "b2b3"):
        fail("searchmoves not respected")
    e.send("position fen 8/3p4/8/8/1Q4P1/4b2n/5B2/1R3K1k w - - 0 1")
    e.send("go mate 2")
    out = e.until("bestmove", timeout=20)
    if "score mate 2" not in infos(out)[-1]:
        fail("go mate 2: last info is " + infos(out)[-1])
    e.send("setoption name MultiPV value 3")
    e.send("position startpos")
    e.send("go depth 4")
    out = e.until("bestmove")
    last = [l for l in infos(out) if l.startswith("info depth 4 ")]
    if sorted(l.split()[6] for l in last) != ["1", "2", "3"]:
        fail("MultiPV 3: depth 4 lines %s" % last)
    e.send("setoption name MultiPV value 1")
    # a position without legal moves
    e.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    e.send("go depth 3")
    if e.until("bestmove")[-1] != "bestmove (none)":
        fail("checkmated side: expected bestmove (none)")
    e.send("setoption name Hash value 1")
    e.send("setoption name Clear Hash")
    e.send("isready")
    e.until("readyok")
    e.close()


def case_garbage():
    e = octad_uci()
    for line in ["", "   ", "foo bar baz", "go depth x", "position", "position fen", "position fen garbage",
                 "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
                 "position startpos moves e2e5", "setoption", "setoption name", "setoption name Hash value abc",
                 "setoption name UCI_Variant value shogi", "go perft", "go perft -3", "go wtime -5 depth 1",
                 "debug on", "register later", "\x01\x02\xff\xfe binary", "x" * 5000,
                 "go searchmoves zzzz depth 1", "position startpos moves " + "e2e4 " * 300]:
        e.send(line)
        if line.startswith("go"):
            e.send("stop")  # a go without a usable limit searches until stopped
        e.send("isready")
        out = e.until("readyok", timeout=10)
        if any(l.startswith("bestmove") for l in out) and not line.startswith("go"):
            fail("unexpected bestmove after %r" % line[:40])
    e.send("position startpos moves e2e4 zz99 e7e5")
    e.send("go depth 2")
    out = e.until("bestmove")
    if bestmove(out) not in legal_moves("chess", START, "e2e4"):
        fail("after a bad move in the list: %s" % out[-1])
    e.close()


def perft_lines(engine_argv, setup, depth):
    e = Uci(engine_argv)
    e.send("uci")
    e.until("uciok")
    for line in setup:
        e.send(line)
    e.send("go perft %d" % depth)
    out = e.until("Nodes searched")
    e.close()
    moves = sorted(l for l in out if ":" in l and not l.startswith("info") and not l.startswith("Nodes"))
    return moves, out[-1]


def case_perft():
    sf = find_program("stockfish")
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    for setup, depth in ([["position startpos"]], 3), ([["position fen " + kiwipete]], 3), \
            ([["position startpos moves e2e4 d7d5 e4d5 c7c5"]], 2):
        ours = perft_lines([ARGS.octad, "uci"], setup[0], depth)
        theirs = perft_lines([sf], setup[0], depth)
        if ours != theirs:
            fail("go perft %d after %s: ours %s, Stockfish's %s" % (depth, setup, ours[1], theirs[1]))


def case_variants():
    sf = find_program("stockfish")
    # Chess960: a start (king b1, rooks a1 and h1... position 0 family) where both sides castle
    # both ways, written king takes rook; Stockfish with UCI_Chess960 is the oracle for the result.
    fen960 = "bqnb1rkr/pppp1ppp/8/4p1n1/4P1N1/8/PPPP1PPP/BQNB1RKR w HFhf - 0 1"
    line = ["setoption name UCI_Chess960 value true", "position fen %s moves g1h1 g8f8" % fen960]
    ours = perft_lines([ARGS.octad, "uci"], line, 3)
    theirs = perft_lines([sf], line, 3)
    if ours != theirs:
        fail("Chess960 castles: perft after them differs from Stockfish: %s vs %s" % (ours[1], theirs[1]))
    fen960b = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"
    for moves in ("e1a1 e8h8", "e1h1 e8a8"):
        line = ["setoption name UCI_Chess960 value true", "position fen %s moves %s" % (fen960b, moves)]
        if perft_lines([ARGS.octad, "uci"], line, 2) != perft_lines([sf], line, 2):
            fail("Chess960 castles %s: perft differs from Stockfish" % moves)
    e = octad_uci()
    e.send("setoption name UCI_Chess960 value true")
    e.send("position fen %s" % fen960b)
    e.send("go depth 3 searchmoves e1a1 e1h1")
    if bestmove(e.until("bestmove")) not in ("e1a1", "e1h1"):
        fail("Chess960: castle bestmove not king-takes-rook")
    e.send("setoption name UCI_Chess960 value false")
    e.send("position fen %s" % fen960b.replace("HAha", "KQkq"))
    e.send("go depth 3 searchmoves e1g1 e1c1")
    if bestmove(e.until("bestmove")) not in ("e1g1", "e1c1"):
        fail("chess: castle bestmove not e1g1/e1c1")
    line = ["position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1"]
    if perft_lines([ARGS.octad, "uci"], line, 3) != perft_lines([sf], line, 3):
        fail("standard castle e1g1: perft differs from Stockfish")
    # octad: start, far castle after c2 b3, OFEN positions, and the variant's own perft.
    e.send("setoption name UCI_Variant value octad")
    e.send("position startpos moves c1c2 b4b3 b1d1")
    e.send("go depth 6")
    octad_start = "ppkn/4/4/NKPP w NCFncf - 0 1"
    if bestmove(e.until("bestmove")) not in legal_moves("octad", octad_start, "c1c2 b4b3 b1d1"):
        fail("octad: illegal bestmove")
    e.send("position startpos")
    e.send("go perft 5")
    if e.until("Nodes searched")[-1] != "Nodes searched: 29309":
        fail("octad: go perft 5 total")
    e.send("position fen k3/4/4/K1QR w - - 0 1")
    e.send("go depth 6")
    out = e.until("bestmove")
    if "score mate 2" not in infos(out)[-1]:
        fail("octad mate in 2 over UCI: " + infos(out)[-1])
    e.close()


def stockfish_mate(sf, fen):
    """Stockfish's mate distance of fen (depth 22): N > 0 mating, -N being mated, 0 checkmated,
    None if no mate."""
    sf.send("position fen " + fen)
    sf.send("go depth 22")
    out = sf.until("bestmove", timeout=120)
    if out[-1].startswith("bestmove (none)"):
        return 0 if any("score mate 0" in l for l in out) else None
    last = [l for l in out if " score " in l][-1].split()
    i = last.index("score")
    return int(last[i + 2]) if last[i + 1] == "mate" else None


def case_mates():
    sf = Uci([find_program("stockfish")])
    sf.send("uci")
    sf.until("uciok")
    path = os.path.join(ARGS.data, "engine-mates-chess.epd")
    fens = [l.strip() for l in open(path) if l.strip() and not l.startswith("#")]
    for fen in fens:
        n = stockfish_mate(sf, fen)
        if n is None or n <= 0:
            fail("oracle: Stockfish finds no mate in " + fen)
        if n > ARGS.max_mate:
            continue
        out = subprocess.run([ARGS.octad, "search", "--variant", "chess", "--depth", str(2 * n + 2), "--json",
                              "--threads", str(ARGS.threads), fen], capture_output=True, text=True, check=True).stdout
        r = json.loads(out)
        got = r["lines"][0]["score"].get("mate")
        if got != n:
            fail("%s: Stockfish mate %d, engine %s" % (fen, n, r["lines"][0]["score"]))
        after = subprocess.run([ARGS.octad, "show", "--variant", "chess", fen, "--moves", r["bestmove"]],
                               capture_output=True, text=True, check=True).stdout
        fen_after = [l for l in after.splitlines() if l.startswith("FEN: ")][0][5:]
        m = stockfish_mate(sf, fen_after)
        if m != -(n - 1):
            fail("%s: after %s Stockfish says mate %s, not %d" % (fen, r["bestmove"], m, -(n - 1)))
    sf.close()
    print("%d mates checked" % len(fens))


def case_polyglot():
    pg = subprocess.Popen([find_program("polyglot"), "-noini", "-ec", ARGS.octad + " uci"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, bufsize=1)
    q = queue.Queue()
    threading.Thread(target=lambda: [q.put(l.rstrip("\n")) for l in pg.stdout] + [q.put(None)],
                     daemon=True).start()

    def send(line):
        pg.stdin.write(line + "\n")
        pg.stdin.flush()

    def next_move():
        end = time.time() + 30
        while time.time() < end:
            try:
                line = q.get(timeout=1)
            except queue.Empty:
                continue
            if line is None:
                fail("polyglot exited")
            low = line.lower()
            if "illegal" in low or low.startswith("error") or "tellusererror" in low:
                fail("polyglot: " + line)
            if line.startswith("move "):
                return line.split()[1]
            if line.startswith("1-0") or line.startswith("0-1") or line.startswith("1/2-1/2"):
                return None
        fail("polyglot: no move within 30 s")

    send("xboard")
    send("protover 2")
    send("new")
    send("sd 3")
    played = []
    for _ in range(40):
        send("go")
        mv = next_move()
        if mv is None:
            break
        played.append(mv)
        send("force")
    send("quit")
    pg.wait(timeout=10)
    if len(played) < 20:
        fail("polyglot game ended after %d plies: %s" % (len(played), played))
    moves = " ".join(played)
    subprocess.run([ARGS.octad, "show", "--variant", "chess", "--moves", moves], check=True,
                   capture_output=True)
    print("polyglot accepted %d plies" % len(played))


def last_score(lines):
    t = infos(lines)[-1].split()
    i = t.index("score")
    return t[i + 1], int(t[i + 2])


def case_tables():
    tmp = tempfile.mkdtemp(prefix="octad-uci-tables-")
    try:
        subprocess.run([ARGS.octad, "solve", "--max-pieces", "3", "--threads", "1", "--tables", tmp], check=True,
                       capture_output=True)
        e = octad_uci()
        e.send("uci")
        if "option name OctadTables type string default <empty>" not in e.until("uciok"):
            fail("uci: no OctadTables string option")
        e.send("setoption name UCI_Variant value octad")
        # A pawn ending whose only best move mates in 10 (dtm 19 plies): far beyond depth 1.
        for fen in ("k3/4/K1P1/4 w - - 0 1", "3k/4/1P2/3K w - - 0 1", "k3/4/4/R2K b - - 0 1"):
            probe = json.loads(subprocess.run([ARGS.octad, "probe", fen, "--tables", tmp, "--json"],
                                              check=True, capture_output=True, text=True).stdout)
            e.send("setoption name OctadTables value " + tmp)
            e.until("info string OctadTables: reading")
            e.send("position fen " + fen)
            e.send("go depth 1")
            out = e.until("bestmove")
            if bestmove(out) not in probe["best"]:
                fail("tables %s: bestmove %s, the tables' best %s" % (fen, bestmove(out), probe["best"]))
            sign = 1 if probe["wdl"] == "win" else -1
            want = ("mate", sign * ((probe["dtm"] + 1) // 2))
            if probe["wdl"] == "draw":
                want = ("cp", 0)
            if last_score(out) != want:
                fail("tables %s: score %s, the tables' %s (dtm %d)" % (fen, last_score(out), want, probe["dtm"]))
            e.send("setoption name OctadTables value")
            e.send("go depth 1")
            if last_score(e.until("bestmove")) == want:
                fail("tables %s: the same score with the tables turned off" % fen)
        e.send("setoption name OctadTables value " + os.path.join(tmp, "nowhere"))
        if "No such file" not in e.until("info string OctadTables")[-1]:
            fail("OctadTables: a missing directory is not reported")
        e.send("go depth 1")
        e.until("bestmove")
        e.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def strip_clock(lines):
    """Info lines without what depends on the clock (time, nps)."""
    out = []
    for l in infos(lines):
        t = l.split()
        for key in ("time", "nps"):
            if key in t:
                i = t.index(key)
                del t[i:i + 2]
        out.append(" ".join(t))
    return out + [lines[-1]]


def case_smp():
    e = octad_uci()
    e.send("uci")
    if not any(l.startswith("option name Threads type spin default 1 min 1 max ") and not l.endswith(" max 1")
               for l in e.until("uciok")):
        fail("uci: Threads allows no more than one thread")
    fresh = octad_uci()
    fresh.send("position startpos moves d2d4 g8f6 c2c4")
    fresh.send("go depth 7")
    want = strip_clock(fresh.until("bestmove"))
    fresh.close()
    e.send("setoption name Threads value 2")
    cases = [("chess", START, "position startpos", ""),
             ("chess", START, "position startpos moves e2e4 c7c5 g1f3 d7d6", "e2e4 c7c5 g1f3 d7d6"),
             ("chess", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R2QKB1R w KQ - 0 9",
              "position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP3PPP/R2QKB1R w KQ - 0 9", "")]
    for variant, fen, pos, moves in cases:
        e.send(pos)
        e.send("go depth 9")
        out = e.until("bestmove", timeout=120)
        for line in infos(out):
            check_info_line(line)
        if bestmove(out) not in legal_moves(variant, fen, moves):
            fail("Threads 2: illegal bestmove %s after '%s'" % (out[-1], pos))
    # stop: exactly one bestmove each time, however early it comes.
    for wait in (0.0, 0.05, 0.3, 0.0, 0.5):
        e.send("position startpos")
        e.send("go infinite")
        time.sleep(wait)
        e.send("isready")
        e.until("readyok", timeout=5)
        e.send("stop")
        if bestmove(e.until("bestmove", timeout=5)) not in legal_moves("chess", START):
            fail("Threads 2: illegal bestmove after stop")
        e.send("isready")
        if any(l.startswith("bestmove") for l in e.until("readyok", timeout=5)):
            fail("Threads 2: a second bestmove after stop")
    start = time.time()
    e.send("go movetime 300")
    e.until("bestmove", timeout=10)
    if time.time() - start > 3:
        fail("Threads 2: go movetime 300 took %.1f s" % (time.time() - start))
    e.send("setoption name UCI_Chess960 value true")
    fen960 = "bqnb1rkr/pppp1ppp/8/4p1n1/4P1N1/8/PPPP1PPP/BQNB1RKR w HFhf - 0 1"
    e.send("position fen " + fen960)
    e.send("go depth 8")
    out = e.until("bestmove", timeout=60)
    e.send("setoption name UCI_Chess960 value false")
    if bestmove(out) not in legal_moves("chess960", fen960):
        fail("Threads 2: illegal Chess960 bestmove " + out[-1])
    e.send("setoption name UCI_Variant value octad")
    e.send("position fen k3/4/4/K1QR w - - 0 1")
    e.send("go depth 8")
    out = e.until("bestmove")
    if "score mate 2" not in infos(out)[-1]:
        fail("Threads 2: octad mate in 2: " + infos(out)[-1])
    e.send("position startpos")
    e.send("go depth 14")
    if bestmove(e.until("bestmove", timeout=60)) not in legal_moves("octad", "ppkn/4/4/NKPP w NCFncf - 0 1"):
        fail("Threads 2: illegal octad bestmove")
    tmp = tempfile.mkdtemp(prefix="octad-uci-smp-")
    try:
        subprocess.run([ARGS.octad, "solve", "--max-pieces", "3", "--threads", "1", "--tables", tmp], check=True,
                       capture_output=True)
        e.send("setoption name OctadTables value " + tmp)
        e.send("position fen k3/4/K1P1/4 w - - 0 1")
        e.send("go depth 12")
        out = e.until("bestmove", timeout=60)
        if bestmove(out) != "a2b1" or last_score(out) != ("mate", 10):
            fail("Threads 2 with tables: %s %s, the tables' a2b1 mate 10" % (out[-1], last_score(out)))
        e.send("setoption name OctadTables value")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    # Back to one thread: deterministic, as a fresh engine.
    e.send("setoption name UCI_Variant value chess")
    e.send("setoption name Threads value 1")
    e.send("ucinewgame")
    e.send("position startpos moves d2d4 g8f6 c2c4")
    e.send("go depth 7")
    got = strip_clock(e.until("bestmove"))
    if got != want:
        fail("Threads 1 after Threads 2 differs from a fresh engine:\n%s\nvs\n%s" % (got[-2:], want[-2:]))
    e.close()


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    ap.add_argument("--octad", required=True)
    ap.add_argument("--max-mate", type=int, default=4, help="mates: skip longer mates (sanitizer builds)")
    ap.add_argument("--threads", type=int, default=1, help="mates: search threads")
    ap.add_argument("--data", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data"))
    ARGS = ap.parse_args()
    cases = {"transcript": case_transcript, "garbage": case_garbage, "perft": case_perft,
             "variants": case_variants, "mates": case_mates, "polyglot": case_polyglot, "tables": case_tables, "smp": case_smp}
    if ARGS.case not in cases:
        fail("unknown case " + ARGS.case)
    cases[ARGS.case]()
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main()
