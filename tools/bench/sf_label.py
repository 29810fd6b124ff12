#!/usr/bin/env python3
"""sf_label.py: labels Texel-tuning positions with Stockfish's score, so the chess
evaluation can be fitted to a stronger engine's judgement instead of (or blended
with) the results of fast self-play (docs/engine-design.md, "Texel tuning").

usage: tools/bench/sf_label.py IN OUT [--nodes N] [--stockfish PATH] [--hash MB]
                         [--shard K/M] [--mate-cp CP]

IN holds lines "FEN;R;S" (bench_texel_games' output: R the game's result for White,
S our search score for White). OUT gets "FEN;R;F" for each, with F Stockfish's score
for White in centipawns after a search of N nodes (default 20000) on one thread,
the table cleared before every position, so a label depends only on its position,
N and the Stockfish build. A mate score becomes +-CP (--mate-cp, default 0: such
positions are left out and counted). --shard K/M labels only the lines whose
number (from 0) is K modulo M, so M processes can share one file; their outputs
concatenated in any order hold each kept position once.

OUT is the journal: an interrupted run started again with the same arguments
keeps the complete lines already in OUT and goes on after them. Progress goes to
stderr. Exit status 2 on bad input or arguments, naming the line and the field.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time


def fail(message):
    print(f"sf_label.py: {message}", file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    p = argparse.ArgumentParser(prog="sf_label.py", description=__doc__.split("\n\n")[0])
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--nodes", type=int, default=20000)
    p.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    p.add_argument("--hash", type=int, default=4)
    p.add_argument("--shard", default="0/1")
    p.add_argument("--mate-cp", type=int, default=0)
    a = p.parse_args(argv)
    if a.nodes < 1:
        fail("--nodes: expected a positive number of nodes")
    if a.hash < 1:
        fail("--hash: expected a positive number of MiB")
    if a.mate_cp < 0:
        fail("--mate-cp: expected 0 (leave mates out) or a positive number of centipawns")
    try:
        k, m = (int(x) for x in a.shard.split("/"))
    except ValueError:
        fail(f"--shard: expected K/M, got {a.shard!r}")
    if m < 1 or not 0 <= k < m:
        fail(f"--shard: expected 0 <= K < M, got {a.shard!r}")
    a.shard_k, a.shard_m = k, m
    if not os.access(a.stockfish, os.X_OK):
        fail(f"--stockfish: {a.stockfish} is not an executable")
    return a


def read_positions(path, k, m):
    """The (line number, FEN, R) of this shard's lines of path."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as err:
        fail(f"{path}: {err.strerror}")
    out = []
    for i, line in enumerate(lines):
        if not line.strip() or i % m != k:
            continue
        fields = line.split(";")
        if len(fields) < 2:
            fail(f"{path} line {i + 1}: expected FEN;R[;S], got {line[:60]!r}")
        fen, result = fields[0].strip(), fields[1].strip()
        if result not in ("1", "0", "0.5"):
            fail(f"{path} line {i + 1}: result: expected 1, 0.5 or 0, got {result!r}")
        parts = fen.split()
        if len(parts) < 4 or parts[1] not in ("w", "b"):
            fail(f"{path} line {i + 1}: FEN: expected board, side (w or b), castling, en passant")
        out.append((i, fen, result))
    return out


def done_count(path):
    """How many complete lines an earlier run left in path (an incomplete last one is cut off)."""
    if not os.path.exists(path):
        return 0, 0
    with open(path, "rb") as f:
        data = f.read()
    keep = data.rfind(b"\n") + 1
    if keep != len(data):
        with open(path, "r+b") as f:
            f.truncate(keep)
    return data[:keep].count(b"\n"), keep


class Stockfish:
    def __init__(self, path, hash_mb):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        self.send(f"setoption name Hash value {hash_mb}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait(self, token):
        lines = []
        for line in self.proc.stdout:
            lines.append(line)
            if line.split()[:1] == [token]:
                return lines
        fail(f"stockfish ended before it sent {token}")

    def score(self, fen, nodes):
        """Stockfish's last reported score of fen for the side to move: ('cp', n) or ('mate', n)."""
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        last = None
        for line in self.wait("bestmove"):
            words = line.split()
            if words[:1] != ["info"] or "score" not in words or "lowerbound" in words or "upperbound" in words:
                continue
            i = words.index("score")
            if i + 2 < len(words) and words[i + 1] in ("cp", "mate"):
                last = (words[i + 1], int(words[i + 2]))
        return last

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def main(argv):
    a = parse_args(argv)
    positions = read_positions(a.input, a.shard_k, a.shard_m)
    done, _ = done_count(a.output)
    if done > len(positions):
        fail(f"{a.output} has {done} lines but this shard of {a.input} only {len(positions)} positions: not its journal")
    sf = Stockfish(a.stockfish, a.hash)
    skipped = 0
    t0 = time.monotonic()
    with open(a.output, "a", encoding="utf-8") as out:
        for n, (lineno, fen, result) in enumerate(positions):
            if n < done:
                continue
            got = sf.score(fen, a.nodes)
            if got is None:
                fail(f"{a.input} line {lineno + 1}: stockfish gave no score (an illegal position?)")
            kind, v = got
            if kind == "mate":
                if a.mate_cp == 0:
                    skipped += 1
                    out.write(f"#{fen};{result};mate\n")  # kept in the journal so a restart counts it
                    continue
                v = a.mate_cp if v > 0 else -a.mate_cp
            white = v if fen.split()[1] == "w" else -v
            out.write(f"{fen};{result};{white}\n")
            if (n + 1) % 1000 == 0:
                out.flush()
                rate = (n + 1 - done) / max(time.monotonic() - t0, 1e-9)
                left = (len(positions) - n - 1) / max(rate, 1e-9)
                print(f"sf_label.py: {n + 1}/{len(positions)} positions, {rate:.0f}/s, about {left / 60:.0f} min left",
                      file=sys.stderr)
    sf.close()
    print(f"sf_label.py: {len(positions)} positions labelled ({done} from an earlier run), "
          f"{skipped} mates left out (lines starting with '#')", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
