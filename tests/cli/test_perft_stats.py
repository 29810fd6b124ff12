#!/usr/bin/env python3
"""test_perft_stats.py: `octad perft --stats` against the chess programming wiki's published
tables (tests/data/chess-cpw-stats.txt, read as data) for chess, and against certcheck's own
rules (`certcheck stats`, written apart from the library) for octad, on the start and on suite
positions chosen so that discovered checks, double checks, mates and stalemates occur.

usage: test_perft_stats.py OCTAD CERTCHECK DATA_DIR [--slow]
Quick: chess start to depth 5, kiwipete to 4. --slow: every row of the table (start 6, kiwipete 5)."""
import re
import subprocess
import sys

OCTAD, CERTCHECK, DATA = sys.argv[1:4]
SLOW = "--slow" in sys.argv[4:]
QUICK_DEPTH = {"start": 5, "kiwipete": 4}
COLUMNS = ["nodes", "captures", "ep", "castles", "promotions", "checks", "disc-checks", "dbl-checks", "mates"]
failures = 0


def check(ok, what):
    global failures
    print(("ok    " if ok else "FAIL  ") + what)
    failures += 0 if ok else 1


def counts(out):
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^([a-z-]+)\s+(\d+)$", out, re.M)}


def octad_stats(depth, *pos):
    args = [OCTAD, "perft", str(depth), "--stats", "--threads", "1", "--quiet", *pos]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    check("convention checks include mates (chess programming wiki)" in out, "convention stated: " + " ".join(pos))
    c = counts(out)
    check(c["checks-gct"] == c["checks"] - c["mates"], "checks-gct = checks - mates (%d)" % c["checks-gct"])
    return c


def read_table():
    positions, rows, errata = {}, [], {}
    with open("%s/chess-cpw-stats.txt" % DATA) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("position "):
                name, fen = line[len("position "):].split(" | ")
                positions[name] = fen
            elif line.startswith("erratum "):
                _, name, depth, column, _published, counted = line.split()[:6]
                errata[(name, int(depth), column)] = int(counted)
            else:
                f_ = line.split()
                rows.append((f_[0], int(f_[1]), dict(zip(COLUMNS, map(int, f_[2:])))))
    return positions, rows, errata


def chess_against_wiki():
    positions, rows, errata = read_table()
    for name, depth, want in rows:
        if not SLOW and depth > QUICK_DEPTH[name]:
            continue
        got = octad_stats(depth, "--variant", "chess", "--fen", positions[name])
        for col in COLUMNS:
            expect = errata.get((name, depth, col), want[col])
            note = " (erratum: the wiki prints %d)" % want[col] if (name, depth, col) in errata else ""
            check(got[col] == expect, "chess %s depth %d %s: %d, table %d%s" % (name, depth, col, got[col], expect, note))


def suite_lines(path, every):
    with open(path) as f:
        lines = [l.split(";")[0].strip() for l in f if l.strip() and not l.startswith("#")]
    return lines[::every]


def octad_against_certcheck():
    positions = [("start", 6, [])]
    for path in ("octad-standard.epd", "octad-deploy.epd"):
        positions += [(ofen, 4, ["--ofen", ofen]) for ofen in suite_lines("%s/%s" % (DATA, path), 6)]
    total = {}
    for label, depth, pos in positions:
        ours = octad_stats(depth, *pos)
        ofen = pos[1] if pos else "ppkn/4/4/NKPP w NCFncf - 0 1"
        theirs = counts(subprocess.run([CERTCHECK, "stats", ofen, str(depth)], capture_output=True, text=True,
                                       check=True).stdout)
        same = all(ours.get(k) == v for k, v in theirs.items())
        check(same, "octad %s depth %d: every count equals certcheck's%s" % (
            label, depth, "" if same else ": ours %s, certcheck %s" % (
                {k: ours.get(k) for k in theirs}, theirs)))
        for k, v in theirs.items():
            total[k] = total.get(k, 0) + v
    # The comparison must have met every kind, or it proves nothing about that kind.
    for kind in ("ep", "near", "center", "far", "promotions", "disc-checks", "dbl-checks", "mates", "stalemates"):
        check(total[kind] > 0, "octad positions exercise %s (%d in all)" % (kind, total[kind]))


chess_against_wiki()
octad_against_certcheck()
print("test_perft_stats: %s" % ("all passed" if failures == 0 else "%d FAILED" % failures))
sys.exit(1 if failures else 0)
