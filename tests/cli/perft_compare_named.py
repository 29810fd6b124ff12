#!/usr/bin/env python3
"""perft_compare_named.py: checks that `octad perft --compare --json` named exactly what a bug breaks.

usage: perft_compare_named.py OCTAD VARIANT BUG < the JSON answer

Independently of the comparison's code, with `octad show` and `octad moves`:
- the answer says the counts differ, and its path, played from the root, leads to its position;
- ep: the moves it calls missing are exactly the en-passant captures legal there, nothing extra;
- underpromotion: missing is exactly the legal promotions to knight, bishop and rook, nothing extra;
- castle-through-check: one extra move, a castle, from a position not in check, nothing missing.
Exit status 0 when all hold, 1 with the reason otherwise."""
import json
import subprocess
import sys


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def fail(why):
    print("FAIL:", why)
    sys.exit(1)


def main():
    octad, variant, bug = sys.argv[1:4]
    r = json.load(sys.stdin)
    if r["equal"] or r["ours"] == r["theirs"]:
        fail("the answer says equal: %s" % r)
    shown = run(octad, "show", "--variant", variant, "--fen", r["root"], "--moves", " ".join(r["path"]))
    text = [l.split(": ", 1)[1] for l in shown.splitlines() if l.startswith(("FEN: ", "OFEN: "))][0]
    if text != r["position"]:
        fail("the path %s leads to %s, not to the position named, %s" % (r["path"], text, r["position"]))
    board_side_ep = r["position"].split()
    ep_square = board_side_ep[3]
    legal = [l.split()[0] for l in run(octad, "moves", "--variant", variant, r["position"]).splitlines()
             if l and not l.endswith("legal moves") and not l.endswith("legal move")]
    sans = {l.split()[0]: l.split()[1] for l in run(octad, "moves", "--variant", variant, r["position"]).splitlines()
            if len(l.split()) == 2}
    if bug == "ep":
        want = sorted(m for m in legal if m[2:4] == ep_square and "x" in sans[m] and sans[m][0].islower()
                      and m[0] != m[2])
    elif bug == "underpromotion":
        want = sorted(m for m in legal if len(m) == 5 and m[4] in "nbr")
    else:
        want = []
    if sorted(r["missing"]) != want or not want and bug != "castle-through-check":
        fail("missing %s, but the %s moves of %s are %s" % (r["missing"], bug, r["position"], want))
    if bug == "castle-through-check":
        if len(r["extra"]) != 1 or r["extra"][0] not in ("e1g1", "e1c1", "e8g8", "e8c8"):
            fail("extra %s is not one castle" % r["extra"])
        f = r["position"].split()
        f[1], f[3] = "b" if f[1] == "w" else "w", "-"  # the other side to move: refused if ours is in check
        flipped = subprocess.run([octad, "validate", "--variant", variant, " ".join(f)], capture_output=True, text=True)
        if "in check" in flipped.stderr or r["extra"][0] in legal:
            fail("the position %s is in check or the castle is legal" % r["position"])
    elif r["extra"]:
        fail("extra %s: the %s bug adds no move" % (r["extra"], bug))
    print("named: %s after %s: missing %s extra %s" % (r["position"], " ".join(r["path"]) or "(root)",
                                                       r["missing"], r["extra"]))


main()
