#!/usr/bin/env python3
"""test_dockerfile.py: deploy/Dockerfile against the project's one list of dependencies (issue 36).

The image's build stage once installed its own package list; it drifted from the tests'
needs and the image stopped building, unnoticed, because only a slow test builds it. This
quick check needs no Docker daemon:

1. The build stage installs through tools/install-deps.sh (the script the README runs) and
   names no package of its own.
2. The runtime stage installs exactly the Debian packages that provide the shared libraries
   the shipped programs name (their NEEDED entries, resolved by ldd on the programs built
   here, each library mapped to its package with dpkg; those packages bring the rest), apart from what the debian:12-slim base already has: a library
   added to the build without its runtime package fails here, and so does a stale package.
3. The runtime stage copies the programs the coordinator needs side by side.

It checks itself first: broken Dockerfiles, made from the real one, must each be refused
with the reason, so the checks can fail.
Skips (77) where dpkg is missing (not a Debian host).

usage: test_dockerfile.py REPO_ROOT PROGRAM...
"""
import os
import re
import shutil
import subprocess
import sys

# debian:12-slim's own libraries: the C library and what apt itself needs. Anything else the
# programs load must be installed by the runtime stage.
BASE = {"libc6", "libgcc-s1", "libstdc++6"}


def stages(text):
    """Dockerfile text -> {stage name: its instructions as one string per logical line}."""
    joined = re.sub(r"\\\n", " ", text)
    out, name = {}, None
    for line in joined.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"FROM\s+\S+(?:\s+AS\s+(\S+))?", line, re.I)
        if m:
            name = (m.group(1) or "stage%d" % len(out)).lower()
            out[name] = []
            continue
        if name is not None:
            out[name].append(line)
    return out


def apt_packages(lines):
    """The package names of every `apt-get install` in these lines."""
    pkgs = []
    for line in lines:
        for m in re.finditer(r"apt-get\s+install((?:\s+[^&|;]+)*)", line):
            pkgs += [w for w in m.group(1).split() if not w.startswith("-")]
    return pkgs


def needed_packages(programs):
    """The Debian packages that provide the shared libraries the programs load, minus BASE."""
    pkgs = set()
    for prog in programs:
        # the program's own NEEDED entries: their packages' dependencies bring the rest
        dyn = subprocess.run(["objdump", "-p", prog], capture_output=True, text=True, check=True).stdout
        direct = set(re.findall(r"^\s*NEEDED\s+(\S+)", dyn, re.M))
        out = subprocess.run(["ldd", prog], capture_output=True, text=True, check=True).stdout
        for m in re.finditer(r"^\s*(\S+)\s+=>\s+(/\S+)", out, re.M):
            if m.group(1) not in direct:
                continue
            path = m.group(2)
            cands = [path, os.path.realpath(path)]
            cands += [p.replace("/lib/", "/usr/lib/", 1) for p in cands if p.startswith("/lib/")]
            for cand in cands:
                r = subprocess.run(["dpkg", "-S", cand], capture_output=True, text=True)
                if r.returncode == 0:
                    pkgs.add(r.stdout.split(":")[0])
                    break
            else:
                raise SystemExit("FAIL: %s loads %s, which no Debian package provides" % (prog, path))
    return pkgs - BASE


def problems(text, needed, programs):
    """Everything wrong with this Dockerfile text, as sentences (empty: fine)."""
    st = stages(text)
    found = []
    if "build" not in st or "runtime" not in st:
        return ["the Dockerfile needs a stage 'build' and a stage 'runtime' (found %s)" % sorted(st)]
    build = st["build"]
    if not any(re.match(r"COPY\s+tools/install-deps\.sh\b", line) for line in build):
        found.append("the build stage does not copy tools/install-deps.sh")
    if not any(line.startswith("RUN") and "install-deps.sh" in line for line in build):
        found.append("the build stage does not run install-deps.sh")
    own = apt_packages(build)
    if own:
        found.append("the build stage installs packages of its own (%s): add them to "
                     "tools/install-deps.sh instead" % " ".join(own))
    runtime = set(apt_packages(st["runtime"]))
    for pkg in sorted(needed - runtime):
        found.append("the runtime stage lacks %s, which the programs load" % pkg)
    for pkg in sorted(runtime - needed):
        found.append("the runtime stage installs %s, which no program loads" % pkg)
    copied = " ".join(line for line in st["runtime"] if line.startswith("COPY"))
    for prog in programs:
        if "/bin/" + os.path.basename(prog) not in copied:
            found.append("the runtime stage does not copy %s" % os.path.basename(prog))
    return found


def main():
    if len(sys.argv) < 3:
        print(__doc__.split("usage: ")[1].strip(), file=sys.stderr)
        return 2
    if not shutil.which("dpkg") or not shutil.which("ldd") or not shutil.which("objdump"):
        print("skip: dpkg, ldd or objdump missing (not a Debian host)")
        return 77
    root, programs = sys.argv[1], sys.argv[2:]
    with open(os.path.join(root, "deploy", "Dockerfile")) as f:
        text = f.read()
    needed = needed_packages(programs)
    print("info: the programs load libraries of %s" % " ".join(sorted(needed)))

    runtime_pkgs = apt_packages(stages(text).get("runtime", []))
    one = runtime_pkgs[0] if runtime_pkgs else "libzmq5"
    broken = {
        "the build stage with a package list of its own":
            (text.replace("RUN bash /tmp/install-deps.sh",
                          "RUN apt-get install -y cmake && bash /tmp/install-deps.sh"), "packages of its own"),
        "the installer not run":
            (re.sub(r"RUN bash /tmp/install-deps\.sh[^\n]*\n", "", text), "does not run install-deps.sh"),
        "the installer not copied":
            (re.sub(r"COPY tools/install-deps\.sh[^\n]*\n", "", text), "does not copy"),
        "a runtime library missing":
            (re.sub(r"(apt-get install[^\n]*?)\s%s\b" % re.escape(one), r"\1", text), "lacks " + one),
        "a stale runtime package":
            (text.replace(" " + one, " " + one + " libpng16-16", 1), "installs libpng16-16"),
    }
    failed = 0
    for what, (bad, expect) in broken.items():
        got = problems(bad, needed, programs)
        if bad == text or not any(expect in p for p in got):
            print("FAIL: the check does not refuse %s (it said: %s)" % (what, got))
            failed += 1
        else:
            print("ok: refuses %s: %s" % (what, [p for p in got if expect in p][0]))
    got = problems(text, needed, programs)
    for p in got:
        print("FAIL: deploy/Dockerfile: " + p)
    if not got:
        print("ok: deploy/Dockerfile installs through tools/install-deps.sh and its runtime "
              "stage has exactly the libraries the programs load")
    return 1 if failed or got else 0


if __name__ == "__main__":
    sys.exit(main())
