#!/usr/bin/env python3
"""test_svg.py: `octad svg` images checked as pictures: four boards are laid out
on one HTML page, rendered by headless Chromium, and the screenshot's pixels
are examined: each image has its expected size, every square that holds a
piece has ink near its centre (dark outline, white or black body) and every
empty square has none, flipping puts Black at the bottom, the checked king
glows red, and the last move is highlighted.
usage: test_svg.py OCTAD   (exit 77 when chromium is not installed)"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

OCTAD = sys.argv[1]
BG = (255, 0, 255)  # the page around the images


def read_png(path):
    """Decodes an 8-bit RGB/RGBA PNG into (width, height, rows of (r, g, b))."""
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat, width = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            width, height, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 6), f'PNG type {ctype} depth {depth}'
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def svg(*args):
    return subprocess.run([OCTAD, 'svg', *args], check=True, capture_output=True, text=True).stdout


def box(rows, x0, y0, w, h):
    """The bounding box of non-background pixels inside a region."""
    xs, ys = [], []
    for y in range(y0, y0 + h):
        for x in range(x0, x0 + w):
            if max(abs(a - b) for a, b in zip(rows[y][x], BG)) > 40:
                xs.append(x)
                ys.append(y)
    return (min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1) if xs else None


def centre(rows, x, y, s):
    """Pixels of the middle half of a square."""
    return [rows[j][i] for j in range(int(y + s / 4), int(y + 3 * s / 4)) for i in range(int(x + s / 4), int(x + 3 * s / 4))]


def count(pixels, test):
    return sum(1 for p in pixels if test(p))


def ink(p):  # piece outline or black body
    return max(p) < 70


def white_body(p):
    return min(p) > 245


def red(p):
    return p[0] > 200 and p[1] < 60 and p[2] < 60


fails = []


def expect(cond, what):
    if not cond:
        fails.append(what)


def occupied(board_rows, files):
    """Occupied squares of a board drawn as text (octad show / board rows top to bottom)."""
    return {(f, len(board_rows) - 1 - r) for r, row in enumerate(board_rows) for f, ch in enumerate(row[:files]) if ch != '.'}


def main():
    chromium = shutil.which('chromium')
    if not chromium:
        print('SKIP: chromium is not installed')
        return 77
    tmp = tempfile.mkdtemp()
    images = [  # (file, left, top, size, args)
        ('start.svg', 20, 20, 360, []),
        ('flip.svg', 420, 20, 360, ['--flip']),
        ('mate.svg', 20, 420, 360, ['--variant', 'chess', '--moves', 'f3 e5 g4 Qh4', '--lastmove']),
        ('small.svg', 420, 420, 200, ['--size', '200', '--moves', 'c2 b3', '--arrow', 'a1b3']),
    ]
    html = '<html><body style="margin:0;background:#ff00ff">'
    for name, left, top, size, args in images:
        open(os.path.join(tmp, name), 'w').write(svg(*args))
        html += f'<img src="{name}" style="position:absolute;left:{left}px;top:{top}px">'
    open(os.path.join(tmp, 'page.html'), 'w').write(html + '</body></html>')
    shot = os.path.join(tmp, 'shot.png')
    subprocess.run([chromium, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                    '--disable-background-networking', '--disable-component-update', '--disable-sync',
                    '--hide-scrollbars', f'--user-data-dir={tmp}/profile', '--window-size=800,800',
                    f'--screenshot={shot}', 'file://' + os.path.join(tmp, 'page.html')],
                   check=True, capture_output=True, timeout=90)
    w, h, rows = read_png(shot)
    expect((w, h) == (800, 800), f'screenshot size {w}x{h}')
    for name, left, top, size, args in images:
        got = box(rows, left - 10, top - 10, size + 20, size + 20)
        expect(got == (left, top, size, size), f'{name}: drawn at {got}, want {(left, top, size, size)}')
    # octad start: pieces on ranks 1 and 4 only; white bodies on rank 1, black bodies on rank 4
    s = 90
    for flip, left in ((False, 20), (True, 420)):
        for f in range(4):
            for r in range(4):
                x = left + (3 - f if flip else f) * s
                y = 20 + (r if flip else 3 - r) * s
                px = centre(rows, x, y, s)
                has = count(px, ink) > 40
                expect(has == (r in (0, 3)), f'flip={flip}: square {"abcd"[f]}{r + 1} ink {count(px, ink)}')
                if r == 0:
                    expect(count(px, white_body) > 100, f'flip={flip}: {"abcd"[f]}1 should hold a white piece')
                if r == 3:
                    expect(count(px, white_body) < 20, f'flip={flip}: {"abcd"[f]}4 should hold a black piece')
    # chess after the fool's mate: e1 (the mated king) glows red; h4 (last move) is highlighted
    s = 45
    e1 = [rows[y][x] for y in range(420 + 7 * s, 420 + 8 * s) for x in range(20 + 4 * s, 20 + 5 * s)]
    expect(count(e1, red) > 50, f'e1 should glow red ({count(e1, red)} red pixels)')
    a1 = [rows[y][x] for y in range(420 + 7 * s, 420 + 8 * s) for x in range(20, 20 + s)]
    expect(count(a1, red) == 0, 'a1 should not be red')
    h4 = rows[420 + 4 * s + 3][20 + 7 * s + 3]
    h3 = rows[420 + 5 * s + 3][20 + 7 * s + 3]
    expect(h4 != h3 and h4[2] < 120, f'h4 should be highlighted: {h4} against h3 {h3}')
    for f in range(8):
        for r in (2, 5):  # ranks 3 and 6: empty but for the f3 pawn
            px = centre(rows, 20 + f * s, 420 + (7 - r) * s, s)
            expect((count(px, ink) > 10) == (r == 2 and f == 5), f'chess square {"abcdefgh"[f]}{r + 1}')
    # the small board: an arrow from a1 towards b3 (green between the two squares)
    s = 50
    mid = [rows[y][x] for y in range(420 + 2 * s, 420 + 3 * s) for x in range(420 + 10, 420 + s + 20)]
    expect(count(mid, lambda p: p[1] > p[0] + 40 and p[1] > p[2] + 40 and p[1] < 160) > 30, 'arrow a1-b3 not seen')
    for f in fails:
        print('FAIL', f)
    print(f'{len(fails)} failures')
    return 1 if fails else 0


sys.exit(main())
