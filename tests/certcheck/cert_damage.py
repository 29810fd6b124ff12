#!/usr/bin/env python3
"""cert_damage.py: damages a certificate (docs/certificate.md) in one named way, for the
checker's refusal tests; prints the OFEN fields 1-2 of the record it damaged (if one).

usage: cert_damage.py IN OUT KIND
KIND: missing-reply  remove a White-to-move record (not the start) of White's closure
      illegal-move   the first designated move becomes an illegal one (a1 to a1)
      rank-flat      the node of highest rank gets rank 1 (its moves' nodes do not fall below)
      white-mated    add a White-checkmated position to White's closure
      flip-bit       flip one bit in the middle of the compressed body (checksum kept)
      flip-record    flip one bit of a record's move, recompressed, the old checksum kept
      truncate       drop the file's last byte
"""
import subprocess
import sys

MEN = ".PNBRQK..pnbrqk."


def fnv(data, h=0xcbf29ce484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def read(path):
    data = open(path, "rb").read()
    lines, at = [], 0
    while not lines or not lines[-1].startswith(b"checksum"):
        end = data.index(b"\n", at)
        lines.append(data[at:end])
        at = end + 1
    body = subprocess.run(["zstd", "-d", "-c", "-q"], input=data[at:], capture_output=True, check=True).stdout
    return lines, body, data


def write(path, lines, sections, keep=None):
    body = b"".join(b"".join(recs) for _, recs in sections)
    z = subprocess.run(["zstd", "-q", "-c", "--content-size"], input=body, capture_output=True, check=True).stdout
    head = [lines[0], lines[1], lines[2]]
    head += [b"count %s %d" % (name, len(recs)) for name, recs in sections]
    head.append(b"body zstd %d" % len(z))
    text = b"".join(line + b"\n" for line in head)
    text += keep + b"\n" if keep else b"checksum %016x\n" % fnv(body, fnv(text))
    open(path, "wb").write(text + z)


def sections_of(lines, body):
    out, at = [], 0
    for line in lines:
        if line.startswith(b"count "):
            _, name, n = line.split()
            n = int(n)
            out.append((name, [body[at + 16 * i: at + 16 * i + 16] for i in range(n)]))
            at += 16 * n
    return out


def ofen12(rec):
    board = int.from_bytes(rec[0:8], "little")
    ranks = []
    for r in range(3, -1, -1):
        s, run = "", 0
        for f in range(4):
            man = board >> (4 * (r * 4 + f)) & 15
            if man == 0:
                run += 1
                continue
            if run:
                s, run = s + str(run), 0
            s += MEN[man]
        ranks.append(s + (str(run) if run else ""))
    return "/".join(ranks) + (" b" if rec[8] & 1 else " w")


def key(rec):
    return (int.from_bytes(rec[0:8], "little"), int.from_bytes(rec[8:10], "little"), rec[10])


def main():
    src, dst, kind = sys.argv[1:4]
    lines, body, raw = read(src)
    secs = sections_of(lines, body)
    recs = secs[0][1]
    damaged = None
    if kind == "missing-reply":
        start = lines[1].split(b" ")[1].decode()
        for i, r in enumerate(recs):
            if not r[8] & 1 and not ofen12(r).startswith(start + " "):
                damaged = ofen12(r)
                del recs[i]
                break
        damaged = None  # the checker names the parent whose reply went missing
    elif kind == "illegal-move":
        for i, r in enumerate(recs):
            if r[12:14] != b"\xff\xff":
                recs[i] = r[:12] + b"\x00\x00" + r[14:]
                damaged = ofen12(r)
                break
    elif kind == "rank-flat":
        i = max(range(len(recs)), key=lambda k: int.from_bytes(recs[k][14:16], "little"))
        recs[i] = recs[i][:14] + b"\x01\x00"
        damaged = ofen12(recs[i])
    elif kind == "white-mated":
        # 4/2k1/1q2/K3 w: White king a1, Black queen b2 guarded by the king on c3.
        board = 6 | (13 << (4 * 5)) | (14 << (4 * 10))
        rec = board.to_bytes(8, "little") + bytes([0, 0, 0, 0, 0xFF, 0xFF, 0, 0])
        recs.append(rec)
        recs.sort(key=key)
        damaged = ofen12(rec)
    elif kind == "flip-bit":
        head_len = len(raw) - int(lines[-2].split()[2])
        pos = head_len + (len(raw) - head_len) // 2
        raw = raw[:pos] + bytes([raw[pos] ^ 0x10]) + raw[pos + 1:]
        open(dst, "wb").write(raw)
        return
    elif kind == "flip-record":
        recs[0] = recs[0][:12] + bytes([recs[0][12] ^ 1]) + recs[0][13:]
        write(dst, lines, secs, keep=lines[-1])
        return
    elif kind == "truncate":
        open(dst, "wb").write(raw[:-1])
        return
    else:
        sys.exit("unknown kind " + kind)
    write(dst, lines, secs)
    if damaged:
        print(damaged)


main()
