#!/usr/bin/env python3
"""crosscheck_chess.py: random playouts checked against Stockfish's `go perft`.

Plays random legal moves (chosen with Stockfish's own perft 1 divide) from the
start position or from Chess960 starts, then compares `octad perft` against
Stockfish at the given depth. An oracle check for developers, not a test
dependency: it needs Debian's stockfish package.

usage: tools/oracles/crosscheck_chess.py OCTAD_BINARY [--games N] [--depth D] [--chess960] [--seed S]
"""
import argparse
import random
import re
import subprocess
import sys

STOCKFISH = "/usr/games/stockfish"


class Engine:
    def __init__(self, chess960):
        self.p = subprocess.Popen([STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        if chess960:
            self.send("setoption name UCI_Chess960 value true")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, prefix):
        lines = []
        for line in self.p.stdout:
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines
        raise RuntimeError("stockfish exited")

    def perft(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        lines = self.wait("Nodes searched")
        moves = [l.split(":")[0] for l in lines if re.match(r"^[a-h][1-8][a-h][1-8][qrbn]?: ", l)]
        return int(lines[-1].split(":")[1]), moves

    def fen_after(self, fen, move):
        self.send(f"position fen {fen} moves {move}")
        self.send("d")
        for line in self.wait("Checkers"):
            if line.startswith("Fen: "):
                return line[5:]
        raise RuntimeError("no Fen line")


def octad_perft(binary, variant, fen, depth):
    out = subprocess.run([binary, "perft", "--variant", variant, "--fen", fen, "--depth", str(depth),
                          "--threads", "1", "--hash", "16", "--quiet"], capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip()
    return int(re.search(r"^nodes +(\d+)$", out.stdout, re.M).group(1)), ""


def start_fen(binary, chess960, rng):
    if not chess960:
        return "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    out = subprocess.run([binary, "show", "--variant", "chess960", "--start", str(rng.randrange(960))],
                         capture_output=True, text=True, check=True)
    return re.search(r"^FEN: (.*)$", out.stdout, re.M).group(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("octad")
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--chess960", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    sf = Engine(a.chess960)
    variant = "chess960" if a.chess960 else "chess"
    bad = 0
    for g in range(a.games):
        fen = start_fen(a.octad, a.chess960, rng)
        for _ in range(rng.randrange(4, 60)):
            _, moves = sf.perft(fen, 1)
            if not moves:
                break
            fen = sf.fen_after(fen, rng.choice(moves))
        want, _ = sf.perft(fen, a.depth)
        got, err = octad_perft(a.octad, variant, fen, a.depth)
        if got != want:
            bad += 1
            print(f"MISMATCH {fen} depth {a.depth}: octad {got} {err} stockfish {want}")
    print(f"{a.games - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
