#!/usr/bin/env python3
"""test_perft_stats_960.py: `octad perft --stats` for Chess960 (and chess positions with every kind
of move) against chessops, an independent rules library from npm, driven by
tools/oracles/perft_stats_oracle.mjs. No published table has these columns for Chess960, so the
second opinion is another program's move generator, counted by the definitions of
docs/perft-stats.md.

usage: test_perft_stats_960.py OCTAD ORACLE_MJS DATA_DIR
(chessops from $OCTAD_NODE_MODULES, default /usr/local/lib/octad-node/node_modules)
Exit 0 when every count agrees, 1 on a difference, 77 (skipped) without node or chessops."""
import os
import re
import shutil
import subprocess
import sys

OCTAD, ORACLE, DATA = sys.argv[1:4]
MODULES = os.environ.get("OCTAD_NODE_MODULES", "/usr/local/lib/octad-node/node_modules")
if not shutil.which("node") or not os.path.isdir(os.path.join(MODULES, "chessops")):
    print("SKIP: node or chessops missing (tools/install-deps.sh installs them into %s)" % MODULES)
    sys.exit(77)

failures = 0


def counts(out):
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^([a-z-]+)\s+(\d+)$", out, re.M)}


def compare(variant, fen, depth, what):
    global failures
    ours = counts(subprocess.run([OCTAD, "perft", str(depth), "--variant", variant, "--fen", fen, "--stats",
                                  "--threads", "1", "--quiet"], capture_output=True, text=True, check=True).stdout)
    theirs = counts(subprocess.run(["node", ORACLE, MODULES, str(depth), fen],
                                   capture_output=True, text=True, check=True).stdout)
    diff = ["%s ours %d chessops %d" % (k, ours.get(k, -1), v) for k, v in theirs.items() if ours.get(k) != v]
    if not theirs or diff:
        failures += 1
        print("FAIL  %s depth %d (%s): %s" % (what, depth, fen, "; ".join(diff) or "no counts from the oracle"))
    else:
        kinds = ", ".join("%s %d" % (k, v) for k, v in theirs.items() if k != "nodes" and v)
        print("ok    %s depth %d: %d nodes (%s)" % (what, depth, theirs["nodes"], kinds))
    return theirs


def suite(path):
    with open(path) as f:
        return [line.split(";")[0].strip() for line in f if line.strip() and not line.startswith("#")]


# Chess960: every 80th start of the Fischer suite (12, with castling rights on both wings), to depth 3.
fischer = suite(os.path.join(DATA, "chess960-fischer.epd"))
total = {}
for i in range(0, len(fischer), 80):
    for k, v in compare("chess960", fischer[i], 3, "chess960 #%d" % i).items():
        total[k] = total.get(k, 0) + v

# Chess960 positions made to hold what the starts lack at depth 3: castles where the king and
# rook stand next to each other or the king does not move, promotions with capture, e.p., and
# discovered and double checks.
made = [
    ("1r2k1r1/pP4pp/8/2pP4/8/8/P5PP/1R2K1R1 w GBgb c6 0 2", 3),
    ("rk2r3/1pp2pP1/8/3pP3/8/1Q6/PP1P1p2/RK2R3 w EAea d6 0 2", 3),
    ("k7/8/8/3q4/8/8/2P5/KR5r w B - 0 1", 4),
]
for fen, depth in made:
    for k, v in compare("chess960", fen, depth, "chess960 made").items():
        total[k] = total.get(k, 0) + v

# Chess: the wiki's positions 3 to 5 (e.p., promotions, discovered checks, castles), depth 4.
cpw = suite(os.path.join(DATA, "chess-cpw.epd"))
for i in (2, 3, 5):
    for k, v in compare("chess", cpw[i], 4, "chess cpw line %d" % (i + 1)).items():
        total[k] = total.get(k, 0) + v

# The test is worth something only if every kind occurred somewhere.
missing = [k for k, v in total.items() if v == 0]
if missing:
    failures += 1
    print("FAIL  no position exercised: %s" % ", ".join(missing))
print("%s: %d differences; totals %s" % ("PASS" if not failures else "FAIL", failures,
                                         ", ".join("%s %d" % kv for kv in total.items())))
sys.exit(1 if failures else 0)
