#!/usr/bin/env python3
"""test_explorer.py: the explorer page of `octad serve` in a real browser: headless Chromium driven
through chromedriver's W3C WebDriver protocol (plain HTTP, no client library), over tables to 4
pieces made by the test. It opens a position from the URL, checks the value, the move list and the
board against the API, plays by clicking squares, steps back and forward with the arrow keys,
plays a move from the list, promotes a pawn to the piece chosen (the chooser offers the four that
docs/rules.md allows, drawn by our renderer; Escape cancels), plays against perfect play, follows
the mainline, opens the deployed starts, flips the board, checks that nothing is loaded from anywhere but the server and that a
phone-sized window needs no sideways scrolling, and keeps a screenshot.

usage: test_explorer.py OCTAD SCREENSHOT_DIR
"""
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
from tc import check  # noqa: E402
from webdriver import Driver  # noqa: E402

OCTAD, SHOTS = sys.argv[1], sys.argv[2]
TMP = tempfile.mkdtemp(prefix="octad-explorer-")


def api(port, path, ofen=None):
    url = "http://127.0.0.1:%d%s" % (port, path) + ("?" + urllib.parse.urlencode({"ofen": ofen}) if ofen else "")
    with urllib.request.urlopen(url) as r:
        return json.loads(r.read())


def test_promotion(drv, port, base):
    """A pawn reaching the far rank: the page asks which piece (queen, rook, bishop, knight: rules.md), each
    drawn by our renderer with its value; Escape cancels; the piece clicked (or its key) is the one played."""
    pos = "3k/P3/4/1K2 w - - 0 1"
    moves = api(port, "/api/v1/octad", pos)["moves"]
    promos = {m["uoi"][-1]: m for m in moves if m["uoi"].startswith("a3a4")}
    check(sorted(promos) == ["b", "n", "q", "r"], "the API offers four promotions: %s" % sorted(promos))
    drv.s("POST", "/url", {"url": base + "#" + urllib.parse.quote(pos)})
    drv.js("location.reload()")
    drv.wait_ready(0)
    drv.click('#grid div[data-square="a3"]')
    drv.click('#grid div[data-square="a4"]')
    drv.wait("return document.getElementById('promo').classList.contains('open')", "the promotion chooser")
    offered = drv.js("return [...document.querySelectorAll('#promo-choices button')].map(b => b.dataset.uoi)")
    check(offered == ["a3a4q", "a3a4r", "a3a4b", "a3a4n"], "a3 to a4 asks for the piece: %s" % offered)
    drv.wait("return [...document.querySelectorAll('#promo-choices img')].every(i => i.complete && i.naturalWidth > 0)",
             "the choices' pieces drawn")
    srcs = drv.js("return [...document.querySelectorAll('#promo-choices img')].map(i => decodeURIComponent(i.src))")
    check(all(promos[u[-1]]["ofen"] in s for u, s in zip(offered, srcs)),
          "each choice is drawn by our SVG renderer from the position after it")
    labels = drv.js("return [...document.querySelectorAll('#promo-choices button span')].map(s => s.textContent)")
    want = ["%s: %s" % (n, {"loss": "win", "draw": "draw", "win": "loss", "cursed-win": "blessed loss",
                            "blessed-loss": "cursed win"}[promos[l]["category"]])
            for l, n in (("q", "queen"), ("r", "rook"), ("b", "bishop"), ("n", "knight"))]
    check(labels == want, "each with the value it keeps for the mover: %s" % labels)
    check(drv.hash_ofen() == pos, "nothing is played before the choice")
    os.makedirs(SHOTS, exist_ok=True)
    shot = os.path.join(SHOTS, "explorer-promotion.png")
    with open(shot, "wb") as f:
        f.write(base64.b64decode(drv.s("GET", "/screenshot")))
    check(os.path.getsize(shot) > 10000, "screenshot of the chooser kept: " + shot)
    drv.key("\ue00c")  # Escape
    check(not drv.js("return document.getElementById('promo').classList.contains('open')")
          and drv.hash_ofen() == pos, "Escape cancels: nothing played")
    drv.click('#grid div[data-square="a3"]')
    drv.click('#grid div[data-square="a4"]')
    drv.wait("return document.getElementById('promo').classList.contains('open')", "the chooser again")
    drv.click('#promo-choices button[data-uoi="a3a4n"]')
    drv.wait_ready(1)
    check(drv.hash_ofen() == promos["n"]["ofen"] and "lastmove=a3a4n" in drv.js("return document.getElementById('board').src"),
          "the knight clicked is played: %s" % drv.hash_ofen())
    drv.key("\ue012")  # ArrowLeft
    drv.wait_ready(0)
    drv.click('#grid div[data-square="a3"]')
    drv.click('#grid div[data-square="a4"]')
    drv.wait("return document.getElementById('promo').classList.contains('open')", "the chooser a third time")
    drv.key("r")
    drv.wait_ready(1)
    check(drv.hash_ofen() == promos["r"]["ofen"], "the key R chooses the rook: %s" % drv.hash_ofen())


