#!/usr/bin/env python3
"""check_starts.py: checks the tables' answer for the 144 deployed octad starts against the engine.

usage: check_starts.py [--octad PATH] [--tables DIR] [--max-dtm N] [--json]

Reads every start's value from the tables (`octad probe --deployed --json`), then, for
each start the tables call a win with dtm N plies (N <= --max-dtm, default 41), runs
the engine's forward alpha-beta search without tables (`octad search --depth N+2`)
and compares: the engine must report mate in (N+1)/2 moves and play one of the
tables' best moves. A different algorithm from the retrograde solver: agreement is
evidence for the wins (a draw cannot be confirmed this way). Exit 0 when every
checked start agrees, 1 otherwise, 2 on bad usage.
"""
import argparse
import json
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--octad", default="build/bin/octad", help="the octad program (default build/bin/octad)")
    ap.add_argument("--tables", default="octad-tables", help="the table directory (8 pieces)")
    ap.add_argument("--max-dtm", type=int, default=41, help="check wins up to this many plies (default 41)")
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    a = ap.parse_args()
    p = subprocess.run([a.octad, "probe", "--deployed", "--tables", a.tables, "--json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        print("check_starts: octad probe --deployed failed: " + p.stderr.strip(), file=sys.stderr)
        return 2
    starts = json.loads(p.stdout)
    rows, bad = [], 0
    for s in starts:
        if s["wdl"] != "win" or s["dtm"] > a.max_dtm:
            continue
        t0 = time.time()
        q = subprocess.run([a.octad, "search", s["position"], "--depth", str(s["dtm"] + 2), "--hash", "256", "--json"],
                           stdout=subprocess.PIPE, text=True)
        res = json.loads(q.stdout)
        mate = res["lines"][0]["score"].get("mate")
        ok = mate == (s["dtm"] + 1) // 2 and res["bestmove"] in s["best"]
        bad += not ok
        rows.append({"start": s["start"], "dtm": s["dtm"], "engine_mate": mate, "engine_move": res["bestmove"],
                     "tables_best": s["best"], "agree": ok, "seconds": round(time.time() - t0, 2)})
        if not a.json:
            print("start %3d  dtm %2d plies  engine mate %s with %s  tables best %s  %s" %
                  (s["start"], s["dtm"], mate, res["bestmove"], ",".join(s["best"]), "agree" if ok else "DIFFER"),
                  flush=True)
    if a.json:
        print(json.dumps({"checked": len(rows), "differ": bad, "starts": rows}))
    else:
        print("%d winning starts checked, %d differ" % (len(rows), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
