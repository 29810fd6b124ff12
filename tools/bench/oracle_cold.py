#!/usr/bin/env python3
"""oracle_cold.py: the first answer of a fresh process, for two builds of `octad` side by side
(before and after a change): `octad probe OFEN` (a new store, the position's table and the tables
its moves lead to opened and checked, the answer printed) and `octad serve` (started, then the wall
time of its first GET /api/v1/octad?ofen=OFEN, then stopped).

    python3 tools/bench/oracle_cold.py OCTAD_A OCTAD_B --tables DIR [--rounds R] OFEN...

The table files are read once before timing so that both builds find them in the page cache. Each
round runs A then B or B then A (alternating), per position. Prints per position and program the
median over the rounds of the wall milliseconds and of the CPU milliseconds (probe: the whole
process, rusage; serve: the server's between the request and the answer, /proc/PID/stat, in clock
ticks of 10 ms), and every round's wall figure. On a shared machine the CPU figures are the ones to
compare.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request


def cpu_ms(pid):
    """User + system CPU milliseconds of a running process (/proc/PID/stat)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1e3 / os.sysconf("SC_CLK_TCK")


def probe_ms(octad, tables, ofen):
    t0 = time.monotonic()
    proc = subprocess.Popen([octad, "probe", "--tables", tables, ofen], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    ms = (time.monotonic() - t0) * 1e3
    if status != 0:
        sys.exit("%s probe %s: %s" % (octad, ofen, proc.stderr.read().decode().strip()))
    proc.stderr.close()
    proc.returncode = 0
    return ms, (usage.ru_utime + usage.ru_stime) * 1e3


def serve_ms(octad, tables, ofen):
    srv = subprocess.Popen([octad, "serve", "--tables", tables, "--listen", "127.0.0.1:0", "--threads", "1"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = srv.stdout.readline()  # "...; listening on http://127.0.0.1:PORT"
    if "listening on" not in line:
        sys.exit("%s serve did not start: %r" % (octad, line))
    port = int(line.rsplit(":", 1)[1])
    url = "http://127.0.0.1:%d/api/v1/octad?%s" % (port, urllib.parse.urlencode({"ofen": ofen}))
    c0, t0 = cpu_ms(srv.pid), time.monotonic()
    with urllib.request.urlopen(url, timeout=600) as r:
        body = r.read()
    ms, cpu = (time.monotonic() - t0) * 1e3, cpu_ms(srv.pid) - c0
    srv.terminate()
    srv.wait()
    if b'"category"' not in body:
        sys.exit("%s serve %s: %r" % (octad, ofen, body[:200]))
    return ms, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--tables", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("ofens", nargs="+")
    o = ap.parse_args()
    subprocess.run("cat %s/*.otb > /dev/null" % o.tables, shell=True, check=True)
    for ofen in o.ofens:
        for name, fn in (("probe", probe_ms), ("serve", serve_ms)):
            runs = {o.a: [], o.b: []}
            for r in range(o.rounds):
                for prog in ((o.a, o.b) if r % 2 == 0 else (o.b, o.a)):
                    runs[prog].append(fn(prog, o.tables, ofen))
            for prog in (o.a, o.b):
                wall, cpu = [w for w, _ in runs[prog]], [c for _, c in runs[prog]]
                print("%-28s %-5s %-36s wall median %7.1f ms, CPU median %7.1f ms  (wall: %s)"
                      % (ofen, name, prog, statistics.median(wall), statistics.median(cpu),
                         " ".join("%.0f" % x for x in wall)))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