def main():
    srv = drv = None
    try:
        tables = os.path.join(TMP, "t4")
        subprocess.run([OCTAD, "solve", "--max-pieces", "4", "--tables", tables, "--quiet", "--threads", "2"],
                       check=True, stdout=subprocess.DEVNULL)
        srv = subprocess.Popen([OCTAD, "serve", "--tables", tables, "--listen", "127.0.0.1:0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        port = int(srv.stdout.readline().rsplit(":", 1)[1])
        base = "http://127.0.0.1:%d/" % port
        with urllib.request.urlopen(base) as r:
            page = r.read().decode()
            csp = r.headers["Content-Security-Policy"]
        check(r.status == 200 and "<title>octad oracle</title>" in page, "GET / serves the page")
        check("http://" not in page and "https://" not in page and "default-src 'self'" in csp,
              "the page names no other site, and its CSP allows only this server")

        drv = Driver(TMP, "900,1100")
        start = "3k/4/4/R2K w - - 0 1"
        a = api(port, "/api/v1/octad", start)
        drv.s("POST", "/url", {"url": base + "#" + urllib.parse.quote(start)})
        drv.wait_ready(0)
        rows = drv.js("return [...document.querySelectorAll('#moves tr')].map(r => r.cells[0].textContent)")
        check(rows == [m["san"] for m in a["moves"]], "the move list is the API's, best first: %s" % " ".join(rows))
        value = drv.js("return document.getElementById('value').textContent")
        check("White to move: win" in value and "dtm 3 plies" in value, "the value: %s" % value)
        check(drv.js("return document.querySelector('#moves tr').className") == "c-win",
              "the best move is coloured as a win for the mover")
        src = drv.js("return document.getElementById('board').src")
        check("/api/v1/octad/svg?ofen=" in src, "the board is our SVG")
        check(drv.js("return document.getElementById('board').naturalWidth") > 0, "and it loaded")

        after = next(m for m in a["moves"] if m["uoi"] == "d1c2")
        drv.click('#grid div[data-square="d1"]')
        drv.click('#grid div[data-square="c2"]')
        drv.wait_ready(1)
        check(drv.hash_ofen() == after["ofen"], "clicking d1 then c2 plays Kc2; the URL holds %s" % drv.hash_ofen())
        check("lastmove=d1c2" in drv.js("return document.getElementById('board').src"), "the last move is marked")
        drv.click('#grid div[data-square="a1"]')
        drv.click('#grid div[data-square="b3"]')  # not a legal move: nothing happens
        time.sleep(0.5)
        check(drv.hash_ofen() == after["ofen"], "an illegal click does nothing")
        drv.key("\ue012")  # ArrowLeft
        drv.wait_ready(0)
        check(drv.hash_ofen() == start, "left arrow: back to the start position")
        drv.key("\ue014")  # ArrowRight
        drv.wait_ready(1)
        check(drv.hash_ofen() == after["ofen"], "right arrow: forward again")
        b = api(port, "/api/v1/octad", after["ofen"])
        drv.click("#moves tr:first-child")
        drv.wait_ready(2)
        check(drv.hash_ofen() == b["moves"][0]["ofen"], "clicking a move in the list plays it")

        test_promotion(drv, port, base)

        drv.s("POST", "/url", {"url": base + "#" + urllib.parse.quote("3k/4/4/R2K w - - 2 5")})
        drv.js("location.reload()")
        drv.wait_ready(0)
        drv.click("#play")
        drv.click('#grid div[data-square="d1"]')
        drv.click('#grid div[data-square="d2"]')
        drv.wait_ready(2)
        mine = next(m for m in api(port, "/api/v1/octad", "3k/4/4/R2K w - - 2 5")["moves"] if m["uoi"] == "d1d2")
        reply = api(port, "/api/v1/octad", mine["ofen"])["moves"][0]
        check(drv.hash_ofen() == reply["ofen"], "play against perfect play: Kd2 is answered by %s" % reply["san"])
        drv.click("#play")

        ml = api(port, "/api/v1/octad/mainline", reply["ofen"])
        spans = drv.js("return [...document.querySelectorAll('#mainline span')].map(s => s.textContent)")
        check(spans == [m["san"] for m in ml["mainline"]], "the mainline: %s" % " ".join(spans))
        drv.click("#mainline span:last-of-type")
        drv.wait_ready(2 + len(spans))
        check(drv.hash_ofen() == ml["mainline"][-1]["ofen"] and "checkmated" in
              drv.js("return document.getElementById('value').textContent"), "clicking its last move: mate")
        check("1-0" in drv.js("return document.getElementById('pgn').value") or
              "0-1" in drv.js("return document.getElementById('pgn').value"), "its PGN")

        drv.click("#deployed-box summary")
        drv.wait("return document.querySelectorAll('#deployed tr').length === 144", "the 144 deployed starts")
        first = drv.js("return document.querySelector('#deployed tr').cells[1].textContent")
        check(first == "ppnk/4/4/KNPP w NFnf - 0 1", "the deployed starts, in order (%s first)" % first)
        drv.click("#flip")
        check("flip=1" in drv.js("return document.getElementById('board').src"), "flip")

        names = drv.js("return performance.getEntriesByType('resource').map(e => e.name)")
        check(names and all(n.startswith(base) for n in names), "every resource came from the server (%d)" % len(names))

        drv.s("POST", "/url", {"url": base + "#" + urllib.parse.quote(start)})
        drv.js("location.reload()")
        drv.wait_ready(0)
        os.makedirs(SHOTS, exist_ok=True)
        shot = os.path.join(SHOTS, "explorer.png")
        with open(shot, "wb") as f:
            f.write(base64.b64decode(drv.s("GET", "/screenshot")))
        check(os.path.getsize(shot) > 10000, "screenshot kept: " + shot)
        drv.s("POST", "/window/rect", {"width": 390, "height": 844})
        time.sleep(0.5)
        wide = drv.js("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        check(wide[0] <= wide[1], "a phone-sized window (390 px) needs no sideways scrolling (%r)" % wide)
        with open(os.path.join(SHOTS, "explorer-phone.png"), "wb") as f:
            f.write(base64.b64decode(drv.s("GET", "/screenshot")))
    finally:
        if drv:
            drv.quit()
        if srv:
            srv.send_signal(signal.SIGTERM)
            srv.wait()
        shutil.rmtree(TMP, ignore_errors=True)
    print("test_explorer: all passed")


if __name__ == "__main__":
    main()
